#!/usr/bin/env bash
# Counts the system calls openat2's fallback (the resolver) makes, with
# strace, for RESOLVE_BENEATH opens of 1, 4 and 16 components, through
# directories and through a symlink at every step; fails if a path costs
# more than 3 calls per component walked (a link and the directory it
# names are two), or if the cost does not grow linearly: the same calls
# for each further component, never fewer.
#
#   count-resolve-syscalls.sh RESOLVE-COST
set -euo pipefail
subject=$1
. "$(dirname "$0")/strace-ready.sh"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
strace -q -s 256 -o "$log" "$subject" --once || { echo "resolve-cost --once failed"; exit 1; }

failed=0
declare -A count
# Each kind's calls lie between its mark and "returned".
while IFS='|' read -r kind n names; do
	count[$kind]=$n
	echo "$kind: $n system call(s): $names"
done < <(awk '
	/^write\(-1, "resolve-once: returned"/ {
		printf "%s|%d|%s\n", kind, n, names; kind = ""; next }
	/^write\(-1, "resolve-once: / {
		kind = $0; sub(/^write\(-1, "resolve-once: /, "", kind)
		sub(/:.*/, "", kind); n = 0; names = ""; next }
	kind != "" { n++; name = $0; sub(/\(.*/, "", name); names = names " " name }
' "$log")

# Every fd the walk opens is close-on-exec (the caller asked for it too).
leaky=$(awk '/^write\(-1, "resolve-once: returned"/ { on = 0 }
	on && /^openat\(/ && !/O_CLOEXEC/ { print }
	/^write\(-1, "resolve-once: [0-9]/ { on = 1 }' "$log")
if [ -n "$leaky" ]; then
	echo "FAIL: fds opened without O_CLOEXEC:"
	printf '%s\n' "$leaky"
	failed=1
fi

# check KIND WALKED: at most 3 calls per component walked.
check() {
	local kind=$1 walked=$2 n=${count[$1]:-}
	if [ -z "$n" ]; then
		echo "FAIL: no count for $kind"
		failed=1
		return
	fi
	if [ "$n" -gt $((3 * walked)) ]; then
		echo "FAIL: $kind: $n calls for $walked components walked (> 3 each)"
		failed=1
	fi
}
check "1 component" 1
check "4 components" 4
check "16 components" 16
check "1 component, links" 1
check "4 components, links" 7
check "16 components, links" 31

# Linear: from 4 to 16 components, each further one costs what each one
# from 1 to 4 cost (within one call), and something.
linear() {
	local one=${count[$1]:-0} four=${count[$2]:-0} sixteen=${count[$3]:-0}
	local early=$(((four - one) * 4)) late=$(((sixteen - four)))
	echo "$1 .. $3: $(((four - one) / 3)) then $(((sixteen - four) / 12)) call(s) per further component"
	if [ $((four - one)) -le 0 ] || [ $((sixteen - four)) -le 0 ] ||
		[ $late -gt $((early + 12)) ] || [ $late -lt $((early - 12)) ]; then
		echo "FAIL: not linear: $one, $four, $sixteen"
		failed=1
	fi
}
linear "1 component" "4 components" "16 components"
linear "1 component, links" "4 components, links" "16 components, links"
exit "$failed"
