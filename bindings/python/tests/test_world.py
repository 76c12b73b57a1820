"""The world is what bindings/in-world named it: where openat2 is to be
refused, the raw system call is; where /proc is to be hidden, it is.
Otherwise the other tests would prove less than they say."""
import ctypes
import os
import unittest

from world import proc_hidden, world

SYS_OPENAT2 = 437  # every ABI this project builds but x32


class World(unittest.TestCase):
    def test_world_is_as_named(self):
        expected = {"scratch": 0, "proc-hidden": 0, "openat2-enosys": 38,
                    "openat2-eperm": 1, "proc-hidden-openat2-enosys": 38}
        if world() not in expected:
            self.skipTest(f"not in a world of bindings/in-world (BINDINGS_WORLD={world()!r})")
        libc = ctypes.CDLL(None, use_errno=True)
        how = (ctypes.c_uint64 * 3)(os.O_CLOEXEC, 0, 0)
        libc.syscall.restype = ctypes.c_long
        fd = libc.syscall(ctypes.c_long(SYS_OPENAT2), ctypes.c_long(-100), b"/",
                          ctypes.byref(how), ctypes.c_size_t(24))
        got = 0 if fd >= 0 else ctypes.get_errno()
        if fd >= 0:
            os.close(fd)
        self.assertEqual(got, expected[world()], "openat2's errno")
        # An empty tmpfs on /proc has no self/fd.
        self.assertNotEqual(os.path.isdir("/proc/self/fd"), proc_hidden(), "/proc is there")


if __name__ == "__main__":
    unittest.main()
