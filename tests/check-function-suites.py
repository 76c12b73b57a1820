#!/usr/bin/env python3
# Each public function's tests, found by its name: every name the
# version script exports is a suite of the build (tests/meson.build's
# function_tests: a function's suite is its name) with a test in it; each
# test the map names is a test of the build, in that function's suite,
# unless the build says it leaves it out; every test of the build is in
# a function's suite or a library-wide one; and tests/README.md shows the
# same map, with the other suites each test runs in.
#
#   check-function-suites.py MESON BUILD_DIR VERSION_SCRIPT README
#       --library-wide SUITE,... --left-out TEST,... FUNCTION=TEST,...
import argparse
import json
import re
import subprocess
import sys


def names(text):
    return [n for n in text.split(',') if n]


def exported_names(version_script):
    """the names of the version script's global: lists"""
    with open(version_script, encoding='utf-8') as f:
        text = re.sub(r'/\*.*?\*/', '', f.read(), flags=re.S)
    found = []
    for block in re.findall(r'global:(.*?)(?:local:|\})', text, flags=re.S):
        found += re.findall(r'([A-Za-z_]\w*)\s*;', block)
    return found


def build_tests(meson, build):
    """each test's name and its suites, the project's name taken off"""
    tests = json.loads(subprocess.check_output(
        [meson, 'introspect', '--tests', build]))
    return {t['name']: [s.split(':')[-1] for s in t['suite']] for t in tests}


def tables(readme):
    """each '## ' section's table rows, a row as its cells, a cell as the
    names it writes in backquotes (a table's head writes none)"""
    sections, rows = {}, None
    with open(readme, encoding='utf-8') as f:
        for line in f:
            if line.startswith('## '):
                rows = sections.setdefault(line[3:].strip(), [])
            elif rows is not None and line.startswith('|') and \
                    not re.match(r'\|\s*-', line):
                cells = line.strip().strip('|').split('|')
                rows.append([re.findall(r'`([^`]+)`', c) for c in cells])
    return sections


def section(readme_tables, title, problems):
    if title not in readme_tables:
        problems.append('README: no section "## %s"' % title)
        return []
    return readme_tables[title]


def check(args):
    problems = []
    exported = exported_names(args.version_script)
    function_tests = {}
    for entry in args.map:
        function, _, tests = entry.partition('=')
        function_tests[function] = names(tests)
    library_wide = set(names(args.library_wide))
    left_out = set(names(args.left_out))
    built = build_tests(args.meson, args.build)
    mapped = {t for tests in function_tests.values() for t in tests}

    for function in exported:
        if function not in function_tests:
            problems.append('%s: exported, and no suite (function_tests '
                            'has no entry)' % function)
        elif not any(function in suites for suites in built.values()):
            problems.append('%s: no test of this build in its suite' %
                            function)
    for function, tests in function_tests.items():
        if function not in exported:
            problems.append('%s: in function_tests, but no exported name'
                            % function)
        for test in tests:
            if test not in built and test not in left_out:
                problems.append('%s: a test of %s in function_tests, and '
                                'no test of this build' % (test, function))
            elif test in built and function not in built[test]:
                problems.append('%s: not in suite %s, which function_tests '
                                'gives it' % (test, function))
    for test in sorted(left_out):
        if test not in mapped:
            problems.append('%s: left out, and not in function_tests' %
                            test)
        elif test in built:
            problems.append('%s: said left out, and a test of this build' %
                            test)
    for test, suites in sorted(built.items()):
        for suite in suites:
            if suite in function_tests and \
                    test not in function_tests[suite]:
                problems.append('%s: in suite %s, which function_tests does '
                                'not give it' % (test, suite))
        if not any(s in function_tests or s in library_wide for s in suites):
            problems.append('%s: in no function\'s suite and no '
                            'library-wide one (%s)' % (test, ', '.join(suites)))

    readme = tables(args.readme)
    shown = {}
    for row in section(readme, 'Each function\'s tests', problems):
        if len(row) >= 2 and len(row[0]) == 1:
            shown[row[0][0]] = row[1]
    for function, tests in function_tests.items():
        if function not in shown:
            problems.append('README: no row for %s' % function)
            continue
        for test in sorted(set(shown[function]) - set(tests)):
            problems.append('README: %s lists %s, which function_tests '
                            'does not' % (function, test))
        for test in sorted(set(tests) - set(shown[function])):
            problems.append('README: %s does not list %s' % (function, test))
    for function in sorted(set(shown) - set(function_tests)):
        problems.append('README: a row for %s, which function_tests does '
                        'not have' % function)
    proven = {}
    for row in section(readme, 'What each test proves', problems):
        if len(row) >= 2 and len(row[0]) == 1:
            proven[row[0][0]] = row[1]
    for test in sorted(mapped - set(proven)):
        problems.append('README: no row for %s in "What each test proves"'
                        % test)
    for test in sorted(set(proven) - mapped):
        problems.append('README: %s says what it proves, and is in no '
                        'function\'s suite' % test)
    for test in sorted(set(proven) & set(built)):
        others = [s for s in built[test] if s not in function_tests]
        if sorted(proven[test]) != sorted(others):
            problems.append('README: %s runs in %s, not %s' % (
                test, ', '.join(others), ', '.join(proven[test])))
    wide = {row[0][0] for row in section(readme, 'Library-wide suites',
                                         problems) if len(row[0]) == 1}
    if wide != library_wide:
        problems.append('README: the library-wide suites are %s, not %s' % (
            ', '.join(sorted(library_wide)), ', '.join(sorted(wide))))

    if problems:
        print('The function suites, tests/meson.build\'s function_tests '
              'and tests/README.md disagree:')
        print('\n'.join(problems))
        return 1
    print('%d functions, each a suite; %d tests of this build in one, %d '
          'in a library-wide suite alone; %d left out here' % (
              len(function_tests), sum(
                  1 for s in built.values()
                  if any(x in function_tests for x in s)),
              sum(1 for s in built.values()
                  if not any(x in function_tests for x in s)),
              len(left_out)))
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('meson')
    parser.add_argument('build')
    parser.add_argument('version_script')
    parser.add_argument('readme')
    parser.add_argument('--library-wide', default='')
    parser.add_argument('--left-out', default='')
    parser.add_argument('map', nargs='*', metavar='FUNCTION=TEST,...')
    return check(parser.parse_intermixed_args())


if __name__ == '__main__':
    sys.exit(main())
