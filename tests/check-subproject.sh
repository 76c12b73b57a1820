#!/bin/sh
# libexecveat as a meson subproject of another project: the user's
# dependency('execveat', fallback: ...) finds our override_dependency, and
# the program built with it runs.
#
#   check-subproject.sh SOURCE_ROOT
set -eu
source_root=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cp "$source_root/tests/subproject_user/meson.build" \
	"$source_root/tests/subproject_user/run_sh_by_fd.c" "$work/"
mkdir "$work/subprojects"
ln -s "$source_root" "$work/subprojects/libexecveat"
# Never the system's copy: the fallback must be what is used.
meson setup "$work/build" "$work" --force-fallback-for=execveat >"$work/setup.log" 2>&1 ||
	{ cat "$work/setup.log"; exit 1; }
meson compile -C "$work/build" >"$work/compile.log" 2>&1 ||
	{ cat "$work/compile.log"; exit 1; }
status=0
"$work/build/run-sh-by-fd" || status=$?
if [ "$status" -ne 7 ]; then
	echo "the subproject-built program exited $status, expected 7"
	exit 1
fi
echo "subproject build runs: exit status $status"
