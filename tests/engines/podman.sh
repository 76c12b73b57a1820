# podman (Debian 12: podman 4.3 with crun 1.8) for tests/engines/run-engine,
# which sources this file: what the engine needs, the worlds it makes, and
# how it runs one program in an image.
#
# Each world is an OCI seccomp profile from seccomp/, given as Docker takes
# it too (--security-opt seccomp=FILE); "allowed" is podman's own default
# profile, which allows execveat and openat2. Images are imported from the
# roots once per run into a storage of the run's own, deleted at the end.

engine_worlds="allowed execveat-eperm execveat-enosys openat2-enosys openat2-eperm"

engine_missing() {
	command -v podman >/dev/null || { echo "no podman"; return; }
	command -v crun >/dev/null || { echo "no crun"; return; }
}

podman_here() {
	podman --root "$work/podman/storage" --runroot "$work/podman/run" \
		--tmpdir "$work/podman/tmp" --cgroup-manager=cgroupfs \
		--events-backend=file "$@"
}

# engine_setup: in the suite's private mount namespace.
engine_setup() {
	mkdir -p "$work/podman/storage" "$work/podman/run" "$work/podman/tmp"
	# podman import keeps a cache of the blobs it has seen in
	# /var/lib/containers/cache, whatever --root says: a tmpfs of the
	# namespace's own keeps it out of the machine's.
	mount_point /var/lib/containers &&
		mount -t tmpfs -o mode=0700 tmpfs /var/lib/containers ||
		{ echo "cannot mount a tmpfs at /var/lib/containers"; return 1; }
	# crun refuses a hybrid cgroup layout (cgroup v1 controllers beside a
	# cgroup2 mount, as on this project's development machine): the
	# namespace gets a pure cgroup2 /sys/fs/cgroup; the containers
	# themselves get no cgroup.
	if [ "$(stat -f -c %T /sys/fs/cgroup)" != cgroup2fs ]; then
		umount -R /sys/fs/cgroup 2>/dev/null
		mount -t cgroup2 cgroup2 /sys/fs/cgroup ||
			{ echo "no cgroup2 (cannot mount one at /sys/fs/cgroup)"; return 1; }
	fi
}

# engine_prepare ROOT_NAME ROOT_DIR: an image of the root, made offline;
# not of its /tmp, where other suites make and remove their files while
# tar reads.
engine_prepare() {
	tar -C "$2" --exclude='./tmp/*' -c . |
		podman_here import -q - "libexecveat-engines-$1" >/dev/null
}

engine_cleanup() {
	podman_here rmi -a -f >/dev/null 2>&1
	rm -rf "$work/podman"
}

# engine_run ROOT_NAME WORLD PRELOAD COMMAND...: COMMAND in a container of
# the root's image, the suite's programs bound in read-only at
# $programs_inside, LD_PRELOAD set to PRELOAD unless that is empty.
engine_run() {
	local root=$1 world=$2 preload=$3 profile
	shift 3
	profile=$(oci_profile "$world") ||
		{ echo "podman makes no world $world" >&2; return 125; }
	# podman asks for more open files and processes than the hard limits
	# here allow (1048576 files, against 20000), and crun then fails to
	# start: ask for limits below them, which needs no privilege.
	podman_here run --rm --cgroups=disabled --network=none \
		--ulimit nofile=1024:1024 --ulimit nproc=1024:1024 \
		${profile:+--security-opt seccomp="$engine_dir/seccomp/$profile"} \
		-v "$(programs_dir "$root"):$programs_inside:ro" \
		${preload:+-e LD_PRELOAD="$preload"} \
		"libexecveat-engines-$root" "$@"
}
