//! Every operation on the hostile root, through the links that lead out
//! of it: each must act inside the root, the host outside unchanged
//! (HostileRoot checks that when it is dropped). Ignored by a plain
//! cargo test: bindings/check runs them, with --include-ignored, in the
//! scratch hosts of bindings/in-world.
use std::fs;
use std::io::{ErrorKind, Read};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};

use execveat::flags::*;
use execveat::{openat2, reopen, OpenHow};

use crate::world::{assert_cloexec, assert_same_file, proc_hidden, HostileRoot, ROOT};

fn read(mut file: fs::File) -> String {
    let mut text = String::new();
    file.read_to_string(&mut text).unwrap();
    text
}

#[test]
#[ignore = "needs the scratch host of bindings/in-world"]
fn resolve_stays_inside() {
    let w = HostileRoot::new();
    for path in ["var/log/etc/hostname", "tmp/x/hostname", "/../../etc/hostname"] {
        let fd = w.root.resolve(path).unwrap();
        assert_same_file(&fd, &format!("{}/etc/hostname", ROOT));
        assert_cloexec(&fd);
    }
    // The last link followed, and inside the root.
    let fd = w.root.resolve("etc/os-release").unwrap();
    assert_same_file(&fd, &format!("{}/usr/lib/os-release", ROOT));
}

#[test]
#[ignore = "needs the scratch host of bindings/in-world"]
fn resolve_nofollow_stays_inside() {
    let w = HostileRoot::new();
    let fd = w.root.resolve_nofollow("var/log/tmp/x").unwrap();
    assert_same_file(&fd, &format!("{}/tmp/x", ROOT));
    assert_cloexec(&fd);
}

#[test]
#[ignore = "needs the scratch host of bindings/in-world"]
fn open_stays_inside() {
    let w = HostileRoot::new();
    for path in ["var/log/etc/hostname", "tmp/x/hostname", "etc/../../../etc/hostname"] {
        let file = w.root.open_subpath(path, O_RDONLY).unwrap();
        assert_cloexec(&file);
        assert_eq!(read(file), "root\n", "{}", path);
    }
    assert_eq!(read(w.root.open_subpath("etc/os-release", O_RDONLY).unwrap()), "ID=root\n");
}

#[test]
#[ignore = "needs the scratch host of bindings/in-world"]
fn create_stays_inside() {
    let w = HostileRoot::new();
    let file = w.root.create_file("var/log/made", O_WRONLY | O_EXCL, 0o600).unwrap();
    assert_cloexec(&file);
    assert_same_file(&file, &format!("{}/made", ROOT));
    assert_eq!(file.metadata().unwrap().mode() & 0o777, 0o600);
}

#[test]
#[ignore = "needs the scratch host of bindings/in-world"]
fn mkdir_stays_inside() {
    let w = HostileRoot::new();
    w.root.mkdir("tmp/x/newdir", 0o700).unwrap();
    let st = fs::metadata(format!("{}/etc/newdir", ROOT)).unwrap();
    assert_eq!(st.permissions().mode() & 0o777, 0o700);
}

#[test]
#[ignore = "needs the scratch host of bindings/in-world"]
fn mkdir_all_stays_inside() {
    let w = HostileRoot::new();
    let fd = w.root.mkdir_all("var/log/app/sub", 0o755).unwrap();
    assert_cloexec(&fd);
    assert_same_file(&fd, &format!("{}/app/sub", ROOT));
}

#[test]
#[ignore = "needs the scratch host of bindings/in-world"]
fn mknod_stays_inside() {
    let w = HostileRoot::new();
    w.root.mknod("var/log/fifo", S_IFIFO | 0o644, 0).unwrap();
    assert!(fs::symlink_metadata(format!("{}/fifo", ROOT)).unwrap().file_type().is_fifo());
}

#[test]
#[ignore = "needs the scratch host of bindings/in-world"]
fn symlink_stays_inside() {
    let w = HostileRoot::new();
    w.root.symlink("usr/share/doc/link/evil", "/etc/passwd").unwrap();
    assert_eq!(fs::read_link(format!("{}/home/evil", ROOT)).unwrap().to_str(), Some("/etc/passwd"));
}

#[test]
#[ignore = "needs the scratch host of bindings/in-world"]
fn hardlink_stays_inside() {
    let w = HostileRoot::new();
    w.root.hardlink("var/log/hard", "tmp/x/hostname").unwrap();
    let a = fs::metadata(format!("{}/hard", ROOT)).unwrap();
    let b = fs::metadata(format!("{}/etc/hostname", ROOT)).unwrap();
    assert_eq!((a.dev(), a.ino()), (b.dev(), b.ino()));
}

#[test]
#[ignore = "needs the scratch host of bindings/in-world"]
fn rename_stays_inside() {
    let w = HostileRoot::new();
    w.root.rename("tmp/x/hostname", "var/log/moved", 0).unwrap();
    assert_eq!(fs::read_to_string(format!("{}/moved", ROOT)).unwrap(), "root\n");
    let err = w.root.rename("var/log/moved", "home/user/file", RENAME_NOREPLACE).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::AlreadyExists);
}

#[test]
#[ignore = "needs the scratch host of bindings/in-world"]
fn remove_file_stays_inside() {
    let w = HostileRoot::new();
    w.root.remove_file("var/log/etc/hostname").unwrap();
    assert!(fs::symlink_metadata(format!("{}/etc/hostname", ROOT)).is_err());
}

#[test]
#[ignore = "needs the scratch host of bindings/in-world"]
fn remove_dir_stays_inside() {
    let w = HostileRoot::new();
    w.root.remove_dir("var/log/emptydir").unwrap();
    assert!(fs::symlink_metadata(format!("{}/emptydir", ROOT)).is_err());
    let err = w.root.remove_dir("var/log/etc").unwrap_err();
    assert_eq!(err.raw_os_error(), Some(39)); // ENOTEMPTY
}

#[test]
#[ignore = "needs the scratch host of bindings/in-world"]
fn remove_all_stays_inside() {
    let w = HostileRoot::new();
    w.root.remove_all("usr/share/doc/link/user").unwrap();
    assert!(fs::symlink_metadata(format!("{}/home/user", ROOT)).is_err());
    // The link itself, not what it leads to.
    w.root.remove_all("var/log").unwrap();
    assert!(fs::metadata(format!("{}/etc/hostname", ROOT)).is_ok());
}

#[test]
#[ignore = "needs the scratch host of bindings/in-world"]
fn readlink_stays_inside() {
    let w = HostileRoot::new();
    assert_eq!(w.root.readlink("var/log/tmp/x").unwrap().to_str(), Some("../../../../etc"));
    let long = "abcdefghij/".repeat(30);
    std::os::unix::fs::symlink(&long, format!("{}/long", ROOT)).unwrap();
    assert_eq!(w.root.readlink("var/log/long").unwrap().to_str(), Some(long.as_str()));
}

#[test]
#[ignore = "needs the scratch host of bindings/in-world"]
fn reopen_stays_inside() {
    let w = HostileRoot::new();
    let handle = w.root.resolve("tmp/x/hostname").unwrap();
    match reopen(&handle, O_RDONLY) {
        Ok(file) => {
            assert_cloexec(&file);
            assert_eq!(read(file), "root\n");
        }
        // No /proc, and a kernel without O_EMPTYPATH: nothing can reopen
        // a regular file by itself.
        Err(e) if proc_hidden() && e.raw_os_error() == Some(95) => {} // EOPNOTSUPP
        Err(e) => panic!("reopen: {}", e),
    }
    // A directory reopens through its own ".", /proc or not.
    let dir = w.root.resolve("var/log/etc").unwrap();
    let file = reopen(&dir, O_RDONLY | O_DIRECTORY).unwrap();
    assert_cloexec(&file);
    assert_same_file(&file, &format!("{}/etc", ROOT));
}

#[test]
#[ignore = "needs the scratch host of bindings/in-world"]
fn openat2_stays_inside() {
    use std::os::unix::io::AsFd;
    let w = HostileRoot::new();
    let how = OpenHow { flags: O_RDONLY as u64, mode: 0, resolve: RESOLVE_IN_ROOT };
    let fd = openat2(Some(w.root.as_fd()), "var/log/etc/hostname", &how).unwrap();
    assert_cloexec(&fd);
    assert_eq!(read(fs::File::from(fd)), "root\n");
    let how = OpenHow { resolve: RESOLVE_BENEATH, ..how };
    let err = openat2(Some(w.root.as_fd()), "tmp/x/hostname", &how).unwrap_err();
    assert_eq!(err.raw_os_error(), Some(18)); // EXDEV
}
