#!/usr/bin/env bash
# Counts the system calls fexecve makes, with strace, and fails if a path
# makes more than it may: the fast path exactly one (execveat); the
# fallback through /proc, execveat's refusal plus fstat, statfs, stat,
# fcntl and execve, plus a pread of two bytes when the fd is close-on-exec
# (a script would be refused); one more the first time an EPERM is met
# (the probe that proves it the policy's), and one less once the refusal
# is remembered (execveat is not asked). A close-on-exec script, refused
# with ENOENT: the same calls up to the pread, then an fcntl (does the fd
# write the file? then execve answers ETXTBSY) and faccessat2 (may the
# caller execute it?) instead of execve.
#
#   count-syscalls.sh FEXECVE-ONCE PROGRAM
#
# Every system call between fexecve-once's mark and the exec that succeeds
# is fexecve's; the exec's own line counts, the new program's do not.
set -euo pipefail
subject=$1 program=$2
. "$(dirname "$0")/strace-ready.sh"
. "$(dirname "$0")/syscall-twins.sh"
log=$(mktemp)
script=$(mktemp)
trap 'rm -f "$log" "$script"' EXIT
failed=0
printf '#!/bin/sh\nexit 0\n' >"$script"
chmod 755 "$script"

# count MODE FD MAX EXEC: EXEC is the call that must run the program, or
# for a refused script the last call fexecve makes; FD is cloexec,
# inherited or cloexec-script.
count() {
	local mode=$1 fd=$2 max=$3 exec=$4 calls
	local args=("$mode" "$program")
	case $fd in
	inherited) args+=("$fd") ;;
	cloexec-script) args+=("$fd" "$script") ;;
	esac
	mode="$mode ($fd fd)"
	if ! strace -q -o "$log" "$subject" "${args[@]}"; then
		echo "$mode: the program did not run and exit 0 (or the script was not refused with ENOENT)"
		sed -n '/fexecve-once: calling/,$p' "$log"
		failed=1
		return
	fi
	as_64bit_names "$log"
	calls=$(awk '
		marked && /^(\+\+\+|---)/ { next }
		marked && /^write\(-1, "fexecve-once: fexecve returned"/ { exit }
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
	"$exec"*" = 0" | "$exec"*" = -1 "*) ;;
	*)
		echo "$mode: expected the program to run by $exec..., got: $last"
		failed=1
		;;
	esac
}

proc_exec='execve("/proc/self/fd/'
count fast cloexec 1 'execveat('
count fast inherited 1 'execveat('
count enosys-first cloexec 7 "$proc_exec"
count enosys-first inherited 6 "$proc_exec"
count enosys-later cloexec 6 "$proc_exec"
count enosys-later inherited 5 "$proc_exec"
count eperm-first cloexec 8 "$proc_exec"
count eperm-first inherited 7 "$proc_exec"
count eperm-later cloexec 6 "$proc_exec"
count eperm-later inherited 5 "$proc_exec"
count fast cloexec-script 1 'execveat('
count enosys-first cloexec-script 8 'faccessat2('
count enosys-later cloexec-script 7 'faccessat2('
count eperm-first cloexec-script 9 'faccessat2('
count eperm-later cloexec-script 7 'faccessat2('
exit "$failed"
