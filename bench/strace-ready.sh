# Sourced by the count-*.sh scripts before they trace: skips (exit 77)
# where strace is missing or cannot trace (containers may forbid ptrace),
# and keeps LeakSanitizer, which cannot run under ptrace, out of the
# traced program; the sanitizer builds' own tests look for leaks.
if ! command -v strace >/dev/null; then
	echo "SKIP: strace is not installed (.ci/install-deps installs it)"
	exit 77
fi
if ! why=$(strace -q -o /dev/null true 2>&1); then
	echo "SKIP: strace cannot trace here: $why"
	exit 77
fi
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
