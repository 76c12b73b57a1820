#!/usr/bin/env bash
# The inroot-cost table with its column of system calls per operation:
# counted first, with strace (count-inroot-syscalls.sh --counts), then
# handed to the timing run. Where strace cannot count here, the table
# is timed without that column.
#
#   inroot-cost.sh INROOT-COST
set -euo pipefail
subject=$1
counts=$(mktemp)
trap 'rm -f "$counts"' EXIT
if "$(dirname "$0")/count-inroot-syscalls.sh" --counts "$subject" >"$counts"; then
	"$subject" --syscalls "$counts"
else
	echo "(system calls not counted here: $(head -n 1 "$counts"))"
	"$subject"
fi
