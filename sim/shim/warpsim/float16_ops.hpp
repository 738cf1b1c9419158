// The arithmetic behind cuda_fp16.h and cuda_bf16.h, written once over the bits of a 16-bit
// float: binary16 (__half) and bfloat16 (__nv_bfloat16) differ only in their Format.
//
// Exact where CUDA's result is exactly defined: conversions in every rounding mode, +, -, *, /,
// fma, sqrt, comparisons, min/max. One 16-bit operation is computed in float (or, for fma, as an
// exact double sum) and rounded once: float's 24 bits are more than 2 * 11 + 2, so rounding the
// float result again to 16 bits gives the correctly rounded result (double rounding is innocuous
// for +, -, *, /, sqrt at that margin).
//
// Approximate: the transcendental functions (hexp, hlog, hsin, htanh, ...) are the correctly
// rounded values of the host's double-precision functions. The GPU evaluates them with its own
// float approximations, so a result may differ from the GPU's in the last bit where the exact
// value lies very near the middle of two 16-bit numbers; htanh_approx is the exact tanh here.
//
// NaN results are the canonical NaN 0x7fff, as the GPU's 16-bit instructions produce, and a NaN
// converted to float is the canonical float NaN 0x7fffffff (binary16; bfloat16's conversion is a
// shift and keeps the payload). Only __double2half and __double2bfloat16 keep a NaN's payload.
#pragma once

#include <cmath>
#include <cstdint>

#include "warpsim/fp_round.hpp"

namespace warpsim::shim::f16 {

using fp::Round;
using Bits = unsigned short;

inline constexpr Bits kCanonicalNan = 0x7fff;

struct Binary16 {
  static constexpr fp::Format format = fp::kBinary16;
  static constexpr Bits one = 0x3c00;
};
struct Bfloat16 {
  static constexpr fp::Format format = fp::kBfloat16;
  static constexpr Bits one = 0x3f80;
};

template <class F>
constexpr Bits exponent_mask() {
  return static_cast<Bits>(((1u << F::format.exponent_bits) - 1) << F::format.fraction_bits);
}
template <class F>
constexpr bool is_nan(Bits x) {
  return (x & exponent_mask<F>()) == exponent_mask<F>() &&
         (x & ((1u << F::format.fraction_bits) - 1)) != 0;
}
template <class F>
constexpr bool is_inf(Bits x) {
  return (x & 0x7fffu) == exponent_mask<F>();
}

// Exact: every 16-bit value is a float.
template <class F>
inline float to_float(Bits x) {
  if constexpr (F::format.exponent_bits == 8) {
    return fp::bit_cast<float>(static_cast<std::uint32_t>(x) << 16);
  } else {
    const bool negative = (x & 0x8000u) != 0;
    const int field = (x >> 10) & 0x1f;
    const std::uint32_t fraction = x & 0x3ffu;
    if (field == 0x1f) {  // infinity, or NaN: the GPU's conversion gives the canonical float NaN
      return fp::bit_cast<float>(fraction != 0 ? 0x7fffffffu
                                               : (negative ? 0xff800000u : 0x7f800000u));
    }
    const std::uint32_t significand = field == 0 ? fraction : fraction | 0x400u;
    const float magnitude =
        std::ldexp(static_cast<float>(significand), (field == 0 ? 1 : field) - 15 - 10);
    return negative ? -magnitude : magnitude;
  }
}

template <class F>
inline Bits from_exact(const fp::Exact& e, Round mode) {
  return static_cast<Bits>(fp::round_to(F::format, e, mode));
}

// float or double to 16 bits in `mode`; NaN becomes the canonical NaN.
template <class F>
inline Bits from_double(double d, Round mode) {
  if (std::isnan(d)) return kCanonicalNan;
  if (std::isinf(d)) return static_cast<Bits>((d < 0 ? 0x8000u : 0u) | exponent_mask<F>());
  return from_exact<F>(fp::exact(d), mode);
}
template <class F>
inline Bits from_float(float f, Round mode) {
  return from_double<F>(static_cast<double>(f), mode);  // exact widening
}
// __double2half and __double2bfloat16, which CUDA computes in software: a NaN keeps its sign and
// the top of its payload, made quiet (0x7ff8000000000000 -> 0x7e00 for binary16).
template <class F>
inline Bits from_double_keeping_nan(double d, Round mode) {
  if (!std::isnan(d)) return from_double<F>(d, mode);
  const auto bits = fp::bit_cast<std::uint64_t>(d);
  const auto sign = static_cast<Bits>((bits >> 48) & 0x8000u);
  const auto payload = static_cast<Bits>((bits >> (52 - F::format.fraction_bits)) &
                                         ((1u << F::format.fraction_bits) - 1));
  const auto quiet = static_cast<Bits>(1u << (F::format.fraction_bits - 1));
  return static_cast<Bits>(sign | exponent_mask<F>() | quiet | payload);
}
template <class F, class Int>
inline Bits from_integer(Int v, Round mode) {
  if constexpr (std::is_signed_v<Int>) {
    return from_exact<F>(fp::exact_integer(static_cast<long long>(v)), mode);
  } else {
    return from_exact<F>(fp::exact_integer(static_cast<unsigned long long>(v)), mode);
  }
}

// 16 bits to an integer type in `mode`, saturating; NaN gives `nan` (0, or 0x8000000000000000 for
// the 64-bit types, as CUDA documents).
template <class F, class Int>
inline Int to_integer(Bits x, Round mode) {
  constexpr Int nan_value = sizeof(Int) == 8 ? static_cast<Int>(0x8000000000000000ull) : Int{0};
  return fp::to_integer<Int>(static_cast<double>(to_float<F>(x)), mode, nan_value);
}

// One operation on floats (exact values of the 16-bit inputs), rounded to nearest even.
template <class F>
inline Bits round_float(float r) {
  return from_float<F>(r, Round::nearest_even);
}

template <class F>
inline Bits add(Bits a, Bits b) {
  return round_float<F>(to_float<F>(a) + to_float<F>(b));
}
template <class F>
inline Bits sub(Bits a, Bits b) {
  return round_float<F>(to_float<F>(a) - to_float<F>(b));
}
template <class F>
inline Bits mul(Bits a, Bits b) {
  return round_float<F>(to_float<F>(a) * to_float<F>(b));
}
template <class F>
inline Bits div(Bits a, Bits b) {
  return round_float<F>(to_float<F>(a) / to_float<F>(b));
}

// a * b + c rounded once: the product is exact in double (at most 22 significant bits), the sum is
// the double s plus its exact error e (TwoSum), and s + e is rounded to 16 bits.
template <class F>
inline Bits fma(Bits a, Bits b, Bits c) {
  const double product = static_cast<double>(to_float<F>(a)) * static_cast<double>(to_float<F>(b));
  const double addend = to_float<F>(c);
  const double s = product + addend;
  if (std::isnan(s)) return kCanonicalNan;
  if (std::isinf(s)) return from_double<F>(s, Round::nearest_even);
  const double virtual_addend = s - product;
  const double e = (product - (s - virtual_addend)) + (addend - virtual_addend);
  if (s == 0 && e == 0) {  // exact zero: IEEE's sign rules, as the double sum has them
    return from_double<F>(s, Round::nearest_even);
  }
  return from_exact<F>(fp::exact(s, e), Round::nearest_even);
}

// The sign flipped or cleared; a NaN gives the canonical NaN.
template <class F>
inline Bits neg(Bits a) {
  return is_nan<F>(a) ? kCanonicalNan : static_cast<Bits>(a ^ 0x8000u);
}
template <class F>
inline Bits abs(Bits a) {
  return is_nan<F>(a) ? kCanonicalNan : static_cast<Bits>(a & 0x7fffu);
}

// Clamped to [0.0, 1.0]; NaN becomes +0.0 (the _sat variants).
template <class F>
inline Bits saturate(Bits a) {
  if (is_nan<F>(a)) return 0;
  const float v = to_float<F>(a);
  if (v <= 0.0f) return 0;
  if (v >= 1.0f) return F::one;
  return a;
}
// max(a, 0) for the _relu variants; NaN stays NaN (canonical).
template <class F>
inline Bits relu(Bits a) {
  if (is_nan<F>(a)) return kCanonicalNan;
  return to_float<F>(a) <= 0.0f ? Bits{0} : a;
}

// Comparisons: ordered ones are false with a NaN operand, unordered ones true.
enum class Compare { eq, ne, le, ge, lt, gt };
template <class F>
inline bool ordered(Compare c, Bits a, Bits b) {
  const float x = to_float<F>(a), y = to_float<F>(b);
  switch (c) {
    case Compare::eq:
      return x == y;
    case Compare::ne:
      return x < y || x > y;
    case Compare::le:
      return x <= y;
    case Compare::ge:
      return x >= y;
    case Compare::lt:
      return x < y;
    case Compare::gt:
      return x > y;
  }
  return false;
}
template <class F>
inline bool unordered(Compare c, Bits a, Bits b) {
  return is_nan<F>(a) || is_nan<F>(b) || ordered<F>(c, a, b);
}

// max and min: a NaN operand yields the other one (both NaN: canonical NaN); +0 is above -0.
template <class F>
inline Bits max(Bits a, Bits b) {
  if (is_nan<F>(a)) return is_nan<F>(b) ? kCanonicalNan : b;
  if (is_nan<F>(b)) return a;
  const float x = to_float<F>(a), y = to_float<F>(b);
  if (x == y) return (a & 0x8000u) != 0 ? b : a;  // +0 over -0
  return x > y ? a : b;
}
template <class F>
inline Bits min(Bits a, Bits b) {
  if (is_nan<F>(a)) return is_nan<F>(b) ? kCanonicalNan : b;
  if (is_nan<F>(b)) return a;
  const float x = to_float<F>(a), y = to_float<F>(b);
  if (x == y) return (a & 0x8000u) != 0 ? a : b;  // -0 under +0
  return x < y ? a : b;
}
// The _nan variants: a NaN operand yields the canonical NaN.
template <class F>
inline Bits max_nan(Bits a, Bits b) {
  return is_nan<F>(a) || is_nan<F>(b) ? kCanonicalNan : max<F>(a, b);
}
template <class F>
inline Bits min_nan(Bits a, Bits b) {
  return is_nan<F>(a) || is_nan<F>(b) ? kCanonicalNan : min<F>(a, b);
}

// A function of the exact input, computed in double and rounded to nearest even.
template <class F, class Fn>
inline Bits apply(Bits a, Fn fn) {
  if (is_nan<F>(a)) return kCanonicalNan;
  return from_double<F>(fn(static_cast<double>(to_float<F>(a))), Round::nearest_even);
}

// Round to an integral 16-bit value (htrunc, hceil, hfloor, hrint); NaN stays NaN (canonical).
template <class F>
inline Bits integral(Bits a, Round mode) {
  if (is_nan<F>(a)) return kCanonicalNan;
  if (is_inf<F>(a)) return a;
  const double r = fp::round_integral(static_cast<double>(to_float<F>(a)), mode);
  if (r == 0) return static_cast<Bits>(a & 0x8000u);  // keeps the sign: -0.3 -> -0.0
  return from_double<F>(r, Round::nearest_even);
}

// -1 for -infinity, 1 for +infinity, 0 otherwise (__hisinf).
template <class F>
inline int infinity_sign(Bits a) {
  if (!is_inf<F>(a)) return 0;
  return (a & 0x8000u) != 0 ? -1 : 1;
}

}  // namespace warpsim::shim::f16
