#!/usr/bin/env bash
# prepare-root-engines.sh PREPARE_ROOT CHECK_PREPARED LIBRARY:
# examples/prepare-root where runtimes run nested, each given what mounts
# need: its check (check-prepared as-is) and the calls each sandbox's
# default policy refuses (prepare-root --calls), in
#   nspawn-enosys  systemd-nspawn, openat2 refused with ENOSYS
#                  (--suppress-sync=yes)
#   nspawn-eperm   systemd-nspawn, openat2 refused with EPERM
#                  (--system-call-filter=~openat2)
#   rootless       an unprivileged user's namespaces (unshare -Urm, a pid
#                  namespace of its own, as uid 65534)
#   podman         podman's default profile, --cap-add SYS_ADMIN
#   docker         Docker's default profile, --cap-add SYS_ADMIN
#   gvisor         runsc do, as root
# The programs run in a root of their own (their libraries copied in) as
# tests/engines/run-engine makes one; podman's and Docker's set-up is
# tests/engines' (podman.sh, docker.sh). Prints a table; fails where a
# check fails in an engine that started. An engine that is missing or
# cannot start here is said so and left out (77 if none could).
set -uo pipefail
if [ -z "${PREPARE_ROOT_ENGINES_NAMESPACE:-}" ]; then
	[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }
	PREPARE_ROOT_ENGINES_NAMESPACE=1 exec unshare -m --propagation private \
		"$0" "$@"
fi
prepare_root=$(realpath "$1") check_prepared=$(realpath "$2")
library=$(realpath "$3")
engines_dir=$(cd "$(dirname "$0")/../engines" && pwd)
work=$(mktemp -d "${TMPDIR:-/var/tmp}/prepare-root-engines.XXXXXX") || exit 1
# Not under /run, where nspawn mounts a tmpfs of its own.
programs_inside=/opt/prepare-root
root=$work/root

mount_point() { mkdir -p "$1"; }
programs_dir() { echo "$work/programs"; }

# The root: the two programs and the libraries they load, at their
# paths; the library itself where the loader looks by default.
make_root() {
	local lib
	mkdir -p "$root"/{usr,etc,tmp,proc,sys,dev,run,srv} \
		"$root$programs_inside" "$root/usr/lib/x86_64-linux-gnu" &&
		cp "$prepare_root" "$check_prepared" "$root$programs_inside/" &&
		cp "$library" "$root/usr/lib/x86_64-linux-gnu/libexecveat.so.1" ||
		return 1
	for lib in $(ldd "$check_prepared" "$prepare_root" |
			sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) .*/\1/p' |
			grep -v libexecveat | sort -u); do
		mkdir -p "$root$(dirname "$lib")" && cp -L "$lib" "$root$lib" ||
			return 1
	done
}

# record ENGINE: a line of the table (in a file: podman's and Docker's
# run in subshells), from the calls refused and the check's status.
record() {
	local engine=$1 refused status line
	refused=$(grep -v ': ok$' "$work/$engine.calls" 2>/dev/null |
		tr '\n' ' ')
	status=$(cat "$work/$engine.status")
	case $status in
	0) line=passed ;;
	77 | 125 | 126 | 127) line="did not start ($status)" ;;
	*)
		# runsc 20221219 answers a mount(2) onto a held directory's
		# "." with 0, then EINVAL for the directory, and binds
		# nothing onto a /proc/self/fd entry: the library's ways
		# without the new mount API (which gVisor lacks) fail there,
		# or its proof sees that the mount did not land (EAGAIN).
		if [ "$engine" = gvisor ]; then
			line="fails, as gVisor's mount(2) does"
		else
			line="FAILED ($status)"
			grep -E 'not ok|FAILED|not here' "$work/$engine.out" >&2
		fi ;;
	esac
	echo "$engine|$line|${refused:-none}" >>"$work/results"
}

# run_in ENGINE RUNNER: the two programs, each run by RUNNER PROGRAM
# ARG... (a function of this file).
run_in() {
	local engine=$1 runner=$2
	echo "=== $engine"
	"$runner" "$programs_inside/prepare-root" --calls \
		>"$work/$engine.calls" 2>&1
	"$runner" "$programs_inside/check-prepared" as-is >"$work/$engine.out" 2>&1
	echo $? >"$work/$engine.status"
	cat "$work/$engine.calls" "$work/$engine.out"
	record "$engine"
}

nspawn() {
	local policy=$1
	shift
	systemd-nspawn -q --register=no --keep-unit --console=pipe \
		--resolv-conf=off --timezone=off --link-journal=no -D "$root" \
		"$policy" -- "$@"
}
# nspawn answers openat2 ENOSYS where it suppresses sync flags (it cannot
# see inside openat2's struct), EPERM where its filter names the call.
nspawn_enosys() { nspawn --suppress-sync=yes "$@"; }
nspawn_eperm() { nspawn --system-call-filter=~openat2 "$@"; }

# As `unshare -Ur` makes them for uid 65534, with a procfs of the pid
# namespace's own and the machine's /dev in the root.
in_rootless() {
	# shellcheck disable=SC2016
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		unshare -Urm --fork --pid --mount-proc="$root/proc" \
		sh -c 'mount --rbind /dev "$0/dev" && exec chroot "$0" "$@"' \
		"$root" "$@"
}

in_gvisor() {
	env -i runsc --network=none do -quiet -cwd / -root "$root" "$@"
}

in_podman() {
	podman_here run --rm --cgroups=disabled --network=none \
		--cap-add SYS_ADMIN --ulimit nofile=1024:1024 \
		--ulimit nproc=1024:1024 prepare-root "$@"
}

in_docker() {
	docker_here run --rm --network=none --log-driver=none \
		--cap-add SYS_ADMIN prepare-root "$@"
}

cleanup() {
	command -v engine_cleanup >/dev/null && engine_cleanup
	rm -rf --one-file-system "$work"
}
: >"$work/results"
trap cleanup EXIT

make_root || { echo "FAIL: making the root"; exit 1; }
if command -v systemd-nspawn >/dev/null; then
	mkdir -p /run/systemd/nspawn &&
		mount -t tmpfs -o mode=0755 tmpfs /run/systemd/nspawn
	run_in nspawn-enosys nspawn_enosys
	run_in nspawn-eperm nspawn_eperm
fi
# A user's namespaces see the root as a user would: readable, its /tmp
# writable.
chmod 0755 "$work" && chmod -R a+rX "$root" && chmod 1777 "$root/tmp"
run_in rootless in_rootless
if command -v runsc >/dev/null; then
	run_in gvisor in_gvisor
fi

# podman's and Docker's own set-up, as the engines suite makes it (podman's
# leaves a cgroup2 /sys/fs/cgroup in this namespace, where runsc finds no
# controllers: gVisor runs before).
if command -v podman >/dev/null; then
	(
		# shellcheck source=../engines/podman.sh
		. "$engines_dir/podman.sh"
		engine_cleanup() { podman_here rmi -a -f >/dev/null 2>&1; }
		engine_setup >/dev/null &&
			tar -C "$root" -c . | podman_here import -q - prepare-root >/dev/null &&
			run_in podman in_podman
		engine_cleanup
	)
fi
if command -v dockerd >/dev/null; then
	(
		# shellcheck source=../engines/docker.sh
		. "$engines_dir/docker.sh"
		if engine_setup >/dev/null; then
			tar -C "$root" -c . | docker_here import - prepare-root >/dev/null &&
				run_in docker in_docker
		fi
		docker_here rmi -f prepare-root >/dev/null 2>&1
		engine_cleanup
	)
fi
echo "=== prepare-root in engines: check, and the calls each refuses"
while IFS='|' read -r e r c; do
	printf '%-14s %-22s %s\n' "$e" "$r" "$c"
done <"$work/results"
grep -q '|FAILED' "$work/results" && exit 1
grep -q '|passed|' "$work/results" || { echo "SKIP: no engine started here"; exit 77; }
exit 0
