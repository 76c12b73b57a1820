#!/bin/sh
# A program linking libexecveat.a shares one namespace with it: every
# global the archive defines is either the API (execveat, fexecve,
# openat2, closefrom, close_range, fchmodat, lchmod, faccessat,
# pidfd_getpid, in their versions, and 2.0's inroot_ functions) or carries the library's prefix, so
# that no name of the library's own can clash with a program's or another
# library's. (freopen is in the shared library only.)
#
#   check-static-names.sh ARCHIVE [NM]
set -eu
archive=$1
nm=${2:-nm}

defined=$("$nm" -g --defined-only "$archive" | awk 'NF == 3 { print $3 }')
if [ -z "$defined" ]; then
	echo "$archive defines no global symbol: is it the library?"
	exit 1
fi
# __x86.get_pc_thunk.*: i386 PIC helpers that gcc emits into every object
# as identical COMDAT copies, which the linker merges; no C name can clash.
stray=$(printf '%s\n' "$defined" |
	grep -Ev '^(execveat|fexecve|openat2|closefrom|close_range|fchmodat|lchmod|faccessat|pidfd_getpid)(@@?[A-Z0-9_.]+)?$|^libexecveat_|^inroot_[a-z_]+(@@?[A-Z0-9_.]+)?$' |
	grep -Ev '^__x86\.get_pc_thunk\.' || true)
if [ -n "$stray" ]; then
	echo "globals without the libexecveat_ prefix:"
	printf '%s\n' "$stray"
	exit 1
fi
echo "static globals:" $defined
