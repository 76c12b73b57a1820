//! The world the tests run in. The tests of operations on a hostile root
//! (hostile.rs) need a scratch host: a private mount namespace whose "/"
//! is a tmpfs made for the run, as bindings/in-world makes it, so that an
//! escape through the root's links lands there, where the snapshot of
//! everything outside the root sees it, and harms nothing.
use std::fs;
use std::os::raw::c_int;
use std::os::unix::fs::{symlink, MetadataExt};
use std::os::unix::io::{AsRawFd, RawFd};
use std::path::Path;
use std::sync::{Mutex, MutexGuard};

use execveat::Root;

pub const SCRATCH_HOST_MARK: &str = "/.libexecveat-scratch-host";
pub const ROOT: &str = "/srv/root";
/// fd numbers are probed with fcntl, not listed from /proc/self/fd,
/// which some worlds hide.
const PROBED_FDS: RawFd = 1024;
const F_GETFD: c_int = 1;
const FD_CLOEXEC: c_int = 1;

extern "C" {
    fn fcntl(fd: c_int, cmd: c_int, ...) -> c_int;
}

/// scratch, openat2-enosys, openat2-eperm, proc-hidden or
/// proc-hidden-openat2-enosys: the world bindings/in-world made.
pub fn world() -> String {
    std::env::var("BINDINGS_WORLD").unwrap_or_default()
}

pub fn proc_hidden() -> bool {
    world().starts_with("proc-hidden")
}

pub fn is_open(fd: RawFd) -> bool {
    // SAFETY: F_GETFD reads nothing but the fd's flags.
    unsafe { fcntl(fd, F_GETFD) >= 0 }
}

pub fn assert_cloexec<F: AsRawFd>(fd: &F) {
    // SAFETY: as is_open's.
    let flags = unsafe { fcntl(fd.as_raw_fd(), F_GETFD) };
    assert!(flags >= 0 && flags & FD_CLOEXEC != 0, "fd {} not close-on-exec", fd.as_raw_fd());
}

pub fn assert_same_file<F: AsRawFd>(fd: &F, path: &str) {
    let file = fs::File::from(std::os::unix::io::OwnedFd::from(
        // A duplicate, so that the caller's fd stays the caller's.
        dup(fd.as_raw_fd()),
    ));
    let a = file.metadata().unwrap();
    let b = fs::symlink_metadata(path).unwrap();
    assert_eq!((a.dev(), a.ino()), (b.dev(), b.ino()), "the fd is not {}", path);
}

fn dup(fd: RawFd) -> std::os::unix::io::OwnedFd {
    const F_DUPFD_CLOEXEC: c_int = 1030;
    // SAFETY: a new fd, owned by what this returns.
    unsafe {
        let new = fcntl(fd, F_DUPFD_CLOEXEC, 0);
        assert!(new >= 0);
        std::os::unix::io::FromRawFd::from_raw_fd(new)
    }
}

fn open_fds() -> Vec<RawFd> {
    (0..PROBED_FDS).filter(|&fd| is_open(fd)).collect()
}

/// The tests run one at a time: the fd table and the scratch host are
/// the whole process's and the whole world's.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Held for a test's length: at its end (drop), every fd opened
/// meanwhile must be closed.
pub struct NoFdLeft {
    before: Vec<RawFd>,
    _turn: MutexGuard<'static, ()>,
}

impl NoFdLeft {
    pub fn new() -> NoFdLeft {
        let turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        NoFdLeft { before: open_fds(), _turn: turn }
    }
}

impl Drop for NoFdLeft {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            assert_eq!(open_fds(), self.before, "fds left open");
        }
    }
}

/// Every name on the scratch host's own file system outside the root,
/// with its type, mode, size, link text and times.
fn host_snapshot() -> Vec<String> {
    fn walk(dir: &Path, dev: u64, names: &mut Vec<String>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let st = fs::symlink_metadata(&path).unwrap();
            if path == Path::new(ROOT) || st.dev() != dev {
                continue;
            }
            let link = fs::read_link(&path).map(|l| l.display().to_string()).unwrap_or_default();
            names.push(format!(
                "{} mode={:o} size={} link={:?} mtime={}.{} ctime={}.{}",
                path.display(), st.mode(), st.size(), link,
                st.mtime(), st.mtime_nsec(), st.ctime(), st.ctime_nsec()
            ));
            if st.is_dir() {
                walk(&path, dev, names);
            }
        }
    }
    let mut names = Vec::new();
    walk(Path::new("/"), fs::metadata("/").unwrap().dev(), &mut names);
    names.sort();
    names
}

fn write_file(path: &str, text: &str) {
    fs::create_dir_all(Path::new(path).parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

/// The root of tools/demo's inroot scene at /srv/root on the scratch
/// host, with the host's markers where its links lead when followed from
/// outside it (var/log -> /, tmp/x -> ../../../../etc,
/// usr/share/doc/link -> /home), open as .root. When it is dropped, at
/// the test's end, the host outside the root must be as it was, and no
/// fd left open.
pub struct HostileRoot {
    pub root: Root,
    before: Vec<String>,
    _no_fd_left: NoFdLeft,
}

impl HostileRoot {
    pub fn new() -> HostileRoot {
        assert!(
            Path::new(SCRATCH_HOST_MARK).exists(),
            "needs a scratch host (bindings/in-world): an escape would reach this machine's /"
        );
        let no_fd_left = NoFdLeft::new();
        write_file("/etc/hostname", "host\n");
        write_file("/home/user/file", "host\n");
        let _ = fs::remove_dir_all(ROOT);
        write_file(&format!("{}/etc/hostname", ROOT), "root\n");
        write_file(&format!("{}/home/user/file", ROOT), "root\n");
        write_file(&format!("{}/usr/lib/os-release", ROOT), "ID=root\n");
        for dir in ["var", "tmp", "usr/share/doc", "emptydir"] {
            fs::create_dir_all(format!("{}/{}", ROOT, dir)).unwrap();
        }
        symlink("/", format!("{}/var/log", ROOT)).unwrap();
        symlink("../../../../etc", format!("{}/tmp/x", ROOT)).unwrap();
        symlink("/home", format!("{}/usr/share/doc/link", ROOT)).unwrap();
        symlink("/usr/lib/os-release", format!("{}/etc/os-release", ROOT)).unwrap();
        let before = host_snapshot();
        HostileRoot { root: Root::open(ROOT).unwrap(), before, _no_fd_left: no_fd_left }
    }
}

impl Drop for HostileRoot {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            assert_eq!(host_snapshot(), self.before, "ESCAPED: the host outside the root changed");
        }
    }
}

/// The world is what bindings/in-world named it: where openat2 is to be
/// refused, the raw system call is; where /proc is to be hidden, it is.
#[test]
#[ignore = "run by bindings/check in the worlds of bindings/in-world"]
fn world_is_as_named() {
    extern "C" {
        fn syscall(number: std::os::raw::c_long, ...) -> std::os::raw::c_long;
    }
    let expected = match world().as_str() {
        "scratch" | "proc-hidden" => None,
        "openat2-enosys" | "proc-hidden-openat2-enosys" => Some(38),
        "openat2-eperm" => Some(1),
        other => panic!("not in a world of bindings/in-world (BINDINGS_WORLD={:?})", other),
    };
    let how = execveat::OpenHow { flags: execveat::flags::O_CLOEXEC as u64, ..Default::default() };
    // SAFETY: openat2(AT_FDCWD, "/", &how, 24), its fd closed below.
    let fd = unsafe { syscall(437, -100 as std::os::raw::c_long, b"/\0".as_ptr(), &how, 24usize) };
    let errno = if fd < 0 { std::io::Error::last_os_error().raw_os_error() } else { None };
    if fd >= 0 {
        // SAFETY: fd is ours, closed once.
        drop(unsafe { <std::os::unix::io::OwnedFd as std::os::unix::io::FromRawFd>::from_raw_fd(fd as RawFd) });
    }
    assert_eq!(errno, expected, "openat2's errno");
    // An empty tmpfs on /proc has no self/fd.
    assert_ne!(Path::new("/proc/self/fd").is_dir(), proc_hidden(), "/proc is there");
}
