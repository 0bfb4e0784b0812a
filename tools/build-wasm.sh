#!/usr/bin/env bash
# Builds the C API (cpp/include/diabolo/diabolo.h) as WebAssembly for JavaScript (Node and
# browsers): OUTDIR/diabolo.mjs, an ES module whose default export is the Emscripten factory
# createDiaboloModule, and OUTDIR/diabolo.wasm beside it. js/diabolo.mjs wraps them in a
# typed API.
#
#   bash tools/build-wasm.sh build/wasm
#
# The sources are those of libdiabolo (cpp/CMakeLists.txt): every .cpp under cpp/src (the
# core, the games and the C API in cpp/src/capi/diabolo.cpp). Each compiles to OUTDIR/obj,
# and only what changed (a source, a header it includes, or the flags) compiles again; the
# link runs when an object, diabolo.h or this script changed. JOBS (default 2) compilers
# run at once, under nice.
#
# Choices, for Debian 12's emscripten 3.1.6 and Node 20:
#   -fwasm-exceptions  the core throws and the C API catches, so C++ exceptions must work.
#                      Native WebAssembly exception handling costs nothing until a throw, where
#                      -fexceptions routes every call that may throw through a JavaScript
#                      trampoline. Node 17+ and current browsers (Chrome 95, Firefox 100,
#                      Safari 15.2) run it.
#   ENVIRONMENT=web,worker  3.1.6's Node support in an ES module uses require and __dirname,
#                      which ES modules lack, so the module is built without it; under Node,
#                      js/diabolo.mjs reads diabolo.wasm itself and hands the bytes over
#                      (wasmBinary). Browsers fetch it next to diabolo.mjs.
#   WASM_BIGINT        uint64_t seeds and versions cross as BigInt.
#   no threads         the module has no pthreads: the C API's batches run on one thread.
#
# Environment: DIABOLO_BOOST_INCLUDE_DIR (a folder holding boost/json.hpp; else the
# boost-headers Python package of PYTHON, default python3), JOBS, EMXX (default em++).
set -euo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
jobs=${JOBS:-2}
emxx=${EMXX:-em++}
# Compilers run in the tree: with ccache, the paths in the .d files are relative to it.
cd "$root"

command -v "$emxx" >/dev/null || {
    echo "build-wasm: $emxx not found: apt-get install emscripten node-acorn" >&2
    exit 1
}
# Debian's emscripten runs its JavaScript optimizer with acorn from /usr/share/nodejs (the
# node-acorn package), which a Node.js of another origin (NodeSource) does not search.
if ! node -e 'require("acorn")' >/dev/null 2>&1 && [ -d /usr/share/nodejs/acorn ]; then
    export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
fi

boost=${DIABOLO_BOOST_INCLUDE_DIR:-}
if [ -z "$boost" ]; then
    boost=$("${PYTHON:-python3}" -c 'import boost_headers; print(boost_headers.get_include())' 2>/dev/null) || {
        echo "build-wasm: Boost.JSON headers not found: pip install boost-headers==1.85.0.post1," \
            "or set DIABOLO_BOOST_INCLUDE_DIR" >&2
        exit 1
    }
fi
[ -f "$boost/boost/json.hpp" ] || {
    echo "build-wasm: no boost/json.hpp under $boost" >&2
    exit 1
}

# ccache, when on PATH, caches every compile that em++ makes (its compiler wrapper), naming
# files under the tree by relative paths and leaving the folder out of the hash, so that a
# clone elsewhere reuses earlier compiles; Boost's headers are reached through a link in
# OUTDIR, named alike wherever they lie (a virtualenv). Emscripten's own cache (its system
# libraries) comes prebuilt with Debian's package.
if [ -z "${EM_COMPILER_WRAPPER:-}" ] && [ "${DIABOLO_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null; then
    export EM_COMPILER_WRAPPER=ccache CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-true}
    ln -sfn "$boost" "$out/boost-include"
    boost=$out/boost-include
fi

# The same definitions and floating-point mode as cpp/CMakeLists.txt's diabolo_core.
cxxflags=(-std=c++17 -O2 -fwasm-exceptions -ffp-contract=off -DBOOST_ALL_NO_LIB
    -I"$root/cpp/include" -isystem "$boost"
    -Wall -Wextra -Wpedantic -Wconversion -Wshadow)

# The first line of `em++ --version`, read whole: a pipe into head would end em++ with
# SIGPIPE under pipefail when head exits first (seen with PYTHONUNBUFFERED=1).
emxx_version=$("$emxx" --version)
emxx_version=${emxx_version%%$'\n'*}

# Every function diabolo.h declares (the map file exports diabolo_* and nothing else).
exported=$(grep -E '^DIABOLO_API ' "$root/cpp/include/diabolo/diabolo.h" |
    grep -oE '\bdiabolo_[a-z0-9_]+\(' | tr -d '(' | sort -u | sed 's/^/_/' | paste -sd, -)
ldflags=(-O2 -fwasm-exceptions
    -s MODULARIZE=1 -s EXPORT_ES6=1 -s EXPORT_NAME=createDiaboloModule
    -s ENVIRONMENT=web,worker -s ALLOW_MEMORY_GROWTH=1 -s WASM_BIGINT=1 -s FILESYSTEM=0
    -s "EXPORTED_FUNCTIONS=$exported,_malloc,_free"
    -s EXPORTED_RUNTIME_METHODS=UTF8ToString,stringToUTF8,lengthBytesUTF8,HEAPU8,HEAP32,HEAPU32,HEAP64,HEAPF32)

# Every source under cpp/src, as cpp/CMakeLists.txt globs them: the core library and the C API.
mapfile -t sources < <(find "$root/cpp/src" -name '*.cpp' | LC_ALL=C sort)

mkdir -p "$out/obj"
# New flags (or another emscripten) make every object stale.
stamp="$out/obj/flags"
signature="$emxx_version ${cxxflags[*]}"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$signature" ]; then
    rm -f "$out"/obj/*.o "$out"/obj/*.d
    printf '%s\n' "$signature" >"$stamp"
fi

object_of() { # cpp/src/schacht/rules.cpp -> OUTDIR/obj/schacht_rules.o
    local relative=${1#"$root/cpp/src/"}
    echo "$out/obj/${relative//\//_}"
}

stale() { # true when the object is missing or older than its source or a header it includes
    local object=$1 dependency
    [ -f "$object" ] && [ -f "${object%.o}.d" ] || return 0
    # The .d file (from -MMD) lists the source and every header: "obj.o: a.cpp b.hpp \"
    for dependency in $(sed -e 's/\\$//' -e 's/^[^:]*://' "${object%.o}.d"); do
        [ "$dependency" -nt "$object" ] && return 0
    done
    return 1
}

pending=()
for source in "${sources[@]}"; do
    object=$(object_of "$source")
    object=${object%.cpp}.o
    if stale "$object"; then pending+=("$source"); fi
done

echo "build-wasm: compiling ${#pending[@]} of ${#sources[@]} sources with $emxx_version"
running=0
failed=0
for source in "${pending[@]}"; do
    object=$(object_of "$source")
    object=${object%.cpp}.o
    echo "  ${source#"$root/"}"
    nice "$emxx" "${cxxflags[@]}" -MMD -MP -c "$source" -o "$object" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait -n || failed=1
        running=$((running - 1))
    fi
done
while [ "$running" -gt 0 ]; do
    wait -n || failed=1
    running=$((running - 1))
done
if [ "$failed" -ne 0 ]; then
    echo "build-wasm: compilation failed" >&2
    exit 1
fi

objects=()
for source in "${sources[@]}"; do
    object=$(object_of "$source")
    objects+=("${object%.cpp}.o")
done
relink=${#pending[@]}
for file in "${objects[@]}" "${BASH_SOURCE[0]}" "$root/cpp/include/diabolo/diabolo.h"; do
    [ "$file" -nt "$out/diabolo.wasm" ] && relink=1
done
if [ "$relink" -ne 0 ] || [ ! -f "$out/diabolo.mjs" ] || [ ! -f "$out/diabolo.wasm" ]; then
    echo "build-wasm: linking $out/diabolo.mjs"
    nice "$emxx" "${ldflags[@]}" "${objects[@]}" -o "$out/diabolo.mjs"
fi
echo "build-wasm: $out/diabolo.mjs ($(wc -c <"$out/diabolo.mjs") bytes)," \
    "$out/diabolo.wasm ($(wc -c <"$out/diabolo.wasm") bytes)"
