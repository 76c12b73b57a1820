#!/bin/sh
# root-files.sh ROOT_FILES [REFUSE_CALL]: examples/root-files on a
# root whose links lead out of it when followed from outside (dev ->
# ../machine/dev, etc -> ../machine/etc: from outside, the test's own
# "machine" beside the root; inside, the root's machine/dev and
# machine/etc) makes and writes what it must inside the root, and
# leaves the machine as it was; and so where a seccomp policy refuses
# openat2 (REFUSE_CALL, where the build has libseccomp).
set -u
root_files=$1 refuse=${2:-}
failed=0

check() {
	world=$1
	shift
	tmp=$(mktemp -d)
	mkdir -p "$tmp/machine/dev" "$tmp/machine/etc" "$tmp/root/machine/dev" \
		"$tmp/root/machine/etc" "$tmp/root/run" &&
		echo machine >"$tmp/machine/etc/hostname" &&
		touch "$tmp/root/run/stale" &&
		ln -s ../machine/dev "$tmp/root/dev" &&
		ln -s ../machine/etc "$tmp/root/etc" || exit 1
	out=$("$@" "$root_files" "$tmp/root" box 2>&1) ||
		{ echo "FAIL ($world): root-files: $out"; failed=1; }
	for dir in proc sys machine/dev/pts machine/dev/shm run; do
		[ -d "$tmp/root/$dir" ] ||
			{ echo "FAIL ($world): no $dir in the root"; failed=1; }
	done
	[ ! -e "$tmp/root/run/stale" ] ||
		{ echo "FAIL ($world): /run was not emptied"; failed=1; }
	[ "$(cat "$tmp/root/machine/etc/hostname" 2>&1)" = box ] ||
		{ echo "FAIL ($world): the root's etc/hostname is not box"; failed=1; }
	[ "$(cat "$tmp/machine/etc/hostname")" = machine ] &&
		[ -z "$(ls -A "$tmp/machine/dev")" ] ||
		{ echo "FAIL ($world): the machine outside the root changed"; failed=1; }
	rm -rf "$tmp"
	[ "$failed" -eq 0 ] && echo "ok ($world): $out; nothing outside the root changed"
}

check "openat2 allowed"
if [ -n "$refuse" ]; then
	check "openat2 refused with ENOSYS" "$refuse" openat2 ENOSYS
	check "openat2 refused with EPERM" "$refuse" openat2 EPERM
fi
exit "$failed"
