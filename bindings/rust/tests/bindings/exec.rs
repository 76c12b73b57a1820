//! fexecve and execveat in a child, closefrom here.
use std::ffi::CStr;
use std::fs::File;
use std::io;
use std::os::unix::io::{AsFd, AsRawFd};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};

use execveat::flags::AT_EXECVE_CHECK;
use execveat::{closefrom, execveat, fexecve};

use crate::world::{is_open, NoFdLeft};

fn c(s: &[u8]) -> &CStr {
    CStr::from_bytes_with_nul(s).unwrap()
}

/// Runs exec in a child that Command forked, after its stdout was made a
/// pipe: exec replaces the child, or its error is spawn's. (The exec
/// functions build their argument arrays in the child: glibc's fork
/// leaves malloc usable there.)
fn run_child(exec: impl Fn() -> io::Error + Send + Sync + 'static) -> io::Result<String> {
    let mut command = Command::new("/nonexistent-never-run");
    command.stdout(Stdio::piped());
    // SAFETY: the closure only execs, or returns its error.
    unsafe { command.pre_exec(move || Err(exec())) };
    let out = command.output()?;
    assert!(out.status.success(), "{:?}", out);
    Ok(String::from_utf8(out.stdout).unwrap())
}

#[test]
fn fexecve_runs_the_file() {
    let _no_fd_left = NoFdLeft::new();
    let program = File::open("/bin/echo").unwrap();
    let out = run_child(move || fexecve(program.as_fd(), &[c(b"echo\0"), c(b"fexecve ran\0")], &[]));
    assert_eq!(out.unwrap(), "fexecve ran\n");
}

#[test]
fn execveat_runs_the_file() {
    let _no_fd_left = NoFdLeft::new();
    let dir = File::open("/bin").unwrap();
    let out = run_child(move || {
        execveat(Some(dir.as_fd()), "echo", &[c(b"echo\0"), c(b"execveat ran\0")], &[c(b"A=1\0")], 0)
            .unwrap_err()
    });
    assert_eq!(out.unwrap(), "execveat ran\n");
}

#[test]
fn fexecve_error_is_io_error() {
    let _no_fd_left = NoFdLeft::new();
    // Not executable by anyone.
    let path = std::env::temp_dir().join(format!("execveat-noexec-{}", std::process::id()));
    std::fs::write(&path, "#!/bin/sh\n").unwrap();
    let program = File::open(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let err = run_child(move || fexecve(program.as_fd(), &[c(b"x\0")], &[])).unwrap_err();
    assert_eq!((err.kind(), err.raw_os_error()), (io::ErrorKind::PermissionDenied, Some(13)));
}

#[test]
fn execveat_check_runs_nothing() {
    let _no_fd_left = NoFdLeft::new();
    let dir = File::open("/bin").unwrap();
    match execveat(Some(dir.as_fd()), "echo", &[c(b"echo\0")], &[], AT_EXECVE_CHECK) {
        Ok(()) => {}
        Err(e) if e.raw_os_error() == Some(22) => return, // EINVAL: before Linux 6.14
        Err(e) => panic!("{}", e),
    }
    let err = execveat(Some(dir.as_fd()), "missing", &[c(b"x\0")], &[], AT_EXECVE_CHECK).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::NotFound);
}

#[test]
fn closefrom_closes_from_lowfd_up() {
    let _no_fd_left = NoFdLeft::new();
    extern "C" {
        fn dup2(old: i32, new: i32) -> i32;
        fn close(fd: i32) -> i32;
    }
    let file = File::open("/").unwrap();
    // SAFETY: 899, 900 and 950 are this test's alone: no other fd of the
    // process is that high.
    unsafe {
        for fd in [899, 900, 950] {
            assert_eq!(dup2(file.as_raw_fd(), fd), fd);
        }
        closefrom(900);
    }
    let open: Vec<bool> = [file.as_raw_fd(), 899, 900, 950].iter().map(|&fd| is_open(fd)).collect();
    // SAFETY: 899 was dup2's.
    unsafe { close(899) };
    assert_eq!(open, [true, true, false, false]);
}
