# A real, unmodified client of fexecve: CPython's os.execve given an fd,
# which it runs with the C library's fexecve. Runs the file open at fd
# FD (report_args, opened by the test), or prints the errno it got.
#
#   python3 cpython_fexecve.py FD
import os
import sys

try:
    os.execve(int(sys.argv[1]), ["report_args", "42"], {"IN_TEST": "yes"})
except OSError as e:
    print("errno", e.errno)
