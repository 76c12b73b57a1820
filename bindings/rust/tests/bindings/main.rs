//! The crate's tests, one program: the world they run in (world.rs),
//! the hostile root, errors and fds, and the exec calls.
mod errors;
mod exec;
mod hostile;
mod world;
