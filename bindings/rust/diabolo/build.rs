//! The folder diabolo-sys found libdiabolo in, as an rpath of this crate's tests and
//! examples, so that `cargo test` runs them as they are (a program of yours does the same
//! in its own build.rs with `DEP_DIABOLO_LIB_DIR`, or runs with the folder on the loader's
//! path).
fn main() {
    if let Ok(dir) = std::env::var("DEP_DIABOLO_LIB_DIR") {
        if !std::env::var("CARGO_CFG_TARGET_OS")
            .map(|os| os == "windows")
            .unwrap_or(false)
        {
            println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir);
        }
    }
}
