#!/usr/bin/env bash
# inroot-tool.sh INROOT REFUSE_CALL: every command of the inroot tool on a
# root planted with links that lead out of it (to "/", to
# "../../../../etc", to "/home"), with openat2 allowed and refused with
# ENOSYS and EPERM (REFUSE_CALL, a seccomp filter). Each case checks the
# exit status, the effect inside the root, and that nothing outside the
# root changed.
#
# So that a tool that escapes harms nothing, everything runs chrooted to
# a scratch "host": a tmpfs in a private mount namespace, with this
# machine's /usr (and the build tree) bound in read-only and marker
# files where the links lead (/etc/hostname, /home/user,
# /tmp/outside-marker). The root is /srv/root in there. An escape lands
# in the scratch host, and the snapshot taken after each case says so.
set -uo pipefail

if [ "${1:-}" != --in-chroot ] && [ "${1:-}" != --in-namespace ]; then
	[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (a chroot to a scratch host)"; exit 77; }
	unshare -m true 2>/dev/null || { echo "SKIP: cannot make a mount namespace"; exit 77; }
	# meson names the programs relative to the build tree; the chroot
	# needs their whole names.
	inroot=$(realpath "$1") refuse=$(realpath "$2") || exit 1
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/inroot-tool.XXXXXX") || exit 1
	status=0
	unshare -m --propagation private "$0" --in-namespace "$scratch" \
		"$inroot" "$refuse" || status=$?
	rm -rf --one-file-system "$scratch"
	exit "$status"
fi

# In the private mount namespace: the scratch host, then the chroot.
if [ "$1" = --in-namespace ]; then
	scratch=$2 inroot=$3 refuse=$4
	host=$scratch/host
	build=$(dirname "$(dirname "$inroot")")
	mkdir -p "$host" && mount -t tmpfs -o mode=0755 tmpfs "$host" || exit 1
	# This machine's programs, read-only, as the directories or links
	# (merged /usr) that they are here.
	for dir in usr bin sbin lib lib32 lib64 libx32; do
		if [ -L "/$dir" ]; then
			ln -s "$(readlink "/$dir")" "$host/$dir"
		elif [ -d "/$dir" ]; then
			mkdir "$host/$dir" &&
				mount --bind -o ro "/$dir" "$host/$dir" &&
				mount -o remount,bind,ro "$host/$dir" || exit 1
		fi
	done
	for dir in "$build" "$(dirname "$(realpath "$0")")"; do
		mkdir -p "$host$dir" && mount --bind "$dir" "$host$dir" &&
			mount -o remount,bind,ro "$host$dir" || exit 1
	done
	mkdir -p "$host/dev" "$host/proc" && touch "$host/dev/null" &&
		mount --bind /dev/null "$host/dev/null" &&
		mount -t proc proc "$host/proc" || exit 1
	exec chroot "$host" "$(realpath "$0")" --in-chroot "$inroot" "$refuse"
fi

# In the chroot: "/" is the scratch host.
inroot=$2 refuse=$3
root=/srv/root
# The test's own files, outside the snapshot.
files=/run/inroot-tool
failed=0
cases=0

# The scratch host's markers: what an escape would change.
make_host() {
	# /run/mount: umount(8)'s own state, outside the snapshot.
	mkdir -p /etc /home/user /tmp/outside-marker "$root" "$files" \
			/run/mount &&
		echo host >/etc/hostname && echo host >/home/user/file &&
		echo host >/tmp/outside-marker/keep
}

# The root each case starts from, made once, with links that lead out of
# it when a program follows them from outside (each starts again at the
# root when followed inside it).
make_template() {
	local t=$files/template
	mkdir -p "$t/etc" "$t/tmp" "$t/var" "$t/home/user" "$t/usr/lib" \
			"$t/usr/share/doc" "$t/emptydir" &&
		echo root >"$t/etc/hostname" &&
		echo root >"$t/home/user/file" &&
		echo ID=inroot-test-root >"$t/usr/lib/os-release" &&
		ln -s /usr/lib/os-release "$t/etc/os-release" &&
		ln -s / "$t/var/log" &&
		ln -s ../../../../etc "$t/tmp/x" &&
		ln -s ../../../../tmp/outside-marker "$t/tmp/up" &&
		ln -s /home "$t/usr/share/doc/link" &&
		ln -s /created-by-write "$t/tmp/dangling"
}

# The mount points (mountinfo's fifth field, relative to the chroot)
# beneath PATH, or (with -v) not beneath it, deepest last. Shell alone:
# the chroot has no /etc/alternatives for awk.
mount_points() {
	local invert=0 _a _b _c _d point
	[ "$1" = -v ] && { invert=1; shift; }
	while read -r _a _b _c _d point _; do
		case $point in
		"$1"/*) [ "$invert" -eq 0 ] && echo "$point" ;;
		*) [ "$invert" -eq 1 ] && echo "$point" ;;
		esac
	done </proc/self/mountinfo
}

# A fresh copy for each case, in the same directory (its parent, outside
# the root, stays as it was), once what a case mounted is gone.
make_root() {
	local m
	for m in $(mount_points "$root" | sort -r); do umount -l "$m"; done
	find "$root" -mindepth 1 -delete && cp -a "$files/template/." "$root/"
}

# What is outside the root: every name on the scratch host's own tmpfs
# (the bound /usr, /proc and build tree are other mounts, and read-only),
# with its type, mode, owner, size, link text and times, in the order of
# the directories' own listings, which tmpfs keeps while nothing changes.
# Not /dev/null, the machine's own bound in: any process that writes it
# changes its times.
snapshot() {
	find / -xdev \( -path "$root" -o -path "$files" -o -path /dev/null -o \
		-path /run/mount \) -prune -o \
		-printf '%p %y %m %U:%G %s %l %T@ %C@\n'
	# And what is mounted outside the root.
	mount_points -v "$root" | sed 's/^/mount /'
}

fail() {
	echo "FAIL $world: $*"
	failed=1
}

# run WANT_STATUS COMMAND... (the inroot command's words): inroot in the
# world, its stderr in $err and stdout in $out; its exit status must be
# WANT_STATUS and the host outside the root unchanged.
run() {
	local want=$1 status=0 after
	shift
	cases=$((cases + 1))
	out=$("${prefix[@]}" "$inroot" "$@" 2>"$files/stderr" <"${stdin:-/dev/null}") ||
		status=$?
	err=$(<"$files/stderr")
	what="inroot $*"
	[ "$status" -eq "$want" ] ||
		fail "$what: exit $status, expected $want (stderr: $err)"
	after=$(snapshot)
	[ "$after" = "$host_before" ] ||
		fail "$what: changed the host outside the root:" \
			"$(echo "$host_before" >"$files/before" &&
				echo "$after" | diff "$files/before" - | grep '^[<>]')"
	host_before=$after
}

# expect TEST... DESCRIPTION: after a case, a test of its effect.
expect() {
	local description=${*: -1}
	[ "${@:1:$#-1}" ] || fail "$what: $description"
}

check_mkdir() {
	make_root
	run 0 "$root" mkdir -p var/log/app/sub
	expect -d "$root/app/sub" "var/log -> / is the root: root/app/sub made"
	make_root
	run 0 "$root" mkdir -m 700 tmp/x/newdir
	expect -d "$root/etc/newdir" "tmp/x -> ../../../../etc is root/etc"
	expect "$(stat -c %a "$root/etc/newdir")" = 700 "mode 700 given"
	make_root
	run 1 "$root" mkdir a/b
	expect "$err" = "inroot: mkdir a/b: No such file or directory" \
		"the error line names the command, the path and the reason"
	# The link's target exists on the host, not in the root.
	make_root
	run 1 "$root" mkdir tmp/up/made
	expect ! -e "$root/tmp/outside-marker" "nothing made in the root"
	make_root
	run 1 "$root" mkdir -p tmp/up/deeper
	expect "$err" = "inroot: mkdir tmp/up/deeper: File exists" \
		"a link that leads nowhere in the root: mkdirat's EEXIST"
}

check_rm() {
	make_root
	run 0 "$root" rm -r tmp/x
	expect ! -L "$root/tmp/x" "the link removed"
	expect -f "$root/etc/hostname" "what it names left alone"
	make_root
	run 0 "$root" rm var/log/etc/hostname
	expect ! -e "$root/etc/hostname" "root/etc/hostname removed"
	make_root
	run 0 "$root" rm -r usr/share/doc/link/user
	expect ! -e "$root/home/user" "root/home/user removed, with its file"
	make_root
	run 0 "$root" rm -d var/log/emptydir
	expect ! -e "$root/emptydir" "root/emptydir removed"
	make_root
	run 1 "$root" rm -d var/log/etc
	expect -f "$root/etc/hostname" "a directory that is not empty stays"
	make_root
	run 0 "$root" rm -r var/log/no-such-file
	run 1 "$root" rm var/log/no-such-file
}

check_ln() {
	make_root
	run 0 "$root" ln -s /etc/passwd usr/share/doc/link/evil
	expect "$(readlink "$root/home/evil")" = /etc/passwd \
		"usr/share/doc/link -> /home is root/home: the link made there"
	make_root
	run 0 "$root" ln ../../../../etc/hostname var/log/hard
	expect "$root/hard" -ef "$root/etc/hostname" \
		"a hard link of root/etc/hostname, '..' stopped at the root"
	make_root
	run 0 "$root" ln tmp/x/hostname tmp/hard
	expect "$root/tmp/hard" -ef "$root/etc/hostname" \
		"the target's link is followed inside the root"
	make_root
	run 1 "$root" ln var/log/no-such tmp/hard
	expect "$err" = "inroot: ln var/log/no-such: No such file or directory" \
		"the missing target is the name that failed"
	run 1 "$root" ln etc/hostname etc/os-release
	expect "$err" = "inroot: ln etc/os-release: File exists" \
		"the new name that exists is the name that failed"
}

check_mv() {
	make_root
	run 0 "$root" mv tmp/x/hostname var/log/moved
	expect "$(cat "$root/moved")" = root "root/etc/hostname is now root/moved"
	make_root
	run 1 "$root" mv --noreplace var/log/etc/hostname etc/os-release
	expect "$err" = "inroot: mv etc/os-release: File exists" \
		"--noreplace keeps an existing name, a link included, and names it"
	run 1 "$root" mv var/log/no-such tmp/new
	expect "$err" = "inroot: mv var/log/no-such: No such file or directory" \
		"a missing source is the name that failed"
	run 1 "$root" mv --exchange etc/hostname tmp/no-such
	expect "$err" = "inroot: mv tmp/no-such: No such file or directory" \
		"--exchange with a missing second name names it"
	make_root
	run 0 "$root" mv --exchange tmp/x usr/share/doc/link
	expect "$(readlink "$root/tmp/x")" = /home "the two links swapped"
	expect "$(readlink "$root/usr/share/doc/link")" = ../../../../etc \
		"the two links swapped"
}

check_mknod() {
	make_root
	run 0 "$root" mknod var/log/fifo p
	expect -p "$root/fifo" "a FIFO in the root"
	make_root
	run 0 "$root" mknod -m 600 tmp/x/null c 1 3
	expect -c "$root/etc/null" "a character device in root/etc"
	expect "$(stat -c '%t,%T %a' "$root/etc/null")" = "1,3 600" \
		"device 1,3 with mode 600"
	run 2 "$root" mknod var/log/fifo2 c
}

check_read() {
	make_root
	run 0 "$root" readlink tmp/x
	expect "$out" = ../../../../etc "the link's text"
	run 0 "$root" cat etc/os-release
	expect "$out" = ID=inroot-test-root \
		"the absolute link read inside the root, not the host's file"
	run 0 "$root" cat var/log/tmp/x/hostname
	expect "$out" = root "two links followed inside the root"
	run 1 "$root" cat tmp/up/keep
	run 0 "$root" resolve var/log
	expect "${out%% *}" = directory "var/log resolves to a directory"
	run 0 "$root" resolve -n var/log
	expect "${out%% /*}" = "symbolic link" "-n: the link itself"
	run 1 "$root" resolve tmp/up
}

check_write() {
	make_root
	echo data >"$files/stdin"
	stdin=$files/stdin run 0 "$root" write var/log/etc/new
	expect "$(cat "$root/etc/new")" = data "root/etc/new written"
	stdin=$files/stdin run 0 "$root" write -m 640 tmp/dangling
	expect "$(cat "$root/created-by-write")" = data \
		"a dangling absolute link makes its target in the root"
	expect "$(stat -c %a "$root/created-by-write")" = 640 "mode 640 given"
}

check_metadata() {
	make_root
	run 0 "$root" stat var/log/etc/hostname
	expect "$out" = "regular file 0644 0:0 5 $(stat -c %Y "$root/etc/hostname") var/log/etc/hostname" \
		"TYPE MODE UID:GID SIZE MTIME PATH, through var/log -> /"
	run 0 "$root" stat -n tmp/x
	expect "${out%% 0777*}" = "symbolic link" "-n: the link itself"
	run 0 "$root" chmod 600 tmp/x/hostname
	expect "$(stat -c %a "$root/etc/hostname")" = 600 "root/etc/hostname's mode"
	run 1 "$root" chmod -n 600 tmp/x
	expect "$err" = "inroot: chmod tmp/x: Operation not supported" \
		"a link's own mode, as fchmodat2 answers"
	run 0 "$root" chown 1234:4321 var/log/home/user/file
	expect "$(stat -c %u:%g "$root/home/user/file")" = 1234:4321 \
		"root/home/user/file's owner"
	run 0 "$root" chown -n :99 tmp/up
	expect "$(stat -c %u:%g "$root/tmp/up")" = 0:99 "the link's own group"
	run 0 "$root" utimens -t 1000 usr/share/doc/link/user/file
	expect "$(stat -c %X:%Y "$root/home/user/file")" = 1000:1000 \
		"/home is root/home: both times set"
	run 1 "$root" utimens tmp/up/keep
	run 1 "$root" chmod 600 tmp/up/keep
	run 1 "$root" chown 0 tmp/up/keep
	run 2 "$root" chown root tmp/x
	run 0 "$root" xattr set var/log/etc/hostname user.k value
	run 0 "$root" xattr get tmp/x/hostname user.k
	expect "$out" = value "the attribute read back through another link"
	run 1 "$root" xattr set --create tmp/x/hostname user.k again
	expect "$err" = "inroot: xattr set tmp/x/hostname: File exists" \
		"--create keeps an attribute that is there"
	run 0 "$root" xattr list etc/hostname
	expect "$out" = user.k "one attribute listed"
	run 0 "$root" xattr rm etc/hostname user.k
	run 1 "$root" xattr get etc/hostname user.k
	run 1 "$root" xattr set tmp/up/keep user.k value
	run 2 "$root" xattr frob etc/hostname
}

check_mounts() {
	make_root
	run 0 "$root" mknod --checked -m 600 var/log/dev-null c 1 3
	expect "$(stat -c '%t,%T %a' "$root/dev-null")" = "1,3 600" \
		"a checked node in the root"
	run 0 "$root" bind -i --ro usr/lib var/log/emptydir
	expect -f "$root/emptydir/os-release" "root/usr/lib bound on root/emptydir"
	run 1 "$root" write var/log/emptydir/new
	expect "$err" = "inroot: write var/log/emptydir/new: Read-only file system" \
		"--ro: the bind is read-only"
	run 0 "$root" mask tmp/x/hostname
	expect "$(stat -c '%F %t,%T' "$root/etc/hostname")" = \
		"character special file 1,3" "/dev/null over root/etc/hostname"
	run 0 "$root" mask usr/share/doc/link
	expect ! -e "$root/home/user" "an empty tmpfs over root/home"
	run 0 "$root" remount-ro home
	run 1 "$root" remount-ro tmp
	expect "$err" = "inroot: remount-ro tmp: Invalid argument" \
		"nothing mounted at tmp"
	run 1 "$root" bind /usr tmp/up
	run 1 "$root" bind /no-such-source var/log/emptydir
	expect "$err" = "inroot: bind /no-such-source: No such file or directory" \
		"the machine's SOURCE that cannot be found is named"
	run 1 "$root" bind -i no-such-source var/log/emptydir
	expect "$err" = "inroot: bind no-such-source: No such file or directory" \
		"a SOURCE inside ROOT that cannot be found is named"
	run 1 "$root" bind /usr var/log/no-such-dir/target
	expect "$err" = "inroot: bind var/log/no-such-dir/target: No such file or directory" \
		"a target that cannot be found is named"
	run 1 "$root" mask tmp/up/keep
}

check_usage() {
	make_root
	run 2 "$root" no-such-command
	run 2 "$root" mkdir
	run 2 "$root" mkdir -z dir
	expect "$err" = "inroot: unknown option: -z (see inroot --help)" \
		"a command's unknown option is named"
	run 2 --frob "$root" mkdir dir
	expect "$err" = "inroot: unknown option: --frob (see inroot --help)" \
		"an unknown option before ROOT is named"
	run 2 "$root" --frob mkdir dir
	expect "$err" = "inroot: unknown option: --frob (see inroot --help)" \
		"an unknown option before the command is named"
	run 2 "$root" mv --noreplace --exchange a b
	for command in "mknod --frob" "xattr get --frob" "bind --frob"; do
		run 2 "$root" $command a b
		expect "$err" = "inroot: unknown option: --frob (see inroot --help)" \
			"$command: a long command's unknown option is named"
	done
	run 2 "$root" xattr set -nq a user.k v
	expect "$err" = "inroot: unknown option: -q (see inroot --help)" \
		"an unknown option in a group is named alone"
	run 2 "$root" xattr set --create --replace a user.k v
	run 2 "$root"
	run 1 /no-such-root mkdir dir
	expect "$err" = "inroot: /no-such-root: No such file or directory" \
		"a ROOT that cannot be opened is named"
	run 0 --help
	expect "${out%%$'\n'*}" = "Usage: inroot ROOT COMMAND [OPTION...] ARG..." \
		"--help prints the usage"
	run 0 --version
	expect "${out% *}" = "inroot (libexecveat)" "--version names the tool"
}

[ -x "$inroot" ] && [ -x "$refuse" ] ||
	{ echo "FAIL: $inroot or $refuse cannot be run in the chroot"; exit 1; }
make_host && make_template || { echo "FAIL: making the scratch host"; exit 1; }
# The host as the cases must leave it (each case is compared with the
# last, so that a change is blamed on the case that made it).
host_before=$(snapshot)
for world in allowed ENOSYS EPERM; do
	prefix=()
	[ "$world" = allowed ] || prefix=("$refuse" openat2 "$world")
	for check in check_mkdir check_rm check_ln check_mv check_mknod \
		check_read check_write check_metadata check_mounts \
		check_usage; do
		"$check"
	done
done
echo "inroot-tool: $cases cases in 3 worlds (openat2 allowed, ENOSYS, EPERM)"
[ "$failed" -eq 0 ] && echo "ok: every command stayed in the root"
exit "$failed"
