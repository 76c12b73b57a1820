#![doc = include_str!("../README.md")]
#![deny(unsafe_op_in_unsafe_fn)]

mod calls;
pub mod flags;
mod root;
mod sys;

pub use calls::{closefrom, execveat, fexecve, openat2, reopen};
pub use root::Root;
pub use sys::OpenHow;
