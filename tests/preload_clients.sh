#!/usr/bin/env bash
# Unmodified Debian programs that call closefrom, close_range, fchmodat,
# lchmod and faccessat, run where glibc 2.36 answers wrongly, first as
# they are and then with libexecveat preloaded:
#
#   tmux 3.3a       imports glibc's closefrom (its server and each pane's
#                   child call closefrom(3) before exec)
#   python3 3.11    imports close_range (subprocess, close_fds=True),
#                   fchmodat (os.chmod(..., follow_symlinks=False)) and
#                   fexecve (os.execve of an fd); each keeps the
#                   program's record locks
#   mkfifo (coreutils 9.1)  imports lchmod (mkfifo -m MODE)
#   dash, bash, find  import faccessat ([ -x FILE ], find -executable)
#
# OpenSSH's ssh carries a closefrom of its own, which calls close_range:
# it is not run here.
#
#   preload_clients.sh LIBRARY REFUSE_SYSCALL REPORT_INHERITED
#
# Needs root (mount namespaces, files of another owner). Prints one line
# per case and "N passed, N failed".
set -u
lib=$(realpath "$1") refuse=$(realpath "$2") report=$(realpath "$3")
python=/usr/bin/python3
passed=0 failed=0

[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (mount namespaces)"; exit 77; }
for program in tmux "$python" mkfifo unshare dash bash find; do
	command -v "$program" >/dev/null ||
		{ echo "SKIP: $program is not installed"; exit 77; }
done

work=$(mktemp -d)
trap 'tmux -S "$work/sock" kill-server 2>/dev/null; rm -rf "$work"' EXIT

check() { # NAME WORLD OK DETAIL
	if [ "$3" = yes ]; then
		echo "ok $1 ($2)"
		passed=$((passed + 1))
	else
		echo "not ok $1 ($2): $4"
		failed=$((failed + 1))
	fi
}

# in_world PROC REFUSED ERRNO [PRELOAD] -- COMMAND...: COMMAND in a mount
# namespace whose /proc is real, none (an empty tmpfs) or fake (a tmpfs
# whose self/fd/3 to 63 name $work/victim), with the system call REFUSED
# failing with ERRNO.
in_world() {
	local proc=$1 call=$2 err=$3 preload=$4
	shift 5
	unshare -m "$BASH" -c '
		proc=$1 work=$2; shift 2
		case $proc in
		none) mount -t tmpfs none /proc ;;
		fake) mount -t tmpfs none /proc && mkdir -p /proc/self/fd &&
			for fd in $(seq 3 63); do
				ln -s "$work/victim" /proc/self/fd/$fd
			done ;;
		esac
		exec "$@"' world "$proc" "$work" \
		env ${preload:+LD_PRELOAD=$preload} "$refuse" "$call" "$err" "$@"
}

# ---- tmux: closefrom ----
# A pane runs REPORT_INHERITED, which counts the fds it inherited (of 3
# to 9 and 1500, open in the client that starts the server), and writes
# its count where the test reads it. Waited for until it is written or
# the session is gone (its one pane ended, or the server died), however
# busy the machine is.
tmux_case() { # PROC ERRNO PRELOAD
	rm -f "$work/count"
	in_world "$1" close_range "$2" "$3" -- "$BASH" -c '
		exec 7</dev/null 1500</dev/null
		tmux -S "$1/sock" -f /dev/null new-session -d \
			"$2 3 4 5 6 7 8 9 1500; echo \$? >$1/count"
		until [ -s "$1/count" ] ||
			! tmux -S "$1/sock" has-session 2>/dev/null; do
			sleep 0.1
		done
		tmux -S "$1/sock" kill-server' tmux-case "$work" "$report" \
		>/dev/null 2>&1
	cat "$work/count" 2>/dev/null || echo "no pane ran"
}

for err in 38 1; do
	world="close_range refused (errno $err), no /proc"
	got=$(tmux_case none $err "")
	check tmux_glibc_runs_no_pane "$world" \
		"$([ "$got" = "no pane ran" ] && echo yes)" "$got"
	got=$(tmux_case none $err "$lib")
	check tmux_preloaded_pane_inherits_nothing "$world" \
		"$([ "$got" = 0 ] && echo yes)" "$got"
done

# ---- python3: close_range in subprocess ----
# fd 1500 opened, the limit lowered to 1024, then a child with
# close_fds=True: CPython calls close_range, and where that is refused,
# lists /proc/self/fd or closes every number below the limit.
py_close_fds='
import os, resource, subprocess, sys
os.dup2(os.open("/dev/null", os.O_RDONLY), 1500)
resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))
print(subprocess.run([sys.argv[1], "1500"], close_fds=True).returncode)'
for proc in none fake; do
	world="close_range refused (ENOSYS), $proc /proc"
	got=$(in_world $proc close_range 38 "" -- "$python" -c "$py_close_fds" "$report" 2>&1)
	check python_subprocess_glibc_leaks_fd_1500 "$world" \
		"$([ "$got" = 1 ] && echo yes)" "$got"
	got=$(in_world $proc close_range 38 "$lib" -- "$python" -c "$py_close_fds" "$report" 2>&1)
	check python_subprocess_preloaded_leaks_nothing "$world" \
		"$([ "$got" = 0 ] && echo yes)" "$got"
done

# ---- python3: fchmodat(AT_SYMLINK_NOFOLLOW) ----
py_chmod='
import os, sys
try:
    os.chmod(sys.argv[1], 0o600, follow_symlinks=False)
    print("changed")
except Exception as e:
    print(type(e).__name__)'
modes() { stat -c %a "$work/file" "$work/victim" | tr '\n' ' '; }
reset() { touch "$work/file" "$work/victim"; chmod 644 "$work/file" "$work/victim"; }
# glibc 2.36 never calls fchmodat2; the library does, and falls back:
# through a proven /proc, and without one never by opening the file
# (python then says NotImplementedError, as under glibc without /proc),
# never changing the fake's victim.
for world_args in "none 38" "fake 1" "real 1"; do
	set -- $world_args
	proc=$1 err=$2
	world="fchmodat2 refused (errno $err), $proc /proc"
	reset
	got="$(in_world $proc fchmodat2 $err "" -- "$python" -c "$py_chmod" "$work/file") $(modes)"
	case $proc in
	none) want="NotImplementedError 644 644 " ;;
	fake) want="changed 644 600 " ;;
	real) want="changed 600 644 " ;;
	esac
	check python_chmod_nofollow_glibc "$world" \
		"$([ "$got" = "$want" ] && echo yes)" "$got (expected $want)"
	reset
	got="$(in_world $proc fchmodat2 $err "$lib" -- "$python" -c "$py_chmod" "$work/file") $(modes)"
	want=$([ $proc = real ] && echo "changed 600 644 " ||
		echo "NotImplementedError 644 644 ")
	check python_chmod_nofollow_preloaded_never_the_victim "$world" \
		"$([ "$got" = "$want" ] && echo yes)" "$got (expected $want)"
done

# ---- python3: record locks kept ----
# The program holds a POSIX read lock (F_SETLK) on "file" through a read
# fd, then asks the library: it may refuse, but the lock must stay, as
# the kernel's calls keep it (the chmod goes through that fd). Asked as an open file description's lock
# (F_OFD_GETLK), which meets the process's own POSIX locks.
py_locks='
import fcntl, os, struct, sys
path, what = sys.argv[1], sys.argv[2]
flock = "hhxxxxqqixxxx"
held = os.open(path, os.O_RDONLY)
fcntl.fcntl(held, fcntl.F_SETLK, struct.pack(flock, fcntl.F_RDLCK, 0, 0, 0, 0))
try:
    if what == "chmod":
        os.chmod(path, 0o600, follow_symlinks=False)
        said = "changed"
    else:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
        os.execve(fd, ["script"], {})
except OSError as e:
    said = os.strerror(e.errno)
probe = os.open(path, os.O_RDONLY)
lock = struct.pack(flock, fcntl.F_WRLCK, 0, 0, 0, 0)
l_type, _, _, _, pid = struct.unpack(flock,
                                     fcntl.fcntl(probe, fcntl.F_OFD_GETLK, lock))
print(said, "lock", "held" if l_type != fcntl.F_UNLCK and pid == os.getpid() else "gone")'
reset
printf '#!/bin/sh\nexit 3\n' >"$work/file"
chmod 755 "$work/file"
for proc in none real; do
	world="fchmodat2 refused (ENOSYS), $proc /proc"
	got=$(in_world $proc fchmodat2 38 "$lib" -- "$python" -c "$py_locks" "$work/file" chmod 2>&1)
	want="changed lock held"
	check python_chmod_preloaded_keeps_the_lock "$world" \
		"$([ "$got" = "$want" ] && echo yes)" "$got (expected $want)"
done
world="execveat refused (ENOSYS), real /proc"
chmod 755 "$work/file" # as the chmod cases found it
got=$(in_world real execveat 38 "$lib" -- "$python" -c "$py_locks" "$work/file" exec 2>&1)
check python_fexecve_cloexec_script_preloaded_keeps_the_lock "$world" \
	"$([ "$got" = "No such file or directory lock held" ] && echo yes)" "$got"

# ---- mkfifo -m: lchmod ----
# mkfifo makes the FIFO with the mode less the umask (022: 0644), then
# lchmods it to 0666 (strace: chmod("/proc/self/fd/3") under glibc).
fifo_case() { # PROC PRELOAD
	rm -f "$work/fifo"
	reset
	in_world "$1" fchmodat2 1 "$2" -- "$BASH" -c 'umask 022; exec mkfifo -m 0666 "$1"' mkfifo-case "$work/fifo" \
		>/dev/null 2>&1
	echo "$? $(stat -c %a "$work/fifo" "$work/victim" 2>/dev/null | tr '\n' ' ')"
}
world="fchmodat2 refused (EPERM), fake /proc"
got=$(fifo_case fake "")
check mkfifo_glibc_changes_the_victim "$world" \
	"$([ "$got" = "0 644 666 " ] && echo yes)" "$got"
got=$(fifo_case fake "$lib")
check mkfifo_preloaded_refuses_and_keeps_the_victim "$world" \
	"$([ "$got" = "1 644 644 " ] && echo yes)" "$got"
world="fchmodat2 refused (EPERM), real /proc"
got=$(fifo_case real "$lib")
check mkfifo_preloaded_changes_the_fifo "$world" \
	"$([ "$got" = "0 666 644 " ] && echo yes)" "$got"

# ---- dash, bash, find: faccessat ----
# [ -x FILE ] in dash and bash and find's -executable call faccessat,
# which glibc 2.33+ sends to faccessat2 and falls back from only on
# ENOSYS: refused with EPERM, every file is "not executable". An
# immutable file's W_OK is the file's own EPERM, never a refusal.
for err in 1 38; do
	world="faccessat2 refused (errno $err), real /proc"
	for shell in dash bash; do
		got=$(in_world real faccessat2 $err "" -- $shell -c '[ -x /bin/sh ] && echo yes || echo no' 2>&1)
		want=$([ $err = 1 ] && echo no || echo yes)
		check ${shell}_test_x_glibc "$world" \
			"$([ "$got" = "$want" ] && echo yes)" "$got (expected $want)"
		got=$(in_world real faccessat2 $err "$lib" -- $shell -c '[ -x /bin/sh ] && echo yes || echo no' 2>&1)
		check ${shell}_test_x_preloaded_is_true "$world" \
			"$([ "$got" = yes ] && echo yes)" "$got"
	done
	got=$(in_world real faccessat2 $err "" -- find /bin/sh -executable 2>&1)
	want=$([ $err = 1 ] || echo /bin/sh)
	check find_executable_glibc "$world" \
		"$([ "$got" = "$want" ] && echo yes)" "$got (expected '$want')"
	got=$(in_world real faccessat2 $err "$lib" -- find /bin/sh -executable 2>&1)
	check find_executable_preloaded_finds_sh "$world" \
		"$([ "$got" = /bin/sh ] && echo yes)" "$got"
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
