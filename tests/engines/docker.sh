# Docker (Debian 12: docker.io 20.10 with containerd and runc) for
# tests/engines/run-engine, which sources this file: what the engine needs,
# the worlds it makes, and how it runs one program in an image.
#
# The suite starts a dockerd of its own, on a socket, data root and exec
# root in its work directory, with no network of its own (no iptables
# rules, no bridge), and stops it at the end; images are imported from
# the roots offline. Each world is an OCI seccomp profile from seccomp/
# (the files podman takes); "allowed" is Docker's own default profile,
# which allows execveat, openat2 and close_range (fchmodat2: ENOSYS).

engine_worlds="allowed execveat-eperm execveat-enosys openat2-enosys openat2-eperm"

# Debian's client, the daemon's own version (another may be first in PATH).
docker_client=/usr/bin/docker

engine_missing() {
	command -v dockerd >/dev/null || { echo "no dockerd (package docker.io)"; return; }
	[ -x "$docker_client" ] || { echo "no $docker_client (package docker.io)"; return; }
}

docker_here() {
	"$docker_client" -H "unix://$work/docker/docker.sock" "$@"
}

# engine_setup: in the suite's private mount namespace, a dockerd that
# answers on its socket within a minute, or the reason it does not.
engine_setup() {
	mkdir -p "$work/docker/data" "$work/docker/exec"
	# What dockerd writes outside its roots, whatever its options say (its
	# trust key, plugin sockets, containerd's shim sockets): tmpfs mounts
	# of the namespace's own keep them out of the machine's.
	local dir
	for dir in /etc/docker /run/docker /run/containerd; do
		mount_point "$dir" && mount -t tmpfs -o mode=0700 tmpfs "$dir" ||
			{ echo "cannot mount a tmpfs at $dir"; return 1; }
	done
	dockerd --iptables=false --ip6tables=false --bridge=none \
		--host="unix://$work/docker/docker.sock" \
		--data-root="$work/docker/data" --exec-root="$work/docker/exec" \
		--pidfile="$work/docker/dockerd.pid" \
		>"$work/docker/dockerd.log" 2>&1 &
	local pid=$!
	# Until it answers, or is gone: as long as it takes on a busy
	# machine (the test's own timeout bounds a daemon that never does).
	until docker_here version >/dev/null 2>&1; do
		if ! kill -0 "$pid" 2>/dev/null; then
			echo "dockerd did not start: $(tail -n 3 "$work/docker/dockerd.log" | tr '\n' ' ')"
			return 1
		fi
		sleep 1
	done
}

# engine_prepare ROOT_NAME ROOT_DIR: an image of the root, made offline;
# not of its /tmp, where other suites make and remove their files.
engine_prepare() {
	tar -C "$2" --exclude='./tmp/*' -c . |
		docker_here import - "libexecveat-engines-$1" >/dev/null
}

# stop_pid FILE: the process whose pid FILE holds, asked to end, waited
# for (20 s at most), then made to.
stop_pid() {
	local pid waited=0
	pid=$(cat "$1" 2>/dev/null) && [ -n "$pid" ] && kill "$pid" 2>/dev/null ||
		return 0
	while kill -0 "$pid" 2>/dev/null && [ $waited -lt 20 ]; do
		sleep 1
		waited=$((waited + 1))
	done
	kill -KILL "$pid" 2>/dev/null
}

# engine_cleanup: the images, the daemon and the containerd it started
# (which outlives it, and would write into the data root after it is
# removed), and everything under the work directory. engine_setup ran in
# a subshell: the daemons are found by their pid files.
engine_cleanup() {
	[ -e "$work/docker/dockerd.pid" ] || return 0
	docker_here rmi -f libexecveat-engines-bookworm \
		libexecveat-engines-bullseye >/dev/null 2>&1
	cp "$work/docker/exec/containerd/containerd.pid" "$work/containerd.pid" 2>/dev/null
	stop_pid "$work/docker/dockerd.pid"
	stop_pid "$work/containerd.pid"
	# dockerd unmounts what it mounted as it stops; what a kill left is
	# the namespace's, and goes with it.
	rm -rf --one-file-system "$work/docker" 2>/dev/null
}

# engine_run ROOT_NAME WORLD PRELOAD COMMAND...: COMMAND in a container of
# the root's image, the suite's programs bound in read-only at
# $programs_inside, LD_PRELOAD set to PRELOAD unless that is empty.
engine_run() {
	local root=$1 world=$2 preload=$3 profile
	shift 3
	profile=$(oci_profile "$world") ||
		{ echo "Docker makes no world $world" >&2; return 125; }
	docker_here run --rm --network=none --log-driver=none \
		${profile:+--security-opt seccomp="$engine_dir/seccomp/$profile"} \
		-v "$(programs_dir "$root"):$programs_inside:ro" \
		${preload:+-e LD_PRELOAD="$preload"} \
		"libexecveat-engines-$root" "$@"
}
