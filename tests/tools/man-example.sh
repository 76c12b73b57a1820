#!/bin/sh
# man-example.sh PAGE EXPECTED_OUTPUT INCLUDE_DIR LIBRARY_DIR CC...: the C
# program in PAGE's EXAMPLES section (the .EX block that starts with
# #include) compiles against the library and prints EXPECTED_OUTPUT.
set -eu
page=$1 expected=$2 incdir=$3 libdir=$4
shift 4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Undo the roff escapes a C program needs: \e (backslash), \- (minus),
# \(aq and \(dq (quotes), \& (nothing).
sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$page" |
	sed -n '/^\.EX/,/^\.EE/{/^\.E[XE]/d;p}' |
	sed -n '/^#include/,$p' |
	sed -e 's/\\e/\\/g' -e 's/\\-/-/g' -e "s/\\\\(aq/'/g" \
		-e 's/\\(dq/"/g' -e 's/\\&//g' >"$tmp/example.c"
# Only the first program: the .EX blocks after it are shell commands.
awk '/^}$/ { print; exit } { print }' "$tmp/example.c" >"$tmp/program.c"
grep -q '^int$' "$tmp/program.c" || { echo "no C example in $page"; exit 1; }

"$@" -Wall -Wextra -Werror -I"$incdir" -o "$tmp/example" "$tmp/program.c" \
	-L"$libdir" -lexecveat
out=$(LD_LIBRARY_PATH=$libdir "$tmp/example")
if [ "$out" != "$expected" ]; then
	echo "the example printed: $out"
	echo "expected:            $expected"
	exit 1
fi
echo "the example in $(basename "$page") compiles and prints: $out"
