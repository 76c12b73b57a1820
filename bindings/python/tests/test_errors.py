"""Errors as os raises them, and fds as os opens them."""
import errno
import os
import tempfile
import unittest

import execveat
from world import NoFdLeftTest


class Errors(NoFdLeftTest):
    def setUp(self):
        super().setUp()
        directory = tempfile.TemporaryDirectory()
        self.addCleanup(directory.cleanup)
        self.dir = directory.name
        self.root = execveat.Root(self.dir)
        self.addCleanup(self.root.close)

    def test_error_is_oserror_with_errno_and_filename(self):
        with self.assertRaises(FileNotFoundError) as cm:
            self.root.open("var/missing")
        e = cm.exception
        self.assertEqual((e.errno, e.filename, e.filename2), (errno.ENOENT, "var/missing", None))
        self.assertEqual(str(e), "[Errno 2] No such file or directory: 'var/missing'")
        self.root.mkdir("made")
        with self.assertRaises(FileExistsError):
            self.root.mkdir("made")
        with self.assertRaises(IsADirectoryError):
            self.root.unlink("made")
        with self.assertRaises(OSError) as cm:
            self.root.readlink("made")
        self.assertEqual(cm.exception.errno, errno.EINVAL)
        with self.assertRaises(ValueError):  # a NUL, as os.open answers
            self.root.resolve("a\0b")
        with self.assertRaises(FileNotFoundError):
            execveat.Root(self.dir + "/missing")

    def test_error_of_two_names_names_both_as_os_does(self):
        with self.assertRaises(FileNotFoundError) as cm:
            self.root.rename("missing", "other")
        self.assertEqual((cm.exception.filename, cm.exception.filename2), ("missing", "other"))
        with self.assertRaises(FileNotFoundError) as cm:
            self.root.hardlink("new", "missing")
        self.assertEqual((cm.exception.filename, cm.exception.filename2), ("missing", "new"))
        self.root.symlink("link", "anywhere")
        with self.assertRaises(FileExistsError) as cm:
            self.root.symlink("link", "elsewhere")
        self.assertEqual((cm.exception.filename, cm.exception.filename2), ("elsewhere", "link"))

    def test_cloexec_whatever_the_flags(self):
        with open(self.dir + "/file", "w"):
            pass
        fds = [self.root.open("file", os.O_RDWR),
               self.root.create("new", os.O_RDWR, 0o644),
               self.root.resolve("file"),
               self.root.resolve_nofollow("file"),
               self.root.mkdir_all("a/b", 0o755),
               execveat.openat2(self.root, "file", resolve=execveat.RESOLVE_IN_ROOT)]
        fds.append(execveat.reopen(fds[4], os.O_DIRECTORY))
        for fd in fds:
            with fd:
                self.assert_cloexec(fd)
                self.assertFalse(os.get_inheritable(fd))

    def test_root_of_an_fd_holds_its_own(self):
        fd = os.open(self.dir, os.O_RDONLY | os.O_DIRECTORY)
        with execveat.Root(fd) as root:
            os.close(fd)
            self.assert_cloexec(root.fileno())
            root.mkdir("through-a-duplicate")
        self.assertTrue(os.path.isdir(self.dir + "/through-a-duplicate"))

    def test_fd_closes_once(self):
        fd = self.root.resolve(".")
        with fd:
            self.assertIsInstance(fd, int)
        self.assertTrue(fd.closed)
        fd.close()  # a second close closes nothing (another fd may have its number)

    def test_closed_root_refuses(self):
        root = execveat.Root(self.dir)
        root.close()
        with self.assertRaises(ValueError):
            root.resolve(".")


if __name__ == "__main__":
    unittest.main()
