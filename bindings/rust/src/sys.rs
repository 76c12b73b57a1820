//! The C library's functions (<inroot.h>, <execveat.h>) and the few of
//! the C library's own that the crate needs.
use std::os::raw::{c_char, c_int, c_uint};

/// The kernel's struct open_how (<linux/openat2.h>).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpenHow {
    pub flags: u64,
    pub mode: u64,
    pub resolve: u64,
}

// mode_t and dev_t as glibc and musl define them on Linux.
pub type ModeT = u32;
pub type DevT = u64;

#[link(name = "execveat")]
extern "C" {
    pub fn inroot_resolve(root: c_int, path: *const c_char) -> c_int;
    pub fn inroot_resolve_nofollow(root: c_int, path: *const c_char) -> c_int;
    pub fn inroot_open(root: c_int, path: *const c_char, flags: c_int) -> c_int;
    pub fn inroot_creat(root: c_int, path: *const c_char, flags: c_int, mode: ModeT) -> c_int;
    pub fn inroot_mkdir(root: c_int, path: *const c_char, mode: ModeT) -> c_int;
    pub fn inroot_mkdir_all(root: c_int, path: *const c_char, mode: ModeT) -> c_int;
    pub fn inroot_mknod(root: c_int, path: *const c_char, mode: ModeT, dev: DevT) -> c_int;
    pub fn inroot_symlink(root: c_int, path: *const c_char, target: *const c_char) -> c_int;
    pub fn inroot_hardlink(root: c_int, path: *const c_char, target: *const c_char) -> c_int;
    pub fn inroot_rename(root: c_int, src: *const c_char, dst: *const c_char, flags: c_uint)
        -> c_int;
    pub fn inroot_unlink(root: c_int, path: *const c_char) -> c_int;
    pub fn inroot_rmdir(root: c_int, path: *const c_char) -> c_int;
    pub fn inroot_remove_all(root: c_int, path: *const c_char) -> c_int;
    pub fn inroot_readlink(root: c_int, path: *const c_char, buf: *mut c_char, size: usize)
        -> isize;
    pub fn inroot_reopen(fd: c_int, flags: c_int) -> c_int;
    pub fn openat2(dirfd: c_int, path: *const c_char, how: *const OpenHow, size: usize) -> c_int;
    pub fn fexecve(fd: c_int, argv: *const *const c_char, envp: *const *const c_char) -> c_int;
    pub fn execveat(
        dirfd: c_int,
        path: *const c_char,
        argv: *const *const c_char,
        envp: *const *const c_char,
        flags: c_int,
    ) -> c_int;
    pub fn closefrom(lowfd: c_int);
}

extern "C" {
    pub fn open(path: *const c_char, flags: c_int, ...) -> c_int;
}
