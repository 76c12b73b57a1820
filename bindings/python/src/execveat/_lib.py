"""The C library's functions, declared for ctypes."""
import ctypes
import os

try:
    from . import _library
    _PATH = _library.PATH
except ImportError:  # run from the source tree, not built
    _PATH = "libexecveat.so.1"

lib = ctypes.CDLL(_PATH, use_errno=True)

_int, _str, _uint = ctypes.c_int, ctypes.c_char_p, ctypes.c_uint
_mode, _dev = ctypes.c_uint32, ctypes.c_uint64
_strv = ctypes.POINTER(ctypes.c_char_p)


class OpenHow(ctypes.Structure):
    """The kernel's struct open_how."""
    _fields_ = [("flags", ctypes.c_uint64), ("mode", ctypes.c_uint64),
                ("resolve", ctypes.c_uint64)]


def _declare(name, restype, *argtypes):
    function = getattr(lib, name)
    function.restype, function.argtypes = restype, list(argtypes)
    return function


inroot_resolve = _declare("inroot_resolve", _int, _int, _str)
inroot_resolve_nofollow = _declare("inroot_resolve_nofollow", _int, _int, _str)
inroot_open = _declare("inroot_open", _int, _int, _str, _int)
inroot_creat = _declare("inroot_creat", _int, _int, _str, _int, _mode)
inroot_mkdir = _declare("inroot_mkdir", _int, _int, _str, _mode)
inroot_mkdir_all = _declare("inroot_mkdir_all", _int, _int, _str, _mode)
inroot_mknod = _declare("inroot_mknod", _int, _int, _str, _mode, _dev)
inroot_symlink = _declare("inroot_symlink", _int, _int, _str, _str)
inroot_hardlink = _declare("inroot_hardlink", _int, _int, _str, _str)
inroot_rename = _declare("inroot_rename", _int, _int, _str, _str, _uint)
inroot_unlink = _declare("inroot_unlink", _int, _int, _str)
inroot_rmdir = _declare("inroot_rmdir", _int, _int, _str)
inroot_remove_all = _declare("inroot_remove_all", _int, _int, _str)
inroot_readlink = _declare("inroot_readlink", ctypes.c_ssize_t, _int, _str,
                           ctypes.c_char_p, ctypes.c_size_t)
inroot_reopen = _declare("inroot_reopen", _int, _int, _int)
openat2 = _declare("openat2", _int, _int, _str, ctypes.POINTER(OpenHow),
                   ctypes.c_size_t)
fexecve = _declare("fexecve", _int, _int, _strv, _strv)
execveat = _declare("execveat", _int, _int, _str, _strv, _strv, _int)
closefrom = _declare("closefrom", None, _int)


def error(filename=None, filename2=None):
    """The OSError of the call that just failed, as os's functions raise
    it: its errno, its text, and the names it was given."""
    errno = ctypes.get_errno()
    return OSError(errno, os.strerror(errno), filename, None, filename2)
