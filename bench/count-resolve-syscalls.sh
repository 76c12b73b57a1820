#!/usr/bin/env bash
# Counts, with strace, the system calls of one openat2() call where a
# seccomp filter refuses openat2 (ENOSYS), once the library has met the
# refusal (a first call, unmarked) and remembers it: the fallback's walk
# alone, for each path shape of resolve_shapes.h (O_RDONLY|O_CLOEXEC).
# Fails where a shape costs more than its limit below, where the cost per
# directory grows by more than 1.05 calls from 16 to 64 directories,
# where the fd returned is not the lowest free one (the kernel's rule,
# which callers may rely on), where a call asks openat2 (or its probe)
# again, or where the walk makes an fd without O_CLOEXEC. The naive
# walk's counts (naive_walk.h) are printed beside, for comparison only.
#
# strace sees refused calls: a tracer's system-call-entry stop comes
# before the seccomp filter's verdict (Linux 4.8 and later), so the log
# would show "openat2(-1, NULL, NULL, 0) = -1 ENOSYS" for a probe.
#
#   count-resolve-syscalls.sh RESOLVE-COST
set -euo pipefail
subject=$1
. "$(dirname "$0")/strace-ready.sh"
. "$(dirname "$0")/syscall-twins.sh"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
strace -q -s 512 -o "$log" "$subject" --once || { echo "resolve-cost --once failed"; exit 1; }
as_64bit_names "$log"

# System calls per openat2() call: one less each than while every call
# asked the probe again.
shapes=("1 file" "16 directories" "64 directories" "16 with .."
	"16, a symlink every other step" "IN_ROOT, absolute link first, 4")
declare -A limit=(
	["1 file"]=1
	["16 directories"]=21
	["64 directories"]=69
	["16 with .."]=21
	["16, a symlink every other step"]=44
	["IN_ROOT, absolute link first, 4"]=10
)
# From 16 to 64 directories: at most this many calls per further
# directory, in hundredths.
growth_limit=105

failed=0
declare -A count returned lowest names probes
# Each call's system calls lie between its mark and "returned".
while IFS='|' read -r side shape n fd low probe seq; do
	count[$side/$shape]=$n
	returned[$side/$shape]=$fd
	lowest[$side/$shape]=$low
	probes[$side/$shape]=$probe
	names[$side/$shape]=$seq
done < <(awk '
	/^write\(-1, "[a-z]+-once: returned fd / {
		s = $0; sub(/^write\(-1, "[a-z]+-once: returned fd /, "", s)
		split(s, f, /[^-0-9]+/)
		printf "%s|%s|%d|%s|%s|%d|%s\n", side, shape, n, f[1], f[2], probe, seq
		shape = ""; next }
	/^write\(-1, "[a-z]+-once: / {
		side = $0; sub(/^write\(-1, "/, "", side); sub(/-once: .*/, "", side)
		shape = $0; sub(/^write\(-1, "[a-z]+-once: /, "", shape)
		sub(/: .*/, "", shape); n = 0; probe = 0; seq = ""; next }
	shape != "" {
		n++; name = $0; sub(/\(.*/, "", name); seq = seq " " name
		if (side == "resolve" && $0 ~ /^openat2\(.*\) += -1 E(NOSYS|PERM)/) probe++ }
' "$log")

# "openat 16, statx 17": how many of each call.
tally() {
	tr ' ' '\n' <<<"$1" | grep . | sort | uniq -c | sort -rn |
		awk '{ printf "%s%s %d", (NR > 1 ? ", " : ""), $2, $1 }'
}

for shape in "${shapes[@]}"; do
	for side in resolve naive; do
		key=$side/$shape
		if [ -z "${count[$key]:-}" ]; then
			echo "FAIL: $side: no count for \"$shape\""
			failed=1
			continue
		fi
		label="fallback"
		[ "$side" = naive ] && label="naive walk (for comparison)"
		echo "$shape, $label: ${count[$key]} system call(s): $(tally "${names[$key]}")"
		echo "   ${names[$key]}"
	done
	key=resolve/$shape
	[ -n "${count[$key]:-}" ] || continue
	if [ "${count[$key]}" -gt "${limit[$shape]}" ]; then
		echo "FAIL: $shape: ${count[$key]} calls per openat2() call, limit ${limit[$shape]}"
		failed=1
	fi
	if [ "${probes[$key]}" -ne 0 ]; then
		echo "FAIL: $shape: ${probes[$key]} refused openat2 call(s) seen, where the refusal is remembered"
		failed=1
	fi
	if [ "${returned[$key]}" != "${lowest[$key]}" ]; then
		echo "FAIL: $shape: fd ${returned[$key]} returned, the lowest free was ${lowest[$key]}"
		failed=1
	fi
done

c16=${count[resolve/16 directories]:-0} c64=${count[resolve/64 directories]:-0}
growth=$(((c64 - c16) * 100 / 48))
echo "16 to 64 directories: $((c64 - c16)) more calls, $((growth / 100)).$(printf %02d $((growth % 100))) per directory (limit 1.05)"
if [ $(((c64 - c16) * 100)) -gt $((growth_limit * 48)) ]; then
	echo "FAIL: the cost grows faster than 1.05 calls per directory"
	failed=1
fi

# Every fd the fallback makes is close-on-exec (the caller asked for it
# too): between its marks, no open, openat, openat2, dup or F_DUPFD that
# returns an fd without it.
leaky=$(awk '/^write\(-1, "resolve-once: returned/ { on = 0 }
	on && / = [0-9]+$/ && (/^(open|openat|openat2)\(/ && !/O_CLOEXEC/ ||
		/^dup[23]?\(/ && !/O_CLOEXEC/ || /^fcntl\([0-9]+, F_DUPFD,/) { print }
	/^write\(-1, "resolve-once: / && !/returned/ { on = 1 }' "$log")
if [ -n "$leaky" ]; then
	echo "FAIL: fds made without O_CLOEXEC:"
	printf '%s\n' "$leaky"
	failed=1
fi
exit "$failed"
