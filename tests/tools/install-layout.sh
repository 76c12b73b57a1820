#!/bin/bash
# install-layout.sh MESON BUILD_DIR PREFIX PROGRAM_SOURCE EXPECTED_FILE...
#     -- CC...
# `meson install --destdir` puts exactly the EXPECTED_FILEs (paths under
# the prefix) in place, and a program compiled with nothing but
# `pkg-config --cflags --libs execveat` against that tree builds and runs.
set -euo pipefail
meson=$1 build=$2 prefix=$3 program=$4
shift 4
expected=()
while [ "$1" != "--" ]; do expected+=("$1"); shift; done
shift
cc=("$@")

dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$meson" install -C "$build" --no-rebuild --destdir "$dest" >"$dest.log" 2>&1 ||
	{ cat "$dest.log"; rm -f "$dest.log"; fail "meson install"; }
rm -f "$dest.log"
root=$dest$prefix

# The layout, exactly: nothing missing, nothing extra.
diff -u <(printf '%s\n' "${expected[@]}" | sort) \
	<(cd "$root" && find . -mindepth 1 ! -type d | sed 's|^\./||' | sort) ||
	fail "the installed files differ from the layout (- expected, + installed)"
echo "layout: ${#expected[@]} files as expected"

# Every name a page's NAME line lists finds a page (`man close_range`),
# and no page of the library's has the name of one of glibc's in
# manpages-dev's section 3 (fexecve.3, freopen.3).
mandir=$(printf '%s\n' "${expected[@]}" | sed -n 's|/man7/libexecveat\.7$||p')
if [ -n "$mandir" ]; then
	names=0
	for page in "$root/$mandir"/man*/*; do
		grep -q '^\.so ' "$page" && continue
		# The NAME section's lines, joined, up to " \- ".
		for name in $(sed -n '/^\.SH NAME/,/^\.SH/{/^\.SH/d;p}' "$page" |
			tr '\n' ' ' | sed 's/ \\- .*//; s/,/ /g'); do
			names=$((names + 1))
			ls "$root/$mandir"/man*/"$name".* >/dev/null 2>&1 ||
				fail "$name, in the NAME line of $(basename "$page"), has no page"
		done
	done
	for page in fexecve.3 freopen.3; do
		[ ! -e "$root/$mandir/man3/$page" ] ||
			fail "man3/$page would replace glibc's page of manpages-dev"
	done
	echo "man pages: each of the $names names in their NAME lines has a page"
fi

# The development link and the soname link point where a linker and a
# loader look.
pc=$(printf '%s\n' "${expected[@]}" | grep '/execveat\.pc$')
libdir=$root/$(dirname "$(dirname "$pc")")
[ "$(readlink "$libdir/libexecveat.so")" = libexecveat.so.1 ] ||
	fail "libexecveat.so does not link to libexecveat.so.1"
# The soname links to the file of this release, libexecveat.so.1.MINOR.PATCH.
case $(readlink "$libdir/libexecveat.so.1") in
libexecveat.so.1.[0-9]*.[0-9]*) ;;
*) fail "libexecveat.so.1 does not link to a libexecveat.so.1.MINOR.PATCH" ;;
esac

# pkg-config on the install tree, as if it were the system's.
flags=$(PKG_CONFIG_SYSROOT_DIR=$dest PKG_CONFIG_LIBDIR=$libdir/pkgconfig \
	pkg-config --cflags --libs execveat)
echo "pkg-config --cflags --libs execveat: $flags"
# shellcheck disable=SC2086 # the flags are words
"${cc[@]}" -o "$dest/program" "$program" $flags
readelf -d "$dest/program" | grep -q 'NEEDED.*\[libexecveat\.so\.1\]' ||
	fail "the program does not need libexecveat.so.1"
for call in execveat fexecve; do
	status=0
	LD_LIBRARY_PATH=$libdir "$dest/program" "$call" || status=$?
	[ "$status" -eq 42 ] || fail "$call through the installed library: exit $status, expected 42"
	echo "$call through the installed library: ran /bin/sh (exit 42)"
done

# The static library, for programs that must not need it at run time.
# shellcheck disable=SC2046
"${cc[@]}" -o "$dest/program-static" "$program" \
	$(PKG_CONFIG_SYSROOT_DIR=$dest PKG_CONFIG_LIBDIR=$libdir/pkgconfig \
		pkg-config --cflags execveat) "$libdir/libexecveat.a"
! readelf -d "$dest/program-static" | grep -q 'NEEDED.*libexecveat' ||
	fail "the program linked with libexecveat.a still needs the shared one"
status=0
"$dest/program-static" execveat || status=$?
[ "$status" -eq 42 ] || fail "execveat through libexecveat.a: exit $status, expected 42"
echo "execveat through libexecveat.a: ran /bin/sh (exit 42)"

# The installed tool finds the installed library, not the build tree's.
fexec=$(printf '%s\n' "${expected[@]}" | grep '/fexec$' || true)
if [ -n "$fexec" ]; then
	! readelf -d "$root/$fexec" | grep -q "$(realpath "$build")" ||
		fail "the installed fexec still points into the build tree"
	LD_LIBRARY_PATH=$libdir "$root/$fexec" --version
fi
