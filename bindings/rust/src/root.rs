//! Root: the operations of <inroot.h> on a directory fd.
use std::ffi::{CString, OsString};
use std::fs::File;
use std::io;
use std::os::raw::{c_char, c_int};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::io::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};

use crate::flags::{O_CLOEXEC, O_DIRECTORY, O_NOCTTY, O_PATH};
use crate::sys;

/// The flags every fd the crate opens gets, whatever the caller asks:
/// close-on-exec, as std opens files, and never a controlling terminal.
pub(crate) const ALWAYS: c_int = O_CLOEXEC | O_NOCTTY;

/// path as the C library takes it; a NUL in it is InvalidInput, as std
/// answers it.
pub(crate) fn c_path<P: AsRef<Path>>(path: P) -> io::Result<CString> {
    CString::new(path.as_ref().as_os_str().as_bytes()).map_err(|_| {
        io::Error::new(io::ErrorKind::InvalidInput, "path contains a NUL byte")
    })
}

/// The fd a C call returned, or its errno.
pub(crate) fn owned_fd(fd: c_int) -> io::Result<OwnedFd> {
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the C library just opened fd for us; nothing else owns it.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// A directory beneath which every path is resolved as a chroot to it
/// would resolve it: ".." stops at the root, an absolute symlink starts
/// again there. It owns an fd of the directory (O_PATH where opened by
/// [`Root::open`]).
#[derive(Debug)]
pub struct Root {
    fd: OwnedFd,
}

impl Root {
    /// Opens the directory path as a root.
    pub fn open<P: AsRef<Path>>(path: P) -> io::Result<Root> {
        let path = c_path(path)?;
        // SAFETY: a NUL-terminated path; open's mode is not read
        // without O_CREAT.
        let fd = unsafe { sys::open(path.as_ptr(), O_PATH | O_DIRECTORY | O_CLOEXEC) };
        Ok(Root { fd: owned_fd(fd)? })
    }

    /// A root on an open directory, which the root then owns.
    pub fn from_fd(fd: OwnedFd) -> Root {
        Root { fd }
    }

    fn call<P: AsRef<Path>>(
        &self,
        path: P,
        f: impl FnOnce(c_int, *const c_char) -> c_int,
    ) -> io::Result<c_int> {
        let path = c_path(path)?;
        let ret = f(self.fd.as_raw_fd(), path.as_ptr());
        if ret < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(ret)
    }

    fn two_names<P: AsRef<Path>, Q: AsRef<Path>>(
        &self,
        first: P,
        second: Q,
        f: impl FnOnce(c_int, *const c_char, *const c_char) -> c_int,
    ) -> io::Result<()> {
        let second = c_path(second)?;
        self.call(first, |root, first| f(root, first, second.as_ptr()))
            .map(drop)
    }

    /// An O_PATH fd of path, its last symlink followed (inroot_resolve).
    pub fn resolve<P: AsRef<Path>>(&self, path: P) -> io::Result<OwnedFd> {
        // SAFETY (each call below): the root's fd is open for the call's
        // length, the paths are NUL-terminated and live as long.
        owned_fd(self.call(path, |r, p| unsafe { sys::inroot_resolve(r, p) })?)
    }

    /// An O_PATH fd of path itself, a symlink not followed.
    pub fn resolve_nofollow<P: AsRef<Path>>(&self, path: P) -> io::Result<OwnedFd> {
        owned_fd(self.call(path, |r, p| unsafe { sys::inroot_resolve_nofollow(r, p) })?)
    }

    /// open(2) of path with flags ([`crate::flags`]; O_CREAT needs
    /// [`Root::create_file`]), O_CLOEXEC added.
    pub fn open_subpath<P: AsRef<Path>>(&self, path: P, flags: c_int) -> io::Result<File> {
        let fd = self.call(path, |r, p| unsafe { sys::inroot_open(r, p, flags | ALWAYS) })?;
        Ok(File::from(owned_fd(fd)?))
    }

    /// open(2) of path with O_CREAT and flags, made with mode if new,
    /// O_CLOEXEC added.
    pub fn create_file<P: AsRef<Path>>(&self, path: P, flags: c_int, mode: u32) -> io::Result<File> {
        let fd =
            self.call(path, |r, p| unsafe { sys::inroot_creat(r, p, flags | ALWAYS, mode) })?;
        Ok(File::from(owned_fd(fd)?))
    }

    /// mkdirat(2) of path.
    pub fn mkdir<P: AsRef<Path>>(&self, path: P, mode: u32) -> io::Result<()> {
        self.call(path, |r, p| unsafe { sys::inroot_mkdir(r, p, mode) }).map(drop)
    }

    /// Every missing directory of path; an O_PATH fd of the last.
    pub fn mkdir_all<P: AsRef<Path>>(&self, path: P, mode: u32) -> io::Result<OwnedFd> {
        owned_fd(self.call(path, |r, p| unsafe { sys::inroot_mkdir_all(r, p, mode) })?)
    }

    /// mknodat(2): mode holds the file type ([`crate::flags::S_IFIFO`]...)
    /// and the permissions, dev the device number.
    pub fn mknod<P: AsRef<Path>>(&self, path: P, mode: u32, dev: u64) -> io::Result<()> {
        self.call(path, |r, p| unsafe { sys::inroot_mknod(r, p, mode, dev) }).map(drop)
    }

    /// Makes path a symlink whose text is target, stored as it is.
    pub fn symlink<P: AsRef<Path>, T: AsRef<Path>>(&self, path: P, target: T) -> io::Result<()> {
        self.two_names(path, target, |r, p, t| unsafe { sys::inroot_symlink(r, p, t) })
    }

    /// Makes path a hard link of target, both beneath the root.
    pub fn hardlink<P: AsRef<Path>, T: AsRef<Path>>(&self, path: P, target: T) -> io::Result<()> {
        self.two_names(path, target, |r, p, t| unsafe { sys::inroot_hardlink(r, p, t) })
    }

    /// renameat2(2) of src to dst with RENAME_NOREPLACE, RENAME_EXCHANGE
    /// or RENAME_WHITEOUT.
    pub fn rename<P: AsRef<Path>, Q: AsRef<Path>>(&self, src: P, dst: Q, flags: u32) -> io::Result<()> {
        self.two_names(src, dst, |r, s, d| unsafe { sys::inroot_rename(r, s, d, flags) })
    }

    /// Removes a name that is not a directory (inroot_unlink).
    pub fn remove_file<P: AsRef<Path>>(&self, path: P) -> io::Result<()> {
        self.call(path, |r, p| unsafe { sys::inroot_unlink(r, p) }).map(drop)
    }

    /// Removes an empty directory (inroot_rmdir).
    pub fn remove_dir<P: AsRef<Path>>(&self, path: P) -> io::Result<()> {
        self.call(path, |r, p| unsafe { sys::inroot_rmdir(r, p) }).map(drop)
    }

    /// path and everything beneath it, a symlink removed and never
    /// followed; Ok where path does not exist.
    pub fn remove_all<P: AsRef<Path>>(&self, path: P) -> io::Result<()> {
        self.call(path, |r, p| unsafe { sys::inroot_remove_all(r, p) }).map(drop)
    }

    /// The text of the symlink path, not followed.
    pub fn readlink<P: AsRef<Path>>(&self, path: P) -> io::Result<PathBuf> {
        let path = c_path(path)?;
        let mut buf = vec![0u8; 256];
        loop {
            // SAFETY: buf has buf.len() writable bytes.
            let len = unsafe {
                sys::inroot_readlink(self.fd.as_raw_fd(), path.as_ptr(),
                                     buf.as_mut_ptr().cast(), buf.len())
            };
            if len < 0 {
                return Err(io::Error::last_os_error());
            }
            let len = len as usize;
            if len <= buf.len() {
                buf.truncate(len);
                return Ok(PathBuf::from(OsString::from_vec(buf)));
            }
            // The whole length is returned: asked again with room for it.
            buf.resize(len, 0);
        }
    }
}

impl AsFd for Root {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.fd.as_fd()
    }
}

impl AsRawFd for Root {
    fn as_raw_fd(&self) -> RawFd {
        self.fd.as_raw_fd()
    }
}

impl From<OwnedFd> for Root {
    fn from(fd: OwnedFd) -> Root {
        Root { fd }
    }
}

impl From<Root> for OwnedFd {
    fn from(root: Root) -> OwnedFd {
        root.fd
    }
}
