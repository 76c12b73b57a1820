#!/bin/sh
# man-example.sh PAGE EXPECTED_OUTPUT INCLUDE_DIR LIBRARY_DIR CC...: the C
# program in PAGE's EXAMPLES section (the .EX block that starts with
# #include) compiles against the library and prints EXPECTED_OUTPUT. A
# second program there, if any, is an interpreter's check of a script
# (execveat(3)): it must allow an executable script without executing it,
# and refuse a file without execute permission with 126, unless it says
# the kernel cannot be asked.
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

# The second program: from the first #include after the first program's
# closing brace to the last closing brace.
awk 'done && /^#include/ { p = 1 } p { print } /^}$/ { done = 1 }' \
	"$tmp/example.c" | awk '{ line[NR] = $0 } /^}$/ { last = NR }
		END { for (i = 1; i <= last; i++) print line[i] }' >"$tmp/second.c"
[ -s "$tmp/second.c" ] || exit 0
"$@" -Wall -Wextra -Werror -I"$incdir" -o "$tmp/second" "$tmp/second.c" \
	-L"$libdir" -lexecveat
# A script it may run, which must not be executed by the asking.
printf '#!/bin/sh\necho executed\n' >"$tmp/script"
chmod 755 "$tmp/script"
said=$(LD_LIBRARY_PATH=$libdir "$tmp/second" "$tmp/script" 2>&1) ||
	{ echo "the second example refused an executable script: $said"; exit 1; }
case $said in
"" | "cannot ask the kernel: "*) ;;
*) echo "the second example, asking about a script, said: $said"; exit 1 ;;
esac
chmod 644 "$tmp/second.c"
status=0
err=$(LD_LIBRARY_PATH=$libdir "$tmp/second" "$tmp/second.c" 2>&1) || status=$?
case $status:$err in
126:*"$(basename "$tmp")/second.c: "*) ;;
0:"cannot ask the kernel: "*) ;;
*)
	echo "the second example on a file without execute permission: $status: $err"
	exit 1
	;;
esac
echo "the second example in $(basename "$page") compiles and says: $err ($status)"
