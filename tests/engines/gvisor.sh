# gVisor (Debian 12's runsc, 0.0~20221219) for tests/engines/run-engine,
# which sources this file: what the engine needs, the world it makes and
# how it runs one program in a root.
#
# gVisor answers system calls with a kernel of its own. Its default world,
# the only one made here: execveat allowed, openat2 and fchmodat2 ENOSYS,
# and close_range(3, ~0U, 0) EINVAL, for arguments Linux accepts (a call
# it does not carry out). `runsc do` runs a program on a tree of the
# host's, read-only under a tmpfs overlay, with the caller's environment.

engine_worlds="gvisor"

# runsc do sees files, not the mounts of the suite's namespace: the
# programs are copied into the root, which only the Debian 12 root (a
# tree of the run's own) may take; the Debian 11 root is a shared cache.
roots="bookworm"

# runsc makes its sandbox in a user namespace, which the kernel refuses
# to a chrooted process (EPERM): in a chroot, gVisor cannot run at all.
engine_missing() {
	command -v runsc >/dev/null || { echo "no runsc (package runsc)"; return; }
	unshare -U true 2>/dev/null ||
		{ echo "no user namespaces here (a chroot?), and runsc needs one"; return; }
}

engine_setup() {
	:
}

# engine_prepare ROOT_NAME ROOT_DIR: the programs copied in.
engine_prepare() {
	eval "gvisor_root_$1=\$2"
	mkdir -p "$2$programs_inside" && cp -a "$(programs_dir "$1")/." "$2$programs_inside/"
}

engine_cleanup() {
	:
}

# engine_run ROOT_NAME WORLD PRELOAD COMMAND...: COMMAND in the root,
# with LD_PRELOAD set to PRELOAD unless that is empty and no other
# variable; gVisor has one world (run-engine's start-up check asks for it
# as "allowed": execveat is allowed there). runsc is a static program:
# the preload reaches the sandbox's program alone.
engine_run() {
	local root_var=gvisor_root_$1 preload=$3
	shift 3
	env -i ${preload:+LD_PRELOAD="$preload"} runsc --network=none do \
		-quiet -cwd / -root "${!root_var}" "$@"
}
