"""The build step that finds the C library: pkg-config's execveat, whose
directory (a build tree's, or an installed one outside the loader's
default paths) is written into the package as execveat/_library.py, so
that the package loads the library it was built for."""
import os
import shlex
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py

# The soname whose functions src/execveat/_lib.py declares.
SONAME = "libexecveat.so.1"
# 2.0 added <inroot.h>.
MIN_VERSION = "2.0"


def pkg_config(*args):
    pkg_config = os.environ.get("PKG_CONFIG", "pkg-config")
    try:
        return subprocess.run([pkg_config, *args, "execveat"], check=True,
                              capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        raise SystemExit(f"pkg-config {' '.join(args)} execveat: {e}; "
                         "set PKG_CONFIG_PATH to libexecveat's .pc file")


def library_path():
    """The library's file where pkg-config names its directory, else its
    soname, which the dynamic loader finds in its default paths."""
    pkg_config(f"--atleast-version={MIN_VERSION}")
    for flag in shlex.split(pkg_config("--libs-only-L")):
        path = os.path.join(flag[2:], SONAME)
        if os.path.exists(path):
            return path
    return SONAME


class BuildPyWithLibrary(build_py):
    def run(self):
        super().run()
        target = os.path.join(self.build_lib, "execveat", "_library.py")
        with open(target, "w") as f:
            f.write('"""Written at build time from pkg-config (setup.py)."""\n')
            f.write(f"PATH = {library_path()!r}\n")


setup(cmdclass={"build_py": BuildPyWithLibrary})
