#!/usr/bin/env bash
# demo-debian.sh DEMO BUILD_DIR: tools/demo's inroot scene on the Debian 11
# root that debootstrap made (tests/compat/make-bullseye-root; the demo
# itself uses a small root of its own where there is none, to stay fast on
# a fresh machine). Each naive command must have escaped into the scratch
# host, each inroot run, with openat2 allowed and refused, stayed in the
# root, and the Debian root must be as it was.
set -uo pipefail
demo=$1 build=$2
root=${LIBEXECVEAT_BULLSEYE_ROOT:-/var/tmp/libexecveat-bullseye}

[ -e "$root/.libexecveat-root-ready" ] || {
	echo "SKIP: no Debian 11 root at $root (tests/compat/make-bullseye-root makes one)"
	exit 77
}
[ "$(id -u)" -eq 0 ] || unshare -Ur -m true 2>/dev/null ||
	{ echo "SKIP: needs root or user namespaces (a mount namespace)"; exit 77; }

# What the scene may change if it went wrong: the root's own files.
fingerprint() {
	stat -c '%n %F %s %Y %Z' "$root" "$root/var/log" "$root/etc" \
		"$root/etc/hostname" "$root/etc/os-release" "$root/home" \
		"$root/tmp" "$root/usr/share/doc" 2>&1
}
before=$(fingerprint)
out=$("$demo" --inroot-scene "$build" "$root" 2>&1)
status=$?
printf '%s\n' "$out"
failed=0
fail() { echo "FAIL: $*"; failed=1; }

[ "$status" -eq 0 ] || fail "tools/demo --inroot-scene: exit $status"
grep -q "ROOT: Debian 11 made by debootstrap" <<<"$out" ||
	fail "the scene did not run on the Debian root"
# Four operations, each: a naive row, then the two inroot rows.
rows=$(grep -E '^    (naive|inroot)' <<<"$out")
[ "$(grep -c '^    naive' <<<"$rows")" -eq 4 ] || fail "not four naive rows"
[ "$(grep -c '^    naive.*\(ESCAPED\|READ THE HOST\)' <<<"$rows")" -eq 4 ] ||
	fail "a naive command stayed in the root: the links are not what they say"
[ "$(grep -c '^    inroot ROOT, openat2 allowed  *\(made\|removed\|read\) the root' <<<"$rows")" -eq 4 ] ||
	fail "inroot did not act in the root with openat2 allowed"
[ "$(grep -c '^    inroot ROOT, openat2 ENOSYS  *the same$' <<<"$rows")" -eq 4 ] ||
	fail "inroot did not do the same with openat2 refused"
grep -q "read the root's: \"Debian GNU/Linux 11 (bullseye)\"" <<<"$rows" ||
	fail "inroot did not read the Debian root's os-release"
[ "$(fingerprint)" = "$before" ] || fail "the Debian root changed"
[ "$failed" -eq 0 ] && echo "ok: the naive commands escaped; inroot stayed in the Debian root, both ways"
exit "$failed"
