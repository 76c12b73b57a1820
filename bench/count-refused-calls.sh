#!/usr/bin/env bash
# Counts, with strace, the refused system calls that 100 calls of each of
# the library's functions with a fallback make where a seccomp filter
# refuses the system call (refusals-once makes them, ENOSYS and EPERM,
# each in a child of its own; utimensat's AT_EMPTY_PATH, EINVAL). A refusal, once proven, is remembered for
# the process, so the count is that of the first call alone: the call
# itself, and where an EPERM could be the file's own, the probe that
# tells (openat2 probes ENOSYS too, which a file system can give); then
# none. Fails where a count is not exactly that.
#
# strace sees the refused calls: a tracer's system-call-entry stop comes
# before the seccomp filter's verdict (Linux 4.8 and later).
#
#   count-refused-calls.sh REFUSALS-ONCE
set -euo pipefail
subject=$1
. "$(dirname "$0")/strace-ready.sh"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
strace -f -q -s 128 -o "$log" "$subject" ||
	{ echo "refusals-once failed"; exit 1; }

# FUNCTION;REFUSAL;the system call's name in strace 6.1 (fchmodat2, Linux
# 6.6, is unknown to it: syscall_0x1c4);refused calls expected
expected=(
	"openat2;ENOSYS;openat2;2" "openat2;EPERM;openat2;2"
	"inroot_open;ENOSYS;openat2;2" "inroot_open;EPERM;openat2;2"
	"fchmodat;ENOSYS;(fchmodat2|syscall_0x1c4);1"
	"fchmodat;EPERM;(fchmodat2|syscall_0x1c4);2"
	# inroot_chmod, inroot_fchmod and fchmodat, each of the 100 calls:
	# one memory of fchmodat2's refusal for the three.
	"inroot_chmod;ENOSYS;(fchmodat2|syscall_0x1c4);1"
	"inroot_chmod;EPERM;(fchmodat2|syscall_0x1c4);2"
	"faccessat;ENOSYS;faccessat2;1" "faccessat;EPERM;faccessat2;2"
	"close_range;ENOSYS;close_range;1" "close_range;EPERM;close_range;1"
	"fexecve;ENOSYS;execveat;1" "fexecve;EPERM;execveat;2"
	# 2.1's: the *xattrat calls (Linux 6.13, unknown to strace 6.1:
	# syscall_0x1d0 and 0x1d1), getxattrat and the probe that tells a
	# policy's EPERM (listxattrat); utimensat's EINVAL to AT_EMPTY_PATH,
	# the call and the probe that tells it was the flag.
	"inroot_getxattr;ENOSYS;(getxattrat|listxattrat|syscall_0x1d0|syscall_0x1d1);1"
	"inroot_getxattr;EPERM;(getxattrat|listxattrat|syscall_0x1d0|syscall_0x1d1);2"
	"inroot_futimens;EINVAL;utimensat;2"
)
failed=0
for row in "${expected[@]}"; do
	IFS=';' read -r function refusal name want <<<"$row"
	# The marking process's lines between its marks.
	calls=$(awk -v key="$function $refusal" '
		$2 ~ /^write\(-1,$/ && index($0, "\"refusals-once: " key "\"") {
			pid = $1; on = 1; next }
		on && $1 == pid && $2 ~ /^write\(-1,$/ { exit }
		on && $1 == pid { sub(/^[0-9]+ +/, ""); print }' "$log")
	n=$(printf '%s\n' "$calls" | grep -cE "^$name\(.*\) += -1 $refusal") || true
	total=$(printf '%s\n' "$calls" | grep -c .) || true
	if [ "$n" -eq "$want" ]; then
		echo "ok: 100 calls of $function, $refusal: $n refused $name ($total system calls in all)"
	else
		echo "FAIL: 100 calls of $function, $refusal: $n refused $name, not $want"
		failed=1
	fi
done
exit "$failed"
