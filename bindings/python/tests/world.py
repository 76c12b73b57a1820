"""The world the tests run in. The tests of operations on a hostile root
(test_hostile) need a scratch host: a private mount namespace whose "/"
is a tmpfs made for the run, as bindings/in-world makes it, so that an
escape through the root's links lands there, where the snapshot of
everything outside the root sees it, and harms nothing."""
import fcntl
import os
import shutil
import stat
import unittest

SCRATCH_HOST_MARK = "/.libexecveat-scratch-host"
ROOT = "/srv/root"
# fd numbers are probed with fcntl, not listed from /proc/self/fd, which
# some worlds hide.
PROBED_FDS = 1024


def world():
    """scratch, openat2-enosys, openat2-eperm, proc-hidden or
    proc-hidden-openat2-enosys: the world bindings/in-world made."""
    return os.environ.get("BINDINGS_WORLD", "")


def proc_hidden():
    return world().startswith("proc-hidden")


def open_fds():
    fds = []
    for fd in range(PROBED_FDS):
        try:
            fcntl.fcntl(fd, fcntl.F_GETFD)
            fds.append(fd)
        except OSError:
            pass
    return fds


def host_snapshot():
    """Every name on the scratch host's own file system outside the root,
    with its type, mode, size, link text and times."""
    root_dev = os.stat("/").st_dev
    names = []
    for top, dirs, files in os.walk("/"):
        for name in sorted(dirs + files):
            path = os.path.join(top, name)
            st = os.lstat(path)
            if path == ROOT or st.st_dev != root_dev:
                if name in dirs:
                    dirs.remove(name)
                continue
            link = os.readlink(path) if stat.S_ISLNK(st.st_mode) else ""
            names.append(f"{path} mode={st.st_mode:o} size={st.st_size} "
                         f"link={link!r} mtime={st.st_mtime_ns} ctime={st.st_ctime_ns}")
    return sorted(names)


def write_file(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


class NoFdLeftTest(unittest.TestCase):
    """A test at whose end every fd opened meanwhile is closed."""

    def setUp(self):
        before = open_fds()
        self.addCleanup(lambda: self.assertEqual(open_fds(), before, "fds left open"))

    def assert_cloexec(self, fd):
        self.assertTrue(fcntl.fcntl(fd, fcntl.F_GETFD) & fcntl.FD_CLOEXEC,
                        f"fd {fd} is not close-on-exec")

    def assert_same_file(self, fd, path):
        a, b = os.fstat(fd), os.lstat(path)
        self.assertEqual((a.st_dev, a.st_ino), (b.st_dev, b.st_ino),
                         f"the fd is not {path}")


class HostileRootTest(NoFdLeftTest):
    """The root of tools/demo's inroot scene at /srv/root on the scratch
    host, with the host's markers where its links lead when followed from
    outside it (var/log -> /, tmp/x -> ../../../../etc,
    usr/share/doc/link -> /home), open as self.root. At each test's end,
    the host outside the root must be as it was."""

    def setUp(self):
        if not os.path.exists(SCRATCH_HOST_MARK):
            self.skipTest("needs a scratch host (bindings/in-world): "
                          "an escape would reach this machine's /")
        import execveat
        write_file("/etc/hostname", "host\n")
        write_file("/home/user/file", "host\n")
        shutil.rmtree(ROOT, ignore_errors=True)
        write_file(ROOT + "/etc/hostname", "root\n")
        write_file(ROOT + "/home/user/file", "root\n")
        write_file(ROOT + "/usr/lib/os-release", "ID=root\n")
        for d in ("var", "tmp", "usr/share/doc", "emptydir"):
            os.makedirs(f"{ROOT}/{d}", exist_ok=True)
        os.symlink("/", ROOT + "/var/log")
        os.symlink("../../../../etc", ROOT + "/tmp/x")
        os.symlink("/home", ROOT + "/usr/share/doc/link")
        os.symlink("/usr/lib/os-release", ROOT + "/etc/os-release")
        before = host_snapshot()
        self.addCleanup(lambda: self.assertEqual(
            host_snapshot(), before, "ESCAPED: the host outside the root changed"))
        super().setUp()
        self.root = execveat.Root(ROOT)
        self.addCleanup(self.root.close)

    def read(self, fd):
        return os.pread(fd, 4096, 0).decode()
