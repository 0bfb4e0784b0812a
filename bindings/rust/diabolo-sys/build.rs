//! Finds libdiabolo, the C API's shared library, in this order:
//! 1. `DIABOLO_LIB_DIR`, a folder holding it (and `DIABOLO_INCLUDE_DIR` is not needed: the
//!    declarations are in src/lib.rs);
//! 2. `pkg-config --libs diabolo` (the CMake install of `cpp/`, or the wheel's pkg-config file
//!    on `PKG_CONFIG_PATH`);
//! 3. `python -m diabolo --libs` (an installed `pip install diabolo`; `PYTHON` names the
//!    interpreter, else `python3`, then `python`).
//!
//! It links `-ldiabolo` from that folder and tells crates that depend on this one the folder
//! as `DEP_DIABOLO_LIB_DIR` (for an rpath or a copy next to the program).
use std::env;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=DIABOLO_LIB_DIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    println!("cargo:rerun-if-env-changed=PYTHON");
    let found = env::var("DIABOLO_LIB_DIR")
        .ok()
        .filter(|dir| !dir.is_empty())
        .or_else(from_pkg_config)
        .or_else(from_python);
    let dir = match found {
        Some(dir) => dir,
        None => panic!(
            "diabolo-sys: libdiabolo not found. Install the Python package (pip install diabolo), \
             or `cmake --install` cpp/ and put its lib/pkgconfig on PKG_CONFIG_PATH, or set \
             DIABOLO_LIB_DIR to the folder that holds libdiabolo"
        ),
    };
    println!("cargo:rustc-link-search=native={}", dir);
    println!("cargo:rustc-link-lib=dylib=diabolo");
    println!("cargo:lib_dir={}", dir);
}

/// The first -L folder of a command's output, if it ran.
fn first_library_dir(command: &mut Command) -> Option<String> {
    let output = command.output().ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8(output.stdout).ok()?;
    let dir = text.split_whitespace().find_map(|flag| flag.strip_prefix("-L"))?;
    Some(dir.to_string())
}

fn from_pkg_config() -> Option<String> {
    first_library_dir(Command::new("pkg-config").args(["--libs", "diabolo"]))
}

fn from_python() -> Option<String> {
    let named = env::var("PYTHON").ok().filter(|python| !python.is_empty());
    let candidates = match named {
        Some(python) => vec![python],
        None => vec!["python3".to_string(), "python".to_string()],
    };
    candidates
        .iter()
        .find_map(|python| first_library_dir(Command::new(python).args(["-m", "diabolo", "--libs"])))
}
