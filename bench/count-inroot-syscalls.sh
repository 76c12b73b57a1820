#!/usr/bin/env bash
# Counts, with strace, the system calls of one operation of inroot.h per
# way, as inroot-cost --once makes them (a first one of each, unmarked,
# before): mkdir_all of a 16-deep chain (the close of the fd it returns
# included), remove_all of a tree of 1,000 entries, open of a file 16
# directories deep (its close included); by the library where openat2 is
# there ("allowed"), by the library where a seccomp filter refuses it
# with ENOSYS ("refused"), and naively (for comparison only).
#
# Fails where a library way costs more than its limit below, where the
# allowed way never has the kernel's openat2 answer (it would be walking
# itself) or the refused way has it answer (the filter would not be
# there), or where the library makes an fd without O_CLOEXEC.
#
# strace sees the refused calls: a tracer's system-call-entry stop comes
# before the seccomp filter's verdict (Linux 4.8 and later).
#
#   count-inroot-syscalls.sh INROOT-COST            the counts, checked
#   count-inroot-syscalls.sh --counts INROOT-COST   "OPERATION|WAY|CALLS"
#                                                   lines, unchecked
set -euo pipefail
only_counts=false
if [ "${1:-}" = --counts ]; then
	only_counts=true
	shift
fi
subject=$1
. "$(dirname "$0")/strace-ready.sh"
. "$(dirname "$0")/syscall-twins.sh"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# -f: the refused way runs in a child, whose filter cannot be taken off.
strace -f -q -s 256 -o "$log" "$subject" --once >&2 ||
	{ echo "inroot-cost --once failed" >&2; exit 1; }
as_64bit_names "$log"

# Per marked operation: OPERATION|WAY|CALLS|NAMES|KERNEL-ANSWERED|REFUSED,
# counting the marking process's calls only (its parent waits meanwhile).
counts=$(awk '
	$2 ~ /^write\(-1,$/ && $3 == "\"inroot-once:" && $4 == "end\"," {
		if ($1 == pid) printf "%s|%d|%s|%d|%d\n", key, n, seq, ok2, nosys
		key = ""; next }
	$2 ~ /^write\(-1,$/ && $3 == "\"inroot-once:" {
		pid = $1; op = $4; sub(/:$/, "", op); way = $5; sub(/",$/, "", way)
		key = op "|" way; n = 0; seq = ""; ok2 = 0; nosys = 0; next }
	key != "" && $1 == pid {
		name = $2; sub(/\(.*/, "", name)
		if (name !~ /^[a-z0-9_]+$/) next
		n++; seq = seq " " name
		if (name == "openat2" && $0 ~ /\) += [0-9]+$/) ok2++
		if (name == "openat2" && $0 ~ /= -1 ENOSYS/) nosys++ }
' "$log")

if $only_counts; then
	cut -d'|' -f1-3 <<<"$counts"
	exit 0
fi

# System calls per operation, for each library way, as counted on Linux
# 6.18 (tmpfs and ext4 alike), the close of a returned fd included.
# mkdir_all: a walk of the whole path, which stops at the first missing
# directory, then from the directory held: for the first missing
# component an openat that fails, mkdirat, openat and a close; for each
# later one, in the directory just made, mkdirat, openat and a close.
# remove_all: an unlinkat per entry; per directory two more (EISDIR, then
# rmdir's ENOTEMPTY) before its openat, two statx (its mount), a close,
# and getdents64 and lseek for each pass over it (a directory's pass goes
# on from the entry of each subdirectory it held once that is emptied,
# and removes it with one rmdir).
# Where openat2 is refused, the refusal is met (and its probe made) by
# an unmarked first operation and remembered: no refused openat2 is left
# in these counts (one fewer per openat2 call than while each call asked
# the probe again).
declare -A limit=(
	["mkdir_all|allowed"]=52
	["mkdir_all|refused"]=52
	["remove_all|allowed"]=1141
	["remove_all|refused"]=1141
	["open|allowed"]=2
	["open|refused"]=21
)

# "openat 16, close 17": how many of each call.
tally() {
	tr ' ' '\n' <<<"$1" | grep . | sort | uniq -c | sort -rn |
		awk '{ printf "%s%s %d", (NR > 1 ? ", " : ""), $2, $1 }'
}

failed=0
declare -A seen
while IFS='|' read -r op way n names answered refused; do
	seen[$op|$way]=1
	echo "$op, $way: $n system call(s): $(tally "$names")"
	[ "$way" = naive ] && continue
	if [ "$n" -gt "${limit[$op|$way]}" ]; then
		echo "FAIL: $op, $way: $n calls, limit ${limit[$op|$way]}"
		failed=1
	fi
	if [ "$way" = allowed ] && [ "$answered" -eq 0 ]; then
		echo "FAIL: $op, allowed: the kernel's openat2 never answered"
		failed=1
	fi
	if [ "$way" = refused ] && [ "$answered" -ne 0 ]; then
		echo "FAIL: $op, refused: the kernel's openat2 answered $answered time(s)"
		failed=1
	fi
done <<<"$counts"
for key in "${!limit[@]}"; do
	if [ -z "${seen[$key]:-}" ]; then
		echo "FAIL: no count for $key"
		failed=1
	fi
done

# Every fd the library makes is close-on-exec: between a library way's
# marks, no open, openat, openat2, dup or F_DUPFD that returns an fd
# without it.
leaky=$(awk '
	$2 ~ /^write\(-1,$/ && $3 == "\"inroot-once:" {
		on = $4 != "end\"," && $5 !~ /^"?naive/; pid = $1; next }
	on && $1 == pid && / = [0-9]+$/ &&
		($2 ~ /^(open|openat|openat2)\(/ && !/O_CLOEXEC/ ||
		 $2 ~ /^dup[23]?\(/ && !/O_CLOEXEC/ || /fcntl\([0-9]+, F_DUPFD,/) { print }
' "$log")
if [ -n "$leaky" ]; then
	echo "FAIL: fds made without O_CLOEXEC:"
	printf '%s\n' "$leaky"
	failed=1
fi
exit "$failed"
