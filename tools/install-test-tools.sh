#!/usr/bin/env bash
# Installs the system tools the test suite needs beyond Python packages: clang 14 with its
# sanitizer runtimes, for the fuzz test (tests/test_fuzz.py), Emscripten with Node.js, for
# the WebAssembly build and its Node tests (tests/test_wasm.py), and Debian's Chromium, which
# Playwright (a test extra) drives headless to open the browser example
# (tests/test_browser_example.py) and the game server's client, PostgreSQL and Redis, whose
# servers the store and cluster tests start (tests/test_server.py, tests/test_server_cluster.py),
# TypeScript's tsc, which checks js/diabolo.d.mts (tests/test_js_types.py), pkg-config, which
# reads the package's diabolo.pc (tests/test_installed.py), the cross compilers, wine and
# qemu-user, with which tests/test_cross_platform.py builds for Windows, Linux aarch64 and
# 32-bit x86 and runs what it built, Mono, which compiles and runs the .NET binding
# (tests/test_dotnet.py), cargo (where rustup's is not installed) for the Rust crates
# (tests/test_rust.py), and ccache, which every C++ build of the suite
# goes through (the package, CMake's sanitizer builds, the fuzz build, WebAssembly), so that
# a second run, even from a clone in another folder, compiles almost nothing. As root with
# apt-get it installs them if they are missing; otherwise, or if that fails, it says what to
# install and exits 0 (the tests then skip, or fail under CI=true, naming the same packages;
# without ccache they compile everything).
set -uo pipefail

packages=(clang-14 libclang-rt-14-dev emscripten node-acorn chromium postgresql redis-server ccache node-typescript pkgconf
    g++-mingw-w64-x86-64-posix wine64 qemu-user g++-aarch64-linux-gnu g++-i686-linux-gnu mono-devel)
# Debian's nodejs only where there is no Node.js at all: another one (NodeSource's) serves;
# Debian's cargo (with rustfmt) only where there is none (rustup's serves, in ~/.cargo/bin).
command -v node >/dev/null 2>&1 || packages+=(nodejs)
command -v cargo >/dev/null 2>&1 || [ -x "$HOME/.cargo/bin/cargo" ] || packages+=(cargo rustfmt rust-clippy)

have_tools() {
    command -v clang++-14 >/dev/null 2>&1 &&
        [ -f "$(clang++-14 -print-resource-dir 2>/dev/null)/share/asan_ignorelist.txt" ] &&
        command -v em++ >/dev/null 2>&1 && command -v node >/dev/null 2>&1 &&
        [ -d /usr/share/nodejs/acorn ] && command -v chromium >/dev/null 2>&1 &&
        command -v ccache >/dev/null 2>&1 && command -v redis-server >/dev/null 2>&1 &&
        command -v tsc >/dev/null 2>&1 && command -v pkg-config >/dev/null 2>&1 &&
        command -v x86_64-w64-mingw32-g++-posix >/dev/null 2>&1 && [ -x /usr/lib/wine/wine64 ] &&
        command -v qemu-aarch64 >/dev/null 2>&1 && command -v aarch64-linux-gnu-g++ >/dev/null 2>&1 &&
        command -v i686-linux-gnu-g++ >/dev/null 2>&1 && command -v mcs >/dev/null 2>&1 &&
        command -v mono >/dev/null 2>&1 &&
        { command -v cargo >/dev/null 2>&1 || [ -x "$HOME/.cargo/bin/cargo" ]; } &&
        { command -v initdb >/dev/null 2>&1 || compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; }
}

if have_tools; then
    exit 0
fi
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "install-test-tools: installing ${packages[*]}"
    export DEBIAN_FRONTEND=noninteractive
    # The package lists may be missing or stale on a fresh machine: update and try again.
    if apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null 2>&1 ||
        { apt-get update -qq >/dev/null 2>&1 &&
            apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null 2>&1; }; then
        have_tools && exit 0
    fi
    echo "install-test-tools: could not install ${packages[*]} with apt-get"
fi
echo "install-test-tools: the fuzz test needs clang 14 and its sanitizer runtimes, the WebAssembly test" \
    "Emscripten and Node.js, the browser tests Chromium, the server's store and cluster tests PostgreSQL and Redis," \
    "the TypeScript test tsc, the installed-package test pkg-config, the cross-platform test MinGW-w64, wine," \
    "qemu-user and the aarch64 and i686 cross compilers, the .NET binding's test Mono, the Rust crates' test" \
    "cargo, and every build goes faster through ccache:" \
    "apt-get install ${packages[*]}"
exit 0
