# Linux on 32-bit x86 from x86-64 Linux (Debian: g++-i686-linux-gnu); the programs run under
# qemu-user: qemu-i386 -L /usr/i686-linux-gnu PROGRAM. The engine needs SSE2 floating point
# there (core/float_model.hpp refuses x87 math): pass -DCMAKE_CXX_FLAGS="-msse2 -mfpmath=sse"
# and the same CMAKE_C_FLAGS.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR i686)
set(CMAKE_C_COMPILER i686-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER i686-linux-gnu-g++)
set(CMAKE_FIND_ROOT_PATH /usr/i686-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
