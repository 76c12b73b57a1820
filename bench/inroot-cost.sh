#!/usr/bin/env bash
# The inroot-cost table with its column of system calls per operation:
# counted first, with strace (count-inroot-syscalls.sh --counts), then
# handed to the timing run. Where strace cannot count here (its skip,
# 77), the table is timed without that column.
#
#   inroot-cost.sh INROOT-COST
set -euo pipefail
subject=$1
counts=$(mktemp)
trap 'rm -f "$counts"' EXIT
status=0
"$(dirname "$0")/count-inroot-syscalls.sh" --counts "$subject" >"$counts" ||
	status=$?
case $status in
0) "$subject" --syscalls "$counts" ;;
77)
	echo "(system calls not counted here: $(head -n 1 "$counts"))"
	"$subject"
	;;
*)
	cat "$counts"
	exit "$status"
	;;
esac
