"""libexecveat for Python: the file operations beneath a root of
<inroot.h>, which resolve every path as a chroot to the root would and
never leave it, with openat2 or, where the system call is refused,
without it and without /proc; and openat2, fexecve, execveat and
closefrom of <execveat.h>.

Every fd it returns is close-on-exec (non-inheritable, as os.open's) and
an Fd: an int, which os's functions take, that closes on leaving a with
block. Every failure raises OSError (FileNotFoundError and the other
subclasses) with the errno the C library set and the names it was given,
as os's functions raise it.
"""
import ctypes
import os

from . import _lib

__all__ = ["Fd", "Root", "reopen", "openat2", "fexecve", "execveat",
           "closefrom", "RESOLVE_NO_XDEV", "RESOLVE_NO_MAGICLINKS",
           "RESOLVE_NO_SYMLINKS", "RESOLVE_BENEATH", "RESOLVE_IN_ROOT",
           "RESOLVE_CACHED", "RENAME_NOREPLACE", "RENAME_EXCHANGE",
           "RENAME_WHITEOUT"]

# <linux/openat2.h>
RESOLVE_NO_XDEV = 0x01
RESOLVE_NO_MAGICLINKS = 0x02
RESOLVE_NO_SYMLINKS = 0x04
RESOLVE_BENEATH = 0x08
RESOLVE_IN_ROOT = 0x10
RESOLVE_CACHED = 0x20
# renameat2's flags, <linux/fs.h>
RENAME_NOREPLACE = 1 << 0
RENAME_EXCHANGE = 1 << 1
RENAME_WHITEOUT = 1 << 2

_AT_FDCWD = -100
# Added to every open's flags, whatever the caller asks: close-on-exec
# (PEP 446: os.open's fds are not inherited), never a controlling tty.
_ALWAYS = os.O_CLOEXEC | os.O_NOCTTY


class Fd(int):
    """An fd this package opened. An int, for os.read, os.fstat,
    os.fdopen and the rest; close() (or leaving a with block) closes it,
    once."""

    def __new__(cls, fd):
        self = super().__new__(cls, fd)
        self.closed = False
        return self

    def fileno(self):
        return int(self)

    def close(self):
        if not self.closed:
            self.closed = True
            os.close(self)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return f"Fd({int(self)}{', closed' if self.closed else ''})"


def _fd_of(obj):
    """The fd of an int or of an object with fileno() (a Root, a file)."""
    return obj if isinstance(obj, int) else obj.fileno()


def _encoded(path):
    """path as the C library takes it. ctypes would cut it at a NUL and
    act on the name before it: refused as os refuses it."""
    path = os.fsencode(path)
    if b"\0" in path:
        raise ValueError("embedded null byte")
    return path


def _new_fd(fd, filename):
    if fd < 0:
        raise _lib.error(filename)
    return Fd(fd)


class Root:
    """A directory beneath which every path is resolved as a chroot to
    it would resolve it. Root(path) opens the directory (O_PATH); Root(fd)
    takes a duplicate of an open directory's fd (an int or an object with
    fileno()). A context manager that closes the root."""

    def __init__(self, directory):
        if isinstance(directory, int) or hasattr(directory, "fileno"):
            import fcntl
            self._fd = fcntl.fcntl(_fd_of(directory), fcntl.F_DUPFD_CLOEXEC, 0)
        else:
            self._fd = os.open(directory, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)

    def fileno(self):
        if self._fd < 0:
            raise ValueError("the root is closed")
        return self._fd

    def close(self):
        if self._fd >= 0:
            fd, self._fd = self._fd, -1
            os.close(fd)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _call(self, function, path, *args):
        ret = function(self.fileno(), _encoded(path), *args)
        if ret < 0:
            raise _lib.error(path)
        return ret

    def _fd_call(self, function, path, *args):
        return Fd(self._call(function, path, *args))

    def resolve(self, path):
        """An O_PATH Fd of path, its last symlink followed."""
        return self._fd_call(_lib.inroot_resolve, path)

    def resolve_nofollow(self, path):
        """An O_PATH Fd of path itself, a symlink not followed."""
        return self._fd_call(_lib.inroot_resolve_nofollow, path)

    def open(self, path, flags=os.O_RDONLY):
        """open(2) of path with flags (O_CREAT needs create)."""
        return self._fd_call(_lib.inroot_open, path, flags | _ALWAYS)

    def create(self, path, flags=os.O_RDWR, mode=0o666):
        """open(2) of path with O_CREAT and flags, made with mode."""
        return self._fd_call(_lib.inroot_creat, path, flags | _ALWAYS, mode)

    def mkdir(self, path, mode=0o777):
        self._call(_lib.inroot_mkdir, path, mode)

    def mkdir_all(self, path, mode=0o777):
        """Every missing directory of path; an O_PATH Fd of the last."""
        return self._fd_call(_lib.inroot_mkdir_all, path, mode)

    def mknod(self, path, mode=0o600, device=0):
        """mknodat(2): mode holds the type (stat.S_IFIFO, S_IFCHR...)."""
        self._call(_lib.inroot_mknod, path, mode, device)

    def _two_names(self, function, first, second, *args, names):
        ret = function(self.fileno(), _encoded(first), _encoded(second), *args)
        if ret < 0:
            raise _lib.error(*names)

    def symlink(self, path, target):
        """Makes path a symlink whose text is target (raising as
        os.symlink(target, path) raises)."""
        self._two_names(_lib.inroot_symlink, path, target, names=(target, path))

    def hardlink(self, path, target):
        """Makes path a hard link of target, both beneath the root
        (raising as os.link(target, path) raises)."""
        self._two_names(_lib.inroot_hardlink, path, target, names=(target, path))

    def rename(self, src, dst, flags=0):
        """renameat2(2) with RENAME_NOREPLACE, RENAME_EXCHANGE or
        RENAME_WHITEOUT."""
        self._two_names(_lib.inroot_rename, src, dst, flags, names=(src, dst))

    def unlink(self, path):
        self._call(_lib.inroot_unlink, path)

    def rmdir(self, path):
        self._call(_lib.inroot_rmdir, path)

    def remove_all(self, path):
        """path and everything beneath it; a symlink is removed, never
        followed; nothing to do where path does not exist."""
        self._call(_lib.inroot_remove_all, path)

    def readlink(self, path):
        """The text of the symlink path: str for a str path, bytes for
        bytes, as os.readlink answers."""
        size = 256
        while True:
            buf = ctypes.create_string_buffer(size)
            length = self._call(_lib.inroot_readlink, path, buf, size)
            if length <= size:
                text = buf.raw[:length]
                return text if isinstance(path, bytes) else os.fsdecode(text)
            size = length  # longer than the buffer: asked again


def reopen(fd, flags):
    """A new Fd of fd's file (often an O_PATH fd of resolve) opened with
    flags, never by a name that could lead elsewhere; EOPNOTSUPP where
    the kernel cannot and no proven /proc is there."""
    return _new_fd(_lib.inroot_reopen(_fd_of(fd), flags | _ALWAYS), None)


def openat2(dirfd, path, flags=0, mode=0, resolve=0):
    """openat2(2) relative to dirfd (None: the working directory); where
    the system call is refused, the library resolves path itself."""
    how = _lib.OpenHow(flags | _ALWAYS, mode, resolve)
    dirfd = _AT_FDCWD if dirfd is None else _fd_of(dirfd)
    fd = _lib.openat2(dirfd, _encoded(path), ctypes.byref(how), ctypes.sizeof(how))
    return _new_fd(fd, path)


def _strv(strings):
    array = (ctypes.c_char_p * (len(strings) + 1))()
    array[:len(strings)] = [_encoded(s) for s in strings]
    return array


def _envp(env):
    if env is None:
        env = os.environ
    return _strv([os.fsencode(k) + b"=" + os.fsencode(v) for k, v in env.items()])


def fexecve(fd, argv, env=None):
    """Runs the program open at fd, replacing the process, without
    needing /proc. Raises OSError; never returns."""
    _lib.fexecve(_fd_of(fd), _strv(argv), _envp(env))
    raise _lib.error(getattr(fd, "name", None))


def execveat(dirfd, path, argv, env=None, flags=0):
    """execveat(2) of path relative to dirfd (None: the working
    directory). Returns only with AT_EXECVE_CHECK, where the program
    could run; raises OSError otherwise."""
    dirfd = _AT_FDCWD if dirfd is None else _fd_of(dirfd)
    if _lib.execveat(dirfd, _encoded(path), _strv(argv), _envp(env), flags) != 0:
        raise _lib.error(path)


def closefrom(lowfd):
    """Closes every fd from lowfd up, without needing /proc."""
    _lib.closefrom(lowfd)
