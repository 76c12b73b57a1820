#!/bin/sh
# Prints "FUNCTION NODE" for each function of libexecveat 1.2 and later
# that has a twin under glibc's own version: the node that programs built
# with the compiler given as arguments bind the function to, read off a
# program linked by that very compiler (x86_64: closefrom and close_range
# GLIBC_2.34, fchmodat and faccessat GLIBC_2.4, lchmod GLIBC_2.3.2;
# aarch64: GLIBC_2.34 and GLIBC_2.17; freopen and freopen64: x86_64
# GLIBC_2.2.5, i386 GLIBC_2.0 and GLIBC_2.1). Where this glibc lacks a
# function (closefrom and
# close_range before 2.34), the node a later glibc gives it: its first
# release, or the ABI's first node (fexecve's) where that is newer.
# Prints nothing for a C library without symbol versions (musl).
#
#   glibc-nodes.sh FEXECVE_NODE COMPILER [ARGS...]
set -eu
baseline=$1
shift
[ -n "$baseline" ] || exit 0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The newer of two GLIBC_ nodes.
newer() { printf '%s\n%s\n' "$1" "$2" | sort -V | tail -n 1; }

for entry in closefrom:GLIBC_2.34 close_range:GLIBC_2.34 \
	fchmodat:GLIBC_2.4 lchmod:GLIBC_2.3.2 \
	faccessat:GLIBC_2.4 freopen:GLIBC_2.0 freopen64:GLIBC_2.1; do
	name=${entry%%:*} first=${entry#*:}
	# No header: the reference alone, whatever this glibc declares.
	printf 'extern void %s(void);\nvoid (*volatile ref)(void) = %s;\nint main(void) { return ref == 0; }\n' \
		"$name" "$name" >"$tmp/$name.c"
	node=
	if "$@" -o "$tmp/$name" "$tmp/$name.c" 2>/dev/null; then
		node=$(readelf --syms -W "$tmp/$name" |
			sed -n "s/.* $name@\(GLIBC_[0-9.]*\).*/\1/p" | sort -u)
	fi
	[ -n "$node" ] || node=$(newer "$first" "$baseline")
	printf '%s %s\n' "$name" "$node"
done
