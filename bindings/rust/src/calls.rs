//! reopen of <inroot.h>; openat2, fexecve, execveat and closefrom of
//! <execveat.h>.
use std::ffi::CStr;
use std::fs::File;
use std::io;
use std::os::raw::{c_char, c_int};
use std::os::unix::io::{AsFd, AsRawFd, BorrowedFd, OwnedFd, RawFd};
use std::path::Path;
use std::ptr;

use crate::root::{c_path, owned_fd, ALWAYS};
use crate::sys::{self, OpenHow};

const AT_FDCWD: c_int = -100;

fn raw_dirfd(dirfd: Option<BorrowedFd<'_>>) -> c_int {
    dirfd.map_or(AT_FDCWD, |fd| fd.as_raw_fd())
}

/// A new file of fd's file (often an O_PATH fd of [`crate::Root::resolve`])
/// opened with flags, O_CLOEXEC added, never by a name that could now lead
/// elsewhere; EOPNOTSUPP where the kernel cannot reopen it by itself and no
/// proven /proc is there.
pub fn reopen<F: AsFd>(fd: F, flags: c_int) -> io::Result<File> {
    // SAFETY: fd is borrowed, open, for the call's length.
    let new = unsafe { sys::inroot_reopen(fd.as_fd().as_raw_fd(), flags | ALWAYS) };
    Ok(File::from(owned_fd(new)?))
}

/// openat2(2) of path relative to dirfd (None: the working directory),
/// O_CLOEXEC added to how.flags; where the system call is refused, the
/// library resolves path itself, RESOLVE_ flags kept.
pub fn openat2<P: AsRef<Path>>(dirfd: Option<BorrowedFd<'_>>, path: P, how: &OpenHow)
    -> io::Result<OwnedFd> {
    let path = c_path(path)?;
    let how = OpenHow { flags: how.flags | ALWAYS as u64, ..*how };
    // SAFETY: a NUL-terminated path and a whole struct open_how.
    owned_fd(unsafe {
        sys::openat2(raw_dirfd(dirfd), path.as_ptr(), &how, std::mem::size_of::<OpenHow>())
    })
}

/// strs as a NULL-terminated array of pointers into them.
fn pointers(strs: &[&CStr]) -> Vec<*const c_char> {
    strs.iter().map(|s| s.as_ptr()).chain(Some(ptr::null())).collect()
}

/// Runs the program open at fd, replacing the process, without needing
/// /proc. Returns only its error.
pub fn fexecve(fd: BorrowedFd<'_>, argv: &[&CStr], envp: &[&CStr]) -> io::Error {
    let (argv, envp) = (pointers(argv), pointers(envp));
    // SAFETY: NULL-terminated arrays of NUL-terminated strings.
    unsafe { sys::fexecve(fd.as_raw_fd(), argv.as_ptr(), envp.as_ptr()) };
    io::Error::last_os_error()
}

/// execveat(2) of path relative to dirfd (None: the working directory)
/// with AT_EMPTY_PATH, AT_SYMLINK_NOFOLLOW or AT_EXECVE_CHECK. Returns
/// Ok only with AT_EXECVE_CHECK, where the program could run.
pub fn execveat<P: AsRef<Path>>(
    dirfd: Option<BorrowedFd<'_>>,
    path: P,
    argv: &[&CStr],
    envp: &[&CStr],
    flags: c_int,
) -> io::Result<()> {
    let path = c_path(path)?;
    let (argv, envp) = (pointers(argv), pointers(envp));
    // SAFETY: as fexecve's, and a NUL-terminated path.
    let ret = unsafe {
        sys::execveat(raw_dirfd(dirfd), path.as_ptr(), argv.as_ptr(), envp.as_ptr(), flags)
    };
    if ret == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Closes every fd from lowfd up, without needing /proc.
///
/// # Safety
///
/// The caller must own every fd from lowfd up: an `OwnedFd` or `File`
/// elsewhere in the process that holds one would close a number that
/// another open may reuse.
pub unsafe fn closefrom(lowfd: RawFd) {
    // SAFETY: the caller's promise.
    unsafe { sys::closefrom(lowfd) }
}
