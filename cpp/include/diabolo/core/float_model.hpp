// The floating-point model every translation unit of the engine is compiled under: IEEE
// 754 double and float arithmetic, each operation rounded once, nothing fused. Bots'
// decisions and the quantised observations depend on the bits, which must be the same on
// every platform (core/portable_math.hpp). Included by core/rng.hpp, so by every game.
#pragma once

// MSVC before VS 2022 17.0 may contract under /fp:precise, and its /fp:contract- switch is
// not documented: the pragma turns contraction off for every function after it.
#if defined(_MSC_VER) && !defined(__clang__)
#pragma fp_contract(off)
#endif

// x87 floating point (32-bit x86 without SSE2 math) rounds intermediates to 80 bits, so
// the same seed would give other bits, and other moves, than everywhere else.
#if (defined(__i386__) || defined(_M_IX86)) && !defined(__SSE2_MATH__) && !(defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#error "diabolo on 32-bit x86 needs SSE2 floating point: build with -msse2 -mfpmath=sse (MSVC: /arch:SSE2)"
#endif
