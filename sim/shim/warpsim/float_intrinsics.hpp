// CUDA's float and double intrinsics (crt/device_functions.h, sm_20_intrinsics.h): reinterpreting
// bits, arithmetic and conversions in an explicit rounding mode (_rn, _rz, _rd, _ru), and the
// fast-math functions.
//
// Exact: every rounding-mode operation and conversion is IEEE 754's, as on the GPU (fp_round.hpp).
// Float-to-integer conversions saturate at the integer type's range; NaN gives 0, or
// 0x8000000000000000 for the 64-bit types.
//   __fadd_rz(1.0f, 0x1p-30f) == 1.0f; __fadd_ru(1.0f, 0x1p-30f) == 1.0f + 0x1p-23f
//   __float2int_rn(-2.5f) == -2; __float2uint_rz(-1.0f) == 0; __ll2float_rz(0x7fffffffffffffff) ==
//   0x1.fffffep62f
//
// Approximate: the fast-math functions (__expf, __sinf, __fdividef, ...) return the float nearest
// to the exact function here; the GPU's approximations differ by a few ulps (CUDA documents their
// maximum errors; tests/shim/gpu_vectors_test.cpp bounds the differences measured on an H100).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "warpsim/fp_round.hpp"

namespace warpsim::shim {
__extension__ using wide_int = __int128;
__extension__ using wide_uint = unsigned __int128;
template <class To, class From>
inline To pun(From from) {
  static_assert(sizeof(To) == sizeof(From));
  To to;
  std::memcpy(&to, &from, sizeof to);
  return to;
}

inline float bit_cast_float(std::uint32_t bits) { return pun<float>(bits); }

namespace fp {
inline float add(float a, float b, float) { return a + b; }
inline float sub(float a, float b, float) { return a - b; }
inline float mul(float a, float b, float) { return a * b; }
inline float div(float a, float b, float) { return a / b; }
inline float fma(float a, float b, float c) { return std::fma(a, b, c); }
inline float sqrt(float a, float, float) { return std::sqrt(a); }
inline double addd(double a, double b, double) { return a + b; }
inline double subd(double a, double b, double) { return a - b; }
inline double muld(double a, double b, double) { return a * b; }
inline double divd(double a, double b, double) { return a / b; }
inline double fmad(double a, double b, double c) { return std::fma(a, b, c); }
inline double sqrtd(double a, double, double) { return std::sqrt(a); }

// float to an integer type in `mode`, saturating; NaN gives 0 (0x8000000000000000 for 64 bits).
template <class Int>
inline Int float_to(float x, Round mode) {
  constexpr Int nan_value = sizeof(Int) == 8 ? static_cast<Int>(0x8000000000000000ull) : Int{0};
  return to_integer<Int>(x, mode, nan_value);
}
// double to an integer type in `mode`, saturating; NaN gives the bit pattern 0x80000000
// (0x8000000000000000 for 64 bits), for unsigned types too.
template <class Int>
inline Int double_to(double x, Round mode) {
  constexpr Int nan_value =
      sizeof(Int) == 8 ? static_cast<Int>(0x8000000000000000ull) : static_cast<Int>(0x80000000u);
  return to_integer<Int>(x, mode, nan_value);
}
// The value of `f` rounded to a float in `mode` (NaN and infinities kept).
inline float double_to_float(double d, Round mode) {
  if (std::isnan(d) || std::isinf(d)) return static_cast<float>(d);
  return to_float(exact(d), mode);
}
}  // namespace fp
}  // namespace warpsim::shim

// ---- reinterpreting bits
inline int __float_as_int(float x) { return warpsim::shim::pun<int>(x); }
inline float __int_as_float(int x) { return warpsim::shim::pun<float>(x); }
inline unsigned int __float_as_uint(float x) { return warpsim::shim::pun<unsigned int>(x); }
inline float __uint_as_float(unsigned int x) { return warpsim::shim::pun<float>(x); }
inline long long __double_as_longlong(double x) { return warpsim::shim::pun<long long>(x); }
inline double __longlong_as_double(long long x) { return warpsim::shim::pun<double>(x); }
inline int __double2hiint(double x) { return static_cast<int>(__double_as_longlong(x) >> 32); }
inline int __double2loint(double x) { return static_cast<int>(__double_as_longlong(x)); }
inline double __hiloint2double(int hi, int lo) {
  return __longlong_as_double(
      static_cast<long long>((static_cast<unsigned long long>(static_cast<unsigned>(hi)) << 32) |
                             static_cast<unsigned>(lo)));
}

// ---- float arithmetic in a rounding mode
#define WARPSIM_FLOAT_MODES(NAME, OP)                                                          \
  inline float NAME##_rn(float x, float y) {                                                   \
    return warpsim::shim::fp::in_mode(warpsim::shim::fp::Round::nearest_even, x, y, 0.0f, OP); \
  }                                                                                            \
  inline float NAME##_rz(float x, float y) {                                                   \
    return warpsim::shim::fp::in_mode(warpsim::shim::fp::Round::toward_zero, x, y, 0.0f, OP);  \
  }                                                                                            \
  inline float NAME##_rd(float x, float y) {                                                   \
    return warpsim::shim::fp::in_mode(warpsim::shim::fp::Round::down, x, y, 0.0f, OP);         \
  }                                                                                            \
  inline float NAME##_ru(float x, float y) {                                                   \
    return warpsim::shim::fp::in_mode(warpsim::shim::fp::Round::up, x, y, 0.0f, OP);           \
  }
WARPSIM_FLOAT_MODES(__fadd, warpsim::shim::fp::add)
WARPSIM_FLOAT_MODES(__fsub, warpsim::shim::fp::sub)
WARPSIM_FLOAT_MODES(__fmul, warpsim::shim::fp::mul)
WARPSIM_FLOAT_MODES(__fdiv, warpsim::shim::fp::div)
#undef WARPSIM_FLOAT_MODES

#define WARPSIM_UNARY_MODES(TYPE, NAME, EXPR)                                          \
  inline TYPE NAME##_rn(TYPE x) {                                                      \
    return warpsim::shim::fp::in_mode(warpsim::shim::fp::Round::nearest_even, x, x, x, \
                                      [](TYPE a, TYPE, TYPE) { return EXPR; });        \
  }                                                                                    \
  inline TYPE NAME##_rz(TYPE x) {                                                      \
    return warpsim::shim::fp::in_mode(warpsim::shim::fp::Round::toward_zero, x, x, x,  \
                                      [](TYPE a, TYPE, TYPE) { return EXPR; });        \
  }                                                                                    \
  inline TYPE NAME##_rd(TYPE x) {                                                      \
    return warpsim::shim::fp::in_mode(warpsim::shim::fp::Round::down, x, x, x,         \
                                      [](TYPE a, TYPE, TYPE) { return EXPR; });        \
  }                                                                                    \
  inline TYPE NAME##_ru(TYPE x) {                                                      \
    return warpsim::shim::fp::in_mode(warpsim::shim::fp::Round::up, x, x, x,           \
                                      [](TYPE a, TYPE, TYPE) { return EXPR; });        \
  }
WARPSIM_UNARY_MODES(float, __frcp, 1.0f / a)
WARPSIM_UNARY_MODES(float, __fsqrt, std::sqrt(a))
WARPSIM_UNARY_MODES(double, __drcp, 1.0 / a)
WARPSIM_UNARY_MODES(double, __dsqrt, std::sqrt(a))
#undef WARPSIM_UNARY_MODES

#define WARPSIM_FMA_MODES(TYPE, NAME, OP)                                                   \
  inline TYPE NAME##_rn(TYPE x, TYPE y, TYPE z) {                                           \
    return warpsim::shim::fp::in_mode(warpsim::shim::fp::Round::nearest_even, x, y, z, OP); \
  }                                                                                         \
  inline TYPE NAME##_rz(TYPE x, TYPE y, TYPE z) {                                           \
    return warpsim::shim::fp::in_mode(warpsim::shim::fp::Round::toward_zero, x, y, z, OP);  \
  }                                                                                         \
  inline TYPE NAME##_rd(TYPE x, TYPE y, TYPE z) {                                           \
    return warpsim::shim::fp::in_mode(warpsim::shim::fp::Round::down, x, y, z, OP);         \
  }                                                                                         \
  inline TYPE NAME##_ru(TYPE x, TYPE y, TYPE z) {                                           \
    return warpsim::shim::fp::in_mode(warpsim::shim::fp::Round::up, x, y, z, OP);           \
  }
WARPSIM_FMA_MODES(float, __fmaf, warpsim::shim::fp::fma)
WARPSIM_FMA_MODES(float, __fmaf_ieee, warpsim::shim::fp::fma)
WARPSIM_FMA_MODES(double, __fma, warpsim::shim::fp::fmad)
#undef WARPSIM_FMA_MODES

// 1/sqrt(x) rounded once to nearest: computed in long double (64-bit significand), whose two
// roundings stay far inside float's half ulp.
inline float __frsqrt_rn(float x) {
  if (std::isnan(x) || x < 0.0f) return warpsim::shim::bit_cast_float(0x7fffffffu);
  if (x == 0.0f) return std::copysign(INFINITY, x);
  const long double r = 1.0L / std::sqrt(static_cast<long double>(x));
  return static_cast<float>(static_cast<double>(r));
}

// ---- double arithmetic in a rounding mode
#define WARPSIM_DOUBLE_MODES(NAME, OP)                                                        \
  inline double NAME##_rn(double x, double y) {                                               \
    return warpsim::shim::fp::in_mode(warpsim::shim::fp::Round::nearest_even, x, y, 0.0, OP); \
  }                                                                                           \
  inline double NAME##_rz(double x, double y) {                                               \
    return warpsim::shim::fp::in_mode(warpsim::shim::fp::Round::toward_zero, x, y, 0.0, OP);  \
  }                                                                                           \
  inline double NAME##_rd(double x, double y) {                                               \
    return warpsim::shim::fp::in_mode(warpsim::shim::fp::Round::down, x, y, 0.0, OP);         \
  }                                                                                           \
  inline double NAME##_ru(double x, double y) {                                               \
    return warpsim::shim::fp::in_mode(warpsim::shim::fp::Round::up, x, y, 0.0, OP);           \
  }
WARPSIM_DOUBLE_MODES(__dadd, warpsim::shim::fp::addd)
WARPSIM_DOUBLE_MODES(__dsub, warpsim::shim::fp::subd)
WARPSIM_DOUBLE_MODES(__dmul, warpsim::shim::fp::muld)
WARPSIM_DOUBLE_MODES(__ddiv, warpsim::shim::fp::divd)
#undef WARPSIM_DOUBLE_MODES

// ---- conversions between float, double and the integer types
#define WARPSIM_TO_INTEGER(NAME, FROM, INT)                                             \
  inline INT NAME##_rn(FROM x) {                                                        \
    return warpsim::shim::fp::float_to<INT>(x, warpsim::shim::fp::Round::nearest_even); \
  }                                                                                     \
  inline INT NAME##_rz(FROM x) {                                                        \
    return warpsim::shim::fp::float_to<INT>(x, warpsim::shim::fp::Round::toward_zero);  \
  }                                                                                     \
  inline INT NAME##_rd(FROM x) {                                                        \
    return warpsim::shim::fp::float_to<INT>(x, warpsim::shim::fp::Round::down);         \
  }                                                                                     \
  inline INT NAME##_ru(FROM x) {                                                        \
    return warpsim::shim::fp::float_to<INT>(x, warpsim::shim::fp::Round::up);           \
  }
WARPSIM_TO_INTEGER(__float2int, float, int)
WARPSIM_TO_INTEGER(__float2uint, float, unsigned int)
WARPSIM_TO_INTEGER(__float2ll, float, long long)
WARPSIM_TO_INTEGER(__float2ull, float, unsigned long long)
#undef WARPSIM_TO_INTEGER
#define WARPSIM_TO_INTEGER(NAME, FROM, INT)                                              \
  inline INT NAME##_rn(FROM x) {                                                         \
    return warpsim::shim::fp::double_to<INT>(x, warpsim::shim::fp::Round::nearest_even); \
  }                                                                                      \
  inline INT NAME##_rz(FROM x) {                                                         \
    return warpsim::shim::fp::double_to<INT>(x, warpsim::shim::fp::Round::toward_zero);  \
  }                                                                                      \
  inline INT NAME##_rd(FROM x) {                                                         \
    return warpsim::shim::fp::double_to<INT>(x, warpsim::shim::fp::Round::down);         \
  }                                                                                      \
  inline INT NAME##_ru(FROM x) {                                                         \
    return warpsim::shim::fp::double_to<INT>(x, warpsim::shim::fp::Round::up);           \
  }
WARPSIM_TO_INTEGER(__double2int, double, int)
WARPSIM_TO_INTEGER(__double2uint, double, unsigned int)
WARPSIM_TO_INTEGER(__double2ll, double, long long)
WARPSIM_TO_INTEGER(__double2ull, double, unsigned long long)
#undef WARPSIM_TO_INTEGER

#define WARPSIM_FROM_INTEGER(NAME, INT, TO, EXACT_TYPE)               \
  inline TO NAME##_rn(INT x) {                                        \
    return warpsim::shim::fp::to_##TO(                                \
        warpsim::shim::fp::exact_integer(static_cast<EXACT_TYPE>(x)), \
        warpsim::shim::fp::Round::nearest_even);                      \
  }                                                                   \
  inline TO NAME##_rz(INT x) {                                        \
    return warpsim::shim::fp::to_##TO(                                \
        warpsim::shim::fp::exact_integer(static_cast<EXACT_TYPE>(x)), \
        warpsim::shim::fp::Round::toward_zero);                       \
  }                                                                   \
  inline TO NAME##_rd(INT x) {                                        \
    return warpsim::shim::fp::to_##TO(                                \
        warpsim::shim::fp::exact_integer(static_cast<EXACT_TYPE>(x)), \
        warpsim::shim::fp::Round::down);                              \
  }                                                                   \
  inline TO NAME##_ru(INT x) {                                        \
    return warpsim::shim::fp::to_##TO(                                \
        warpsim::shim::fp::exact_integer(static_cast<EXACT_TYPE>(x)), \
        warpsim::shim::fp::Round::up);                                \
  }
WARPSIM_FROM_INTEGER(__int2float, int, float, long long)
WARPSIM_FROM_INTEGER(__uint2float, unsigned int, float, unsigned long long)
WARPSIM_FROM_INTEGER(__ll2float, long long, float, long long)
WARPSIM_FROM_INTEGER(__ull2float, unsigned long long, float, unsigned long long)
WARPSIM_FROM_INTEGER(__ll2double, long long, double, long long)
WARPSIM_FROM_INTEGER(__ull2double, unsigned long long, double, unsigned long long)
#undef WARPSIM_FROM_INTEGER
inline double __int2double_rn(int x) { return static_cast<double>(x); }  // exact
inline double __uint2double_rn(unsigned int x) { return static_cast<double>(x); }

inline float __double2float_rn(double x) {
  return warpsim::shim::fp::double_to_float(x, warpsim::shim::fp::Round::nearest_even);
}
inline float __double2float_rz(double x) {
  return warpsim::shim::fp::double_to_float(x, warpsim::shim::fp::Round::toward_zero);
}
inline float __double2float_rd(double x) {
  return warpsim::shim::fp::double_to_float(x, warpsim::shim::fp::Round::down);
}
inline float __double2float_ru(double x) {
  return warpsim::shim::fp::double_to_float(x, warpsim::shim::fp::Round::up);
}

// ---- fast-math functions, modelled on the GPU's: the special function unit computes 2^x, log2 x,
// sin(2 pi x), cos(2 pi x), 1/x and tanh x to about 22 bits (here: exactly, then rounded), on
// operands scaled by one float multiplication. NaN results are the canonical 0x7fffffff.
namespace warpsim::shim::fast {
inline float canonical(float x) { return std::isnan(x) ? bit_cast_float(0x7fffffffu) : x; }
// Subnormal results become a zero of the same sign (as CUDA documents for __sinf, __cosf, __tanf).
inline float flush(float x) { return std::fabs(x) < 0x1p-126f ? std::copysign(0.0f, x) : x; }
inline float ex2(float t) { return static_cast<float>(std::exp2(static_cast<double>(t))); }
inline float lg2(float x) { return static_cast<float>(std::log2(static_cast<double>(x))); }
// sin(2 pi t) and cos(2 pi t) for t = x / (2 pi) rounded toward zero in float, as the GPU scales.
inline double turns(float x) {
  const float t = fp::in_mode(fp::Round::toward_zero, x, 0.15915494309189535f, 0.0f, fp::mul);
  return static_cast<double>(t) - std::nearbyint(static_cast<double>(t));  // exact for a float
}
// sin(2 pi f) (cosine: quarter = 1) with exact quarter turns: cos(2 pi * 0.25) is 0, not 6e-17.
// The cosine's zeros are signed as on an H100, which reduces |x|: -0 a quarter turn into a period
// of |x|, +0 three quarters in (`positive`: x >= 0).
inline float sin_turns(double f, int quarter, bool positive) {
  const double q = std::nearbyint(4 * f);  // f = q/4 + r exactly, |r| <= 1/8
  const double r = f - q / 4;
  if (r == 0 && quarter == 1 && ((static_cast<int>(q) + quarter) & 1) == 0) {
    return (positive ? f : -f) == 0.25 ? -0.0f : 0.0f;
  }
  switch ((static_cast<int>(q) + quarter) & 3) {
    case 0:
      return static_cast<float>(std::sin(2 * M_PI * r));
    case 1:
      return static_cast<float>(std::cos(2 * M_PI * r));
    case 2:
      return static_cast<float>(-std::sin(2 * M_PI * r));
    default:
      return static_cast<float>(-std::cos(2 * M_PI * r));
  }
}
}  // namespace warpsim::shim::fast

inline float __saturatef(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }  // NaN: 0
// x * (1/y): for 2^126 < |y| the reciprocal is flushed to 0, so the quotient is 0 (CUDA documents).
inline float __fdividef(float x, float y) {
  using namespace warpsim::shim::fast;
  if (std::fabs(y) > 0x1p126f) return canonical(x * 0.0f);
  return canonical(x / y);
}
inline float fdividef(float x, float y) { return warpsim::shim::fast::canonical(x / y); }
inline double fdivide(double x, double y) { return x / y; }
inline float __expf(float x) {
  using namespace warpsim::shim::fast;
  return canonical(ex2(x * 1.44269502f));
}
inline float __exp10f(float x) {
  using namespace warpsim::shim::fast;
  return canonical(ex2(x * 3.32192802f));
}
inline float __log2f(float x) {
  return warpsim::shim::fast::canonical(warpsim::shim::fast::lg2(x));
}
inline float __logf(float x) {
  using namespace warpsim::shim::fast;
  return canonical(lg2(x) * 0.693147182f);
}
inline float __log10f(float x) {
  using namespace warpsim::shim::fast;
  return canonical(lg2(x) * 0.301029996f);
}
inline float __powf(float x, float y) {
  using namespace warpsim::shim::fast;
  return canonical(ex2(y * lg2(x)));
}
inline float __sinf(float x) {
  using namespace warpsim::shim::fast;
  if (std::isinf(x)) return canonical(NAN);
  return canonical(flush(sin_turns(turns(x), 0, x >= 0)));
}
inline float __cosf(float x) {
  using namespace warpsim::shim::fast;
  if (std::isinf(x)) return canonical(NAN);
  return canonical(flush(sin_turns(turns(x), 1, x >= 0)));
}
inline float __tanf(float x) {
  return warpsim::shim::fast::flush(__fdividef(__sinf(x), __cosf(x)));
}
inline float __tanhf(float x) {
  using namespace warpsim::shim::fast;
  return canonical(static_cast<float>(std::tanh(static_cast<double>(x))));
}
inline void __sincosf(float x, float* s, float* c) {
  *s = __sinf(x);
  *c = __cosf(x);
}
