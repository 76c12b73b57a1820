# systemd-nspawn (Debian 12: systemd 252, package systemd-container) for
# tests/engines/run-engine, which sources this file: what the engine needs,
# the worlds it makes, and how it runs one program in a root.
#
# nspawn runs a command in a directory tree without booting it. Its
# --system-call-filter= takes the syntax of a unit's SystemCallFilter=
# (names, @groups, "~" to refuse), so the execveat world is made from the
# SystemCallFilter= lines of no-execveat.conf, the unit settings
# docs/preloading.md gives. nspawn refuses what its filter leaves out
# with EPERM, which is what the unit's SystemCallErrorNumber=EPERM asks
# for.

engine_worlds="allowed execveat-eperm openat2-enosys openat2-eperm"

# engine_missing: prints why the engine cannot run here, if it cannot.
engine_missing() {
	command -v systemd-nspawn >/dev/null ||
		{ echo "no systemd-nspawn (package systemd-container)"; return; }
}

# engine_setup: in the suite's private mount namespace. nspawn keeps its
# mount propagation directory under /run/systemd/nspawn: a tmpfs of the
# namespace's own keeps concurrent runs apart and leaves the host's /run
# as it was.
engine_setup() {
	mount_point /run/systemd/nspawn &&
		mount -t tmpfs -o mode=0755 tmpfs /run/systemd/nspawn
}

# engine_prepare ROOT_NAME ROOT_DIR: nspawn runs the directory itself.
engine_prepare() {
	eval "nspawn_root_$1=\$2"
}

engine_cleanup() {
	:
}

# The unit's filter lines, each as nspawn's option.
unit_system_call_filters() {
	sed -n 's/^SystemCallFilter=\(.*\)$/--system-call-filter=\1/p' \
		"$engine_dir/no-execveat.conf"
}

# engine_run ROOT_NAME WORLD PRELOAD COMMAND...: COMMAND in the root, the
# suite's programs bound in read-only at $programs_inside, LD_PRELOAD set
# to PRELOAD unless that is empty. The root itself stays read-only.
engine_run() {
	local root=$1 root_var=nspawn_root_$1 world=$2 preload=$3
	local -a policy=()
	shift 3
	case $world in
	allowed) ;;
	execveat-eperm) mapfile -t policy < <(unit_system_call_filters) ;;
	# nspawn cannot see inside openat2's struct for the O_SYNC flags it
	# suppresses, so it answers ENOSYS for the whole call (GNU tar's
	# RESOLVE_BENEATH opens failed there).
	openat2-enosys) policy=(--suppress-sync=yes) ;;
	openat2-eperm) policy=(--system-call-filter=~openat2) ;;
	*) echo "nspawn makes no world $world" >&2; return 125 ;;
	esac
	systemd-nspawn -q --register=no --keep-unit --console=pipe --read-only \
		--resolv-conf=off --timezone=off --link-journal=no \
		-D "${!root_var}" \
		--bind-ro="$(programs_dir "$root"):$programs_inside" \
		${preload:+--setenv=LD_PRELOAD="$preload"} \
		"${policy[@]}" -- "$@"
}
