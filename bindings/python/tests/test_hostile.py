"""Every operation on the hostile root, through the links that lead out
of it: each must act inside the root, the host outside unchanged
(HostileRootTest checks that at each test's end)."""
import errno
import os
import stat
import unittest

import execveat
from world import ROOT, HostileRootTest, proc_hidden


class HostileRoot(HostileRootTest):
    def test_resolve_stays_inside(self):
        for path in ("var/log/etc/hostname", "tmp/x/hostname", "/../../etc/hostname"):
            with self.root.resolve(path) as fd:
                self.assert_same_file(fd, ROOT + "/etc/hostname")
                self.assert_cloexec(fd)
        # The last link followed, and inside the root.
        with self.root.resolve("etc/os-release") as fd:
            self.assert_same_file(fd, ROOT + "/usr/lib/os-release")

    def test_resolve_nofollow_stays_inside(self):
        with self.root.resolve_nofollow("var/log/tmp/x") as fd:
            self.assert_same_file(fd, ROOT + "/tmp/x")
            self.assert_cloexec(fd)

    def test_open_stays_inside(self):
        for path in ("var/log/etc/hostname", "tmp/x/hostname", "etc/../../../etc/hostname"):
            with self.root.open(path) as fd:
                self.assertEqual(self.read(fd), "root\n", path)
                self.assert_cloexec(fd)
        with self.root.open("etc/os-release") as fd:
            self.assertEqual(self.read(fd), "ID=root\n")

    def test_create_stays_inside(self):
        with self.root.create("var/log/made", os.O_WRONLY | os.O_EXCL, 0o600) as fd:
            self.assert_cloexec(fd)
            self.assert_same_file(fd, ROOT + "/made")
            self.assertEqual(stat.S_IMODE(os.fstat(fd).st_mode), 0o600)

    def test_mkdir_stays_inside(self):
        self.root.mkdir("tmp/x/newdir", 0o700)
        self.assertEqual(stat.S_IMODE(os.stat(ROOT + "/etc/newdir").st_mode), 0o700)

    def test_mkdir_all_stays_inside(self):
        with self.root.mkdir_all("var/log/app/sub", 0o755) as fd:
            self.assert_cloexec(fd)
            self.assert_same_file(fd, ROOT + "/app/sub")

    def test_mknod_stays_inside(self):
        self.root.mknod("var/log/fifo", stat.S_IFIFO | 0o644)
        self.assertTrue(stat.S_ISFIFO(os.lstat(ROOT + "/fifo").st_mode))

    def test_symlink_stays_inside(self):
        self.root.symlink("usr/share/doc/link/evil", "/etc/passwd")
        self.assertEqual(os.readlink(ROOT + "/home/evil"), "/etc/passwd")

    def test_hardlink_stays_inside(self):
        self.root.hardlink("var/log/hard", "tmp/x/hostname")
        self.assertTrue(os.path.samefile(ROOT + "/hard", ROOT + "/etc/hostname"))

    def test_rename_stays_inside(self):
        self.root.rename("tmp/x/hostname", "var/log/moved")
        with open(ROOT + "/moved") as f:
            self.assertEqual(f.read(), "root\n")
        with self.assertRaises(FileExistsError):
            self.root.rename("var/log/moved", "home/user/file", execveat.RENAME_NOREPLACE)

    def test_unlink_stays_inside(self):
        self.root.unlink("var/log/etc/hostname")
        self.assertFalse(os.path.lexists(ROOT + "/etc/hostname"))

    def test_rmdir_stays_inside(self):
        self.root.rmdir("var/log/emptydir")
        self.assertFalse(os.path.lexists(ROOT + "/emptydir"))
        with self.assertRaises(OSError) as cm:
            self.root.rmdir("var/log/etc")
        self.assertEqual(cm.exception.errno, errno.ENOTEMPTY)

    def test_remove_all_stays_inside(self):
        self.root.remove_all("usr/share/doc/link/user")
        self.assertFalse(os.path.lexists(ROOT + "/home/user"))
        # The link itself, not what it leads to.
        self.root.remove_all("var/log")
        self.assertTrue(os.path.exists(ROOT + "/etc/hostname"))

    def test_readlink_stays_inside(self):
        self.assertEqual(self.root.readlink("var/log/tmp/x"), "../../../../etc")
        self.assertEqual(self.root.readlink(b"var/log/tmp/x"), b"../../../../etc")
        long = "abcdefghij/" * 30
        os.symlink(long, ROOT + "/long")
        self.assertEqual(self.root.readlink("var/log/long"), long)

    def test_reopen_stays_inside(self):
        with self.root.resolve("tmp/x/hostname") as handle:
            try:
                with execveat.reopen(handle, os.O_RDONLY) as fd:
                    self.assert_cloexec(fd)
                    self.assertEqual(self.read(fd), "root\n")
            except OSError as e:
                # No /proc, and a kernel without O_EMPTYPATH: nothing can
                # reopen a regular file by itself.
                if not (proc_hidden() and e.errno == errno.EOPNOTSUPP):
                    raise
        # A directory reopens through its own ".", /proc or not.
        with self.root.resolve("var/log/etc") as handle, \
                execveat.reopen(handle, os.O_RDONLY | os.O_DIRECTORY) as fd:
            self.assert_cloexec(fd)
            self.assert_same_file(fd, ROOT + "/etc")

    def test_openat2_stays_inside(self):
        with execveat.openat2(self.root, "var/log/etc/hostname",
                              resolve=execveat.RESOLVE_IN_ROOT) as fd:
            self.assert_cloexec(fd)
            self.assertEqual(self.read(fd), "root\n")
        with self.assertRaises(OSError) as cm:
            execveat.openat2(self.root, "tmp/x/hostname", resolve=execveat.RESOLVE_BENEATH)
        self.assertEqual((cm.exception.errno, cm.exception.filename),
                         (errno.EXDEV, "tmp/x/hostname"))


if __name__ == "__main__":
    unittest.main()
