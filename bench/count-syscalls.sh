#!/usr/bin/env bash
# Counts the system calls fexecve makes, with strace, and fails if a path
# makes more than it may: the fast path exactly one (execveat), the
# fallback through /proc at most six.
#
#   count-syscalls.sh FEXECVE-ONCE PROGRAM
#
# Every system call between fexecve-once's mark and the exec that succeeds
# is fexecve's; the exec's own line counts, the new program's do not.
set -euo pipefail
subject=$1 program=$2
if ! command -v strace >/dev/null; then
	echo "SKIP: strace is not installed (.ci/install-deps installs it)"
	exit 77
fi
# Containers may forbid ptrace.
if ! why=$(strace -q -o /dev/null true 2>&1); then
	echo "SKIP: strace cannot trace here: $why"
	exit 77
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
failed=0

# count MODE MAX EXEC: EXEC is the call that must run the program.
count() {
	local mode=$1 max=$2 exec=$3 calls
	if ! strace -q -o "$log" "$subject" "$mode" "$program"; then
		echo "$mode: the program did not run and exit 0"
		sed -n '/fexecve-once: calling/,$p' "$log"
		failed=1
		return
	fi
	calls=$(awk '
		marked && /^(\+\+\+|---)/ { next }
		marked { print; if ($0 ~ /^exec(ve|veat)\(.*\) = 0$/) exit }
		/^write\(-1, "fexecve-once: calling fexecve"/ { marked = 1 }
	' "$log")
	local n names last
	n=$(printf '%s\n' "$calls" | grep -c .) || true
	names=$(printf '%s\n' "$calls" | sed 's/(.*//' | paste -sd' ')
	last=$(printf '%s\n' "$calls" | tail -n 1)
	echo "$mode: $n system call(s): $names"
	if [ "$n" -gt "$max" ]; then
		echo "$mode: more than $max"
		failed=1
	fi
	case $last in
	"$exec"*" = 0") ;;
	*)
		echo "$mode: expected the program to run by $exec..., got: $last"
		failed=1
		;;
	esac
}

count fast 1 'execveat('
count enosys-first 6 'execve("/proc/self/fd/'
count enosys-later 6 'execve("/proc/self/fd/'
count eperm 6 'execve("/proc/self/fd/'
exit "$failed"
