# macOS (arm64 or x86-64) from Linux with Zig's clang, its libc++ and its macOS headers and
# linker (PyPI: ziglang): DIABOLO_ZIG_TARGET=aarch64-macos or x86_64-macos and PYTHON (the
# Python that has ziglang) in the environment. The result cannot run here: it proves that the
# core and the C API compile with Apple's libc++ headers and link as Mach-O
# (tests/test_cross_platform.py).
set(CMAKE_SYSTEM_NAME Darwin)
if("$ENV{DIABOLO_ZIG_TARGET}" MATCHES "^aarch64")
  set(CMAKE_SYSTEM_PROCESSOR arm64)
else()
  set(CMAKE_SYSTEM_PROCESSOR x86_64)
endif()
set(CMAKE_C_COMPILER ${CMAKE_CURRENT_LIST_DIR}/../../tools/zig/cc)
set(CMAKE_CXX_COMPILER ${CMAKE_CURRENT_LIST_DIR}/../../tools/zig/c++)
# Zig's archiver: its linker does not read the symbol index of the host's GNU ar.
set(CMAKE_AR ${CMAKE_CURRENT_LIST_DIR}/../../tools/zig/ar CACHE FILEPATH "" FORCE)
set(CMAKE_RANLIB ${CMAKE_CURRENT_LIST_DIR}/../../tools/zig/ranlib CACHE FILEPATH "" FORCE)
# No Apple SDK or architecture flags: Zig's target carries both.
set(CMAKE_OSX_SYSROOT "")
set(CMAKE_OSX_ARCHITECTURES "")
set(CMAKE_OSX_DEPLOYMENT_TARGET "")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
