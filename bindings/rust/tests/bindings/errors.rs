//! Errors as std's, and fds as std opens them.
use std::ffi::OsStr;
use std::fs;
use std::io::ErrorKind;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::io::{AsFd, OwnedFd};
use std::path::PathBuf;

use execveat::flags::*;
use execveat::{openat2, reopen, OpenHow, Root};

use crate::world::{assert_cloexec, NoFdLeft};

/// A directory of its own for a test, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("execveat-{}-{}", name, std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

#[test]
fn error_is_io_error_with_the_errno() {
    let _no_fd_left = NoFdLeft::new();
    let dir = TempDir::new("errors");
    let root = Root::open(&dir.0).unwrap();
    let err = root.open_subpath("var/missing", O_RDONLY).unwrap_err();
    assert_eq!((err.kind(), err.raw_os_error()), (ErrorKind::NotFound, Some(2)));
    root.mkdir("made", 0o755).unwrap();
    assert_eq!(root.mkdir("made", 0o755).unwrap_err().kind(), ErrorKind::AlreadyExists);
    assert_eq!(root.remove_file("made").unwrap_err().raw_os_error(), Some(21)); // EISDIR
    assert_eq!(root.readlink("made").unwrap_err().raw_os_error(), Some(22)); // EINVAL
    assert_eq!(root.rename("missing", "other", 0).unwrap_err().kind(), ErrorKind::NotFound);
    assert_eq!(root.hardlink("new", "missing").unwrap_err().kind(), ErrorKind::NotFound);
    let nul = OsStr::from_bytes(b"a\0b");
    assert_eq!(root.resolve(nul).unwrap_err().kind(), ErrorKind::InvalidInput);
    assert_eq!(Root::open(dir.0.join("missing")).unwrap_err().kind(), ErrorKind::NotFound);
}

#[test]
fn cloexec_whatever_the_flags() {
    let _no_fd_left = NoFdLeft::new();
    let dir = TempDir::new("cloexec");
    fs::write(dir.0.join("file"), "").unwrap();
    let root = Root::from_fd(OwnedFd::from(fs::File::open(&dir.0).unwrap()));
    let dir_fd = root.mkdir_all("a/b", 0o755).unwrap();
    let fds: Vec<OwnedFd> = vec![
        root.open_subpath("file", O_RDWR).unwrap().into(),
        root.create_file("new", O_RDWR, 0o644).unwrap().into(),
        root.resolve("file").unwrap(),
        root.resolve_nofollow("file").unwrap(),
        reopen(&dir_fd, O_DIRECTORY).unwrap().into(),
        openat2(Some(root.as_fd()), "file", &OpenHow { resolve: RESOLVE_IN_ROOT, ..Default::default() })
            .unwrap(),
    ];
    assert_cloexec(&dir_fd);
    for fd in &fds {
        assert_cloexec(fd);
    }
}
