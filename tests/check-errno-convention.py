#!/usr/bin/env python3
# The library's error convention (src/answer.h), read from its source:
# inside, a function answers -errno, the raw system calls (src/syscalls/)
# leave errno as they found it, and errno is written once, by answer(),
# as a public function returns. So the name errno appears in code (not in
# comments) only where one of these says why, and call_result(), which
# reads errno after a C library call, never wraps a raw one (sys_*),
# which sets none:
#
#   check-errno-convention.py SRC_DIR
import os
import re
import sys

ALLOWED = {
    'answer.h': 'answer() sets it; call_result() reads a C library call\'s',
    'syscalls/call.h': 'sys_call() turns syscall()\'s errno into -errno '
                       'and puts the caller\'s back',
    'freopen/freopen.c': 'stdio sets it (fflush, rewind), and the C '
                         'library\'s freopen answers with it',
    'access/access_fallback.c': 'the C library\'s clone sets it where it '
                                'fails, and the caller\'s is put back',
    'inroot/emptying.c': 'the C library\'s lseek, whose 64-bit position '
                         'x32\'s syscall() cannot pass',
}


def code_of(text):
    """text without its comments and string literals"""
    text = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'),
                  text, flags=re.S)
    text = re.sub(r'//[^\n]*', ' ', text)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)


def main(src):
    stray = []
    for folder, _, names in os.walk(src):
        for name in sorted(names):
            if not name.endswith(('.c', '.h')):
                continue
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, src)
            if rel in ALLOWED:
                continue
            with open(path, encoding='utf-8') as f:
                code = code_of(f.read())
            for number, line in enumerate(code.split('\n'), 1):
                if re.search(r'\berrno\b', line) and \
                        not line.lstrip().startswith('#include'):
                    stray.append('%s:%d: %s' % (rel, number, line.strip()))
            for m in re.finditer(r'\bcall_result\(\s*(\(\w+\)\s*)?sys_',
                                 code):
                number = code.count('\n', 0, m.start()) + 1
                stray.append('%s:%d: call_result() of a raw call' %
                             (rel, number))
    if stray:
        print('errno outside answer() and the places that say why '
              '(tests/check-errno-convention.py):')
        print('\n'.join(stray))
        return 1
    print('errno is set and read only in:', ', '.join(sorted(ALLOWED)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1]))
