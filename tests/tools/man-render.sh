#!/bin/sh
# man-render.sh GROFF PAGE...: every page renders as man(1) renders it at
# 80 columns (tbl, groff's -wall warnings), to a terminal (continuous)
# and to a file (in pages), without a word from groff: a table wider
# than the line, or one cut by a page's end, is a warning of groff's,
# not of mandoc's linter.
set -u
groff=$1
shift
failed=0
for page in "$@"; do
	for mode in -rcR=1 -rcR=0; do
		out=$("$groff" -t -man -Tutf8 -wall "$mode" -z "$page" 2>&1)
		if [ -n "$out" ]; then
			printf '%s (%s): %s\n' "$page" "$mode" "$out"
			failed=1
		fi
	done
done
[ "$failed" -eq 0 ] && echo "$# pages render without a warning"
exit "$failed"
