"""fexecve and execveat in a child, closefrom here."""
import errno
import fcntl
import os
import tempfile
import unittest

import execveat


def run_child(function):
    """Runs function in a forked child with stdout on a pipe; its exit
    status and output."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.dup2(w, 1)
            function()
        finally:
            os._exit(3)
    os.close(w)
    with os.fdopen(r) as out:
        text = out.read()
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), text


class Exec(unittest.TestCase):
    def test_fexecve_runs_the_file(self):
        def child():
            with open("/bin/echo", "rb") as program:
                execveat.fexecve(program, ["echo", "fexecve ran"], {})
        self.assertEqual(run_child(child), (0, "fexecve ran\n"))

    def test_execveat_runs_the_file(self):
        def child():
            dirfd = os.open("/bin", os.O_RDONLY | os.O_DIRECTORY)
            execveat.execveat(dirfd, "echo", ["echo", "execveat ran"])
        self.assertEqual(run_child(child), (0, "execveat ran\n"))

    def test_fexecve_error_is_oserror(self):
        with tempfile.NamedTemporaryFile("w") as script:
            script.write("#!/bin/sh\n")
            script.flush()
            os.chmod(script.name, 0o644)  # no one may run it

            def child():
                try:
                    with open(script.name, "rb") as program:
                        execveat.fexecve(program.fileno(), ["x"])
                except PermissionError as e:
                    print(e.errno == errno.EACCES, flush=True)
            self.assertEqual(run_child(child), (3, "True\n"))

    def test_execveat_check_runs_nothing(self):
        at_execve_check = 0x10000  # Linux 6.14
        dirfd = os.open("/bin", os.O_RDONLY | os.O_DIRECTORY)
        self.addCleanup(os.close, dirfd)
        try:
            execveat.execveat(dirfd, "echo", ["echo"], flags=at_execve_check)
        except OSError as e:
            if e.errno == errno.EINVAL:
                self.skipTest("this kernel has no AT_EXECVE_CHECK (Linux 6.14)")
            raise
        with self.assertRaises(FileNotFoundError) as cm:
            execveat.execveat(dirfd, "missing", ["x"], flags=at_execve_check)
        self.assertEqual(cm.exception.filename, "missing")

    def test_closefrom_closes_from_lowfd_up(self):
        fd = os.open("/", os.O_RDONLY)
        self.addCleanup(os.close, fd)
        for n in (899, 900, 950):
            os.dup2(fd, n)
        execveat.closefrom(900)

        def is_open(n):
            try:
                fcntl.fcntl(n, fcntl.F_GETFD)
                return True
            except OSError:
                return False
        self.assertEqual([is_open(n) for n in (fd, 899, 900, 950)], [True, True, False, False])
        os.close(899)


if __name__ == "__main__":
    unittest.main()
