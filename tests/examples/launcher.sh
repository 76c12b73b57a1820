#!/bin/sh
# launcher.sh LAUNCHER [REFUSE_CALL]: examples/launcher runs a program
# with no fd but 0, 1 and 2 inherited, and refuses a file others may
# write; and so where a seccomp policy refuses close_range and execveat
# (REFUSE_CALL, where the build has libseccomp), through the library's
# fallbacks.
set -u
launcher=$1 refuse=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

# What the program run reports: which of fds 5 and 9, open here, it got.
report='for fd in 5 9; do
	if true 2>/dev/null >&$fd; then echo "fd $fd inherited"; fi
done
echo ran'

check() {
	world=$1
	shift
	out=$("$@" "$launcher" /bin/sh -c "$report" 5</dev/null 9</dev/null 2>&1)
	if [ "$out" != ran ]; then
		echo "FAIL ($world): launcher /bin/sh said: $out"
		failed=1
	fi
	cp /bin/true "$tmp/true" && chmod 777 "$tmp/true"
	status=0
	out=$("$@" "$launcher" "$tmp/true" 2>&1) || status=$?
	case $status:$out in
	126:*"only root or you may write"*) ;;
	*)
		echo "FAIL ($world): a file anyone may write: exit $status: $out"
		failed=1
		;;
	esac
	[ "$failed" -eq 0 ] && echo "ok ($world): nothing inherited, a writable file refused"
}

check "as it is"
if [ -n "$refuse" ]; then
	check "close_range and execveat refused with EPERM" \
		"$refuse" close_range EPERM "$refuse" execveat EPERM
	check "close_range and execveat refused with ENOSYS" \
		"$refuse" close_range ENOSYS "$refuse" execveat ENOSYS
fi
exit "$failed"
