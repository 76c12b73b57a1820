//! The kernel's flag values the crate's functions take (std has none
//! of them): open(2)'s, as <fcntl.h> defines them for this ABI, openat2's
//! RESOLVE_, renameat2's RENAME_, execveat's AT_, the file types of
//! mknod(2).
use std::os::raw::c_int;

pub const O_RDONLY: c_int = 0o0;
pub const O_WRONLY: c_int = 0o1;
pub const O_RDWR: c_int = 0o2;
pub const O_CREAT: c_int = 0o100;
pub const O_EXCL: c_int = 0o200;
pub const O_NOCTTY: c_int = 0o400;
pub const O_TRUNC: c_int = 0o1000;
pub const O_APPEND: c_int = 0o2000;
pub const O_NONBLOCK: c_int = 0o4000;
pub const O_CLOEXEC: c_int = 0o2000000;
pub const O_PATH: c_int = 0o10000000;
// The two whose values differ on arm, aarch64 and powerpc.
#[cfg(any(target_arch = "arm", target_arch = "aarch64", target_arch = "powerpc",
          target_arch = "powerpc64"))]
pub const O_DIRECTORY: c_int = 0o40000;
#[cfg(any(target_arch = "arm", target_arch = "aarch64", target_arch = "powerpc",
          target_arch = "powerpc64"))]
pub const O_NOFOLLOW: c_int = 0o100000;
#[cfg(not(any(target_arch = "arm", target_arch = "aarch64", target_arch = "powerpc",
              target_arch = "powerpc64")))]
pub const O_DIRECTORY: c_int = 0o200000;
#[cfg(not(any(target_arch = "arm", target_arch = "aarch64", target_arch = "powerpc",
              target_arch = "powerpc64")))]
pub const O_NOFOLLOW: c_int = 0o400000;
// MIPS, SPARC, Alpha and PA-RISC number the other flags their own way.
#[cfg(any(target_arch = "mips", target_arch = "mips64", target_arch = "sparc",
          target_arch = "sparc64"))]
compile_error!("the O_ flags of this architecture are not written down here");

pub const RESOLVE_NO_XDEV: u64 = 0x01;
pub const RESOLVE_NO_MAGICLINKS: u64 = 0x02;
pub const RESOLVE_NO_SYMLINKS: u64 = 0x04;
pub const RESOLVE_BENEATH: u64 = 0x08;
pub const RESOLVE_IN_ROOT: u64 = 0x10;
pub const RESOLVE_CACHED: u64 = 0x20;

pub const RENAME_NOREPLACE: u32 = 1 << 0;
pub const RENAME_EXCHANGE: u32 = 1 << 1;
pub const RENAME_WHITEOUT: u32 = 1 << 2;

pub const AT_SYMLINK_NOFOLLOW: c_int = 0x100;
pub const AT_EMPTY_PATH: c_int = 0x1000;
pub const AT_EXECVE_CHECK: c_int = 0x10000;

pub const S_IFIFO: u32 = 0o010000;
pub const S_IFCHR: u32 = 0o020000;
pub const S_IFBLK: u32 = 0o060000;
pub const S_IFREG: u32 = 0o100000;
