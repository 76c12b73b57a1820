#!/bin/sh
# man-lint.sh MANDOC PAGE...: every page passes mandoc's linter at the
# warning level with nothing to say.
set -u
mandoc=$1
shift
out=$("$mandoc" -Tlint -W warning "$@" 2>&1)
status=$?
if [ -n "$out" ] || [ "$status" -ne 0 ]; then
	printf '%s\n' "$out"
	echo "mandoc -Tlint -W warning: exit status $status"
	exit 1
fi
echo "$# pages lint-clean"
