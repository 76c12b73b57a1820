//! Links the C library that pkg-config names (execveat, 2.0 or newer,
//! which added <inroot.h>): with PKG_CONFIG_PATH set to a build tree's
//! meson-uninstalled directory, that build's library.
use std::env;
use std::process::Command;

fn pkg_config(args: &[&str]) -> String {
    let program = env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".into());
    let output = Command::new(&program)
        .args(args)
        .arg("execveat")
        .output()
        .unwrap_or_else(|e| panic!("{}: {}", program, e));
    if !output.status.success() {
        panic!(
            "{} {} execveat: {}; set PKG_CONFIG_PATH to libexecveat's .pc file",
            program,
            args.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    String::from_utf8(output.stdout).expect("pkg-config printed UTF-8")
}

fn main() {
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG");
    pkg_config(&["--atleast-version=2.0"]);
    for flag in pkg_config(&["--libs"]).split_whitespace() {
        if let Some(dir) = flag.strip_prefix("-L") {
            println!("cargo:rustc-link-search=native={}", dir);
        } else if let Some(lib) = flag.strip_prefix("-l") {
            println!("cargo:rustc-link-lib={}", lib);
        }
    }
}
