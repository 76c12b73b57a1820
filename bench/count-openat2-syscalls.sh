#!/usr/bin/env bash
# Counts the system calls the library's openat2 makes on its fast path,
# with strace: exactly one, openat2 itself, whose answer is returned.
# (Where a seccomp filter refuses openat2, the count is
# count-resolve-syscalls.sh's: strace sees refused calls too.)
#
#   count-openat2-syscalls.sh OPENAT2-ONCE
set -euo pipefail
subject=$1
. "$(dirname "$0")/strace-ready.sh"
. "$(dirname "$0")/syscall-twins.sh"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

strace -q -o "$log" "$subject" || { echo "openat2-once failed"; exit 1; }
as_64bit_names "$log"
calls=$(awk '/^write\(-1, "openat2-once: returned"/ { exit }
	marked { print }
	/^write\(-1, "openat2-once: calling openat2"/ { marked = 1 }' "$log")
n=$(printf '%s\n' "$calls" | grep -c .) || true
echo "fast path: $n system call(s):"
printf '  %s\n' "$calls"
if [ "$n" -ne 1 ] ||
	! printf '%s\n' "$calls" | grep -Eq '^openat2\([0-9]+, "file", \{flags=.*resolve=RESOLVE_BENEATH\}, 24\) = [0-9]+$'; then
	echo "FAIL: the fast path must be the one openat2 call"
	exit 1
fi
echo "ok: one openat2"
