//! resolve_cost: the cost of Root::resolve of a 4-deep path and a drop of
//! its OwnedFd, against inroot_resolve and close from C in the same
//! process (the library BINDINGS_BASELINE names:
//! bench/binding_baseline.c), as a ratio. Printed, never judged: the
//! numbers are the machine's.
use std::ffi::CString;
use std::os::raw::{c_char, c_int, c_long, c_void};
use std::os::unix::io::AsRawFd;
use std::time::Instant;

use execveat::Root;

const PATH: &str = "a/b/c/d";
const ROUNDS: i64 = 20000;
const RUNS: usize = 7;
const RTLD_NOW: c_int = 2;

type Baseline = unsafe extern "C" fn(c_int, *const c_char, c_long) -> i64;

extern "C" {
    fn dlopen(name: *const c_char, flags: c_int) -> *mut c_void;
    fn dlsym(lib: *mut c_void, name: *const c_char) -> *mut c_void;
}

fn median(mut ns: Vec<f64>) -> f64 {
    ns.sort_by(|a, b| a.partial_cmp(b).unwrap());
    ns[ns.len() / 2]
}

fn main() {
    let name = CString::new(std::env::var("BINDINGS_BASELINE").expect("BINDINGS_BASELINE")).unwrap();
    // SAFETY: a NUL-terminated name; the symbol has Baseline's type
    // (bench/binding_baseline.c).
    let baseline: Baseline = unsafe {
        let lib = dlopen(name.as_ptr(), RTLD_NOW);
        assert!(!lib.is_null(), "dlopen {:?}", name);
        let symbol = dlsym(lib, b"binding_baseline_resolve_ns\0".as_ptr().cast());
        assert!(!symbol.is_null());
        std::mem::transmute::<*mut c_void, Baseline>(symbol)
    };
    let dir = std::env::temp_dir().join(format!("resolve-cost-{}", std::process::id()));
    std::fs::create_dir_all(dir.join(PATH)).unwrap();
    let root = Root::open(&dir).unwrap();
    let cpath = CString::new(PATH).unwrap();
    let (mut from_c, mut from_rust) = (Vec::new(), Vec::new());
    for _ in 0..RUNS {
        // SAFETY: an open root, a NUL-terminated path.
        let ns = unsafe { baseline(root.as_raw_fd(), cpath.as_ptr(), ROUNDS as c_long) };
        assert!(ns >= 0, "inroot_resolve failed");
        from_c.push(ns as f64 / ROUNDS as f64);
        let start = Instant::now();
        for _ in 0..ROUNDS {
            drop(root.resolve(PATH).unwrap());
        }
        from_rust.push(start.elapsed().as_nanos() as f64 / ROUNDS as f64);
    }
    std::fs::remove_dir_all(&dir).unwrap();
    let (c, r) = (median(from_c), median(from_rust));
    println!("rust: resolve({:?}) and drop: C {:.0} ns, Rust {:.0} ns: ratio {:.2} (medians of {} runs of {})",
             PATH, c, r, r / c, RUNS, ROUNDS);
}
