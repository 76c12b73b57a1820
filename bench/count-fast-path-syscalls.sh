#!/usr/bin/env bash
# Counts the system calls of the library's fchmodat (AT_SYMLINK_NOFOLLOW),
# pidfd_getpid, faccessat (AT_EACCESS) and closefrom on their fast paths,
# with strace: exactly one each, fchmodat2, the PIDFD_GET_INFO ioctl
# (and an fstatfs that proves the answer came from pidfs, not a FUSE
# server), faccessat2 and close_range, whose answers are returned. Where
# the kernel lacks one (before 6.6, 6.13, 5.8 and 5.9: ENOSYS, ENOTTY),
# there is no fast path to count.
#
#   count-fast-path-syscalls.sh FAST-PATHS-ONCE
set -euo pipefail
subject=$1
. "$(dirname "$0")/strace-ready.sh"
. "$(dirname "$0")/syscall-twins.sh"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

strace -q -s 64 -o "$log" "$subject" || { echo "fast-paths-once failed"; exit 1; }
as_64bit_names "$log"
between() { # FROM TO
	awk -v from="$1" -v to="$2" '
		index($0, "write(-1, \"fast-paths-once: " to) == 1 { exit }
		marked { print }
		index($0, "write(-1, \"fast-paths-once: " from) == 1 { marked = 1 }' "$log"
}
failed=0
# strace 6.1 does not know fchmodat2 (Linux 6.6): syscall_0x1c4 (452),
# its mode 0600 and flags AT_SYMLINK_NOFOLLOW in hexadecimal.
for call in "fchmodat:(fchmodat2\\([0-9]+, \"file\", 0600, AT_SYMLINK_NOFOLLOW|syscall_0x1c4\\(0x[0-9a-f]+, 0x[0-9a-f]+, 0x180, 0x100, .*)\\) += 0" \
	"pidfd_getpid:ioctl\\([0-9]+, (_IOC\\(_IOC_READ\\|_IOC_WRITE, 0xff, 0xb, 0x40\\)|PIDFD_GET_INFO), .*\\) += 0
fstatfs\\([0-9]+, \\{f_type=(PIDFS_MAGIC|0x50494446), .*\\) += 0" \
	"faccessat:faccessat2\\(AT_FDCWD, \"/\", X_OK, AT_EACCESS\\) += 0" \
	"closefrom:close_range\\(3, (4294967295|~0|UINT_MAX), 0\\) += 0"; do
	# One pattern a line, one line a system call, in order.
	name=${call%%:*} patterns=${call#*:}
	calls=$(between "calling $name" "$name returned")
	n=$(printf '%s\n' "$calls" | grep -c .) || true
	want=$(printf '%s\n' "$patterns" | grep -c .)
	echo "$name fast path: $n system call(s):"
	printf '  %s\n' "$calls"
	if [ "$n" -eq "$want" ] && paste -d '\n' <(printf '%s\n' "$patterns") \
		<(printf '%s\n' "$calls") | awk 'NR % 2 { p = $0; next }
			$0 !~ ("^" p "$") { bad = 1 } END { exit bad }'; then
		echo "ok: $name is $want system call(s)"
	elif printf '%s\n' "$calls" | grep -Eq 'ENOSYS|ENOTTY'; then
		echo "SKIP: this kernel lacks the system call; no fast path"
		exit 77
	else
		echo "FAIL: $name's fast path must be $want system call(s)"
		failed=1
	fi
done
exit "$failed"
