#!/bin/sh
# The library's dynamic symbol table is its ABI: exactly execveat and
# fexecve in EXECVEAT_1.0, openat2 in EXECVEAT_1.1, closefrom, close_range,
# fchmodat and lchmod in EXECVEAT_1.2, faccessat, pidfd_getpid, freopen
# and freopen64 in EXECVEAT_1.3, each but execveat once more in glibc's
# nodes when there
# are (GLIBC_2.43 for openat2, GLIBC_2.39 for pidfd_getpid; the others'
# are given as FUNCTION@NODE), the version nodes themselves, and nothing
# else. A GLIBC_2.43 or 2.39 node that the
# library defines asks nothing of the C library it loads into. And it must load
# into processes of glibc 2.17 and later: no undefined symbol may need a
# newer glibc version.
#
#   check-exports.sh LIBRARY [GLIBC_NODE [FUNCTION@NODE...]]
set -eu
library=$1
glibc_node=${2:-}
shift
[ $# -eq 0 ] || shift
newest_allowed=2.17

expected="EXECVEAT_1.0
EXECVEAT_1.1
EXECVEAT_1.2
execveat@@EXECVEAT_1.0
fexecve@@EXECVEAT_1.0
openat2@@EXECVEAT_1.1
close_range@@EXECVEAT_1.2
closefrom@@EXECVEAT_1.2
fchmodat@@EXECVEAT_1.2
lchmod@@EXECVEAT_1.2
EXECVEAT_1.3
pidfd_getpid@@EXECVEAT_1.3
freopen@@EXECVEAT_1.3
freopen64@@EXECVEAT_1.3
faccessat@@EXECVEAT_1.3
EXECVEAT_2.0
inroot_creat@@EXECVEAT_2.0
inroot_hardlink@@EXECVEAT_2.0
inroot_mkdir@@EXECVEAT_2.0
inroot_mkdir_all@@EXECVEAT_2.0
inroot_mknod@@EXECVEAT_2.0
inroot_open@@EXECVEAT_2.0
inroot_readlink@@EXECVEAT_2.0
inroot_remove_all@@EXECVEAT_2.0
inroot_rename@@EXECVEAT_2.0
inroot_reopen@@EXECVEAT_2.0
inroot_resolve@@EXECVEAT_2.0
inroot_resolve_nofollow@@EXECVEAT_2.0
inroot_rmdir@@EXECVEAT_2.0
inroot_symlink@@EXECVEAT_2.0
inroot_unlink@@EXECVEAT_2.0
EXECVEAT_2.1
inroot_bind@@EXECVEAT_2.1
inroot_chmod@@EXECVEAT_2.1
inroot_chown@@EXECVEAT_2.1
inroot_fchmod@@EXECVEAT_2.1
inroot_fchown@@EXECVEAT_2.1
inroot_fgetxattr@@EXECVEAT_2.1
inroot_flistxattr@@EXECVEAT_2.1
inroot_fremovexattr@@EXECVEAT_2.1
inroot_fsetxattr@@EXECVEAT_2.1
inroot_fstatx@@EXECVEAT_2.1
inroot_futimens@@EXECVEAT_2.1
inroot_getxattr@@EXECVEAT_2.1
inroot_listxattr@@EXECVEAT_2.1
inroot_mask@@EXECVEAT_2.1
inroot_mknod_checked@@EXECVEAT_2.1
inroot_remount_rdonly@@EXECVEAT_2.1
inroot_removexattr@@EXECVEAT_2.1
inroot_setxattr@@EXECVEAT_2.1
inroot_statx@@EXECVEAT_2.1
inroot_utimens@@EXECVEAT_2.1"
if [ -n "$glibc_node" ]; then
	expected="$expected
$glibc_node
fexecve@$glibc_node
GLIBC_2.43
openat2@GLIBC_2.43
GLIBC_2.39
pidfd_getpid@GLIBC_2.39"
	for twin in "$@"; do
		expected="$expected
$twin
${twin#*@}"
	done
fi
expected=$(printf '%s\n' "$expected" | LC_ALL=C sort -u)

# Columns: Num Value Size Type Bind Vis Ndx Name
exported=$(readelf --dyn-syms -W "$library" |
	awk '$5 == "GLOBAL" || $5 == "WEAK" { if ($7 != "UND") print $8 }' |
	LC_ALL=C sort)
if [ "$exported" != "$expected" ]; then
	echo "exported symbols differ from the ABI:"
	printf 'expected:\n%s\nexported:\n%s\n' "$expected" "$exported"
	exit 1
fi

too_new=$(readelf --dyn-syms -W "$library" |
	awk '$7 == "UND" { print $8 }' |
	sed -n 's/.*@GLIBC_\([0-9.]*\).*/\1 &/p' |
	while read -r version symbol; do
		newest=$(printf '%s\n%s\n' "$version" "$newest_allowed" | sort -V | tail -n 1)
		[ "$newest" = "$newest_allowed" ] || echo "$symbol"
	done)
if [ -n "$too_new" ]; then
	echo "needs a glibc newer than $newest_allowed: $too_new"
	exit 1
fi
echo "exports: $(echo $exported); every glibc symbol needed is <= $newest_allowed"
