// cuda_fp16.h's API for __half and __half2 (the types are in half_types.hpp): conversions in every
// rounding mode, arithmetic, comparisons, math functions and operators, as the toolkit documents
// them. What is exact and what is approximate: float16_ops.hpp.
//   __float2half_rz(65520.0f) == 65504 (max finite); __float2half_rn(65520.0f) == +inf;
//   __half2int_rn(2.5) == 2; __half2ull_rz(NaN) == 0x8000000000000000
#pragma once

#include "warpsim/atomics.hpp"
#include "warpsim/float16_ops.hpp"
#include "warpsim/half_types.hpp"

namespace warpsim::shim::f16 {
template <class Int, class H>
inline Int to_int(H h, Round mode) {
  return to_integer<typename H::Format, Int>(h.warpsim_bits(), mode);
}
template <class H, class Int>
inline H from_int(Int i, Round mode) {
  return H::warpsim_from_bits(from_integer<typename H::Format>(i, mode));
}
template <class H>
inline H from_float_in(float f, Round mode) {
  return H::warpsim_from_bits(from_float<typename H::Format>(f, mode));
}
}  // namespace warpsim::shim::f16

// ---- float and double
inline __half __double2half(const double d) {
  return __half::warpsim_from_bits(
      warpsim::shim::f16::from_double_keeping_nan<warpsim::shim::f16::Binary16>(
          d, warpsim::shim::fp::Round::nearest_even));
}
inline __half __float2half(const float f) {
  return warpsim::shim::f16::from_float_in<__half>(f, warpsim::shim::fp::Round::nearest_even);
}
inline __half __float2half_rn(const float f) {
  return warpsim::shim::f16::from_float_in<__half>(f, warpsim::shim::fp::Round::nearest_even);
}
inline __half __float2half_rz(const float f) {
  return warpsim::shim::f16::from_float_in<__half>(f, warpsim::shim::fp::Round::toward_zero);
}
inline __half __float2half_rd(const float f) {
  return warpsim::shim::f16::from_float_in<__half>(f, warpsim::shim::fp::Round::down);
}
inline __half __float2half_ru(const float f) {
  return warpsim::shim::f16::from_float_in<__half>(f, warpsim::shim::fp::Round::up);
}
inline float __half2float(const __half h) { return static_cast<float>(h); }
inline __half2 __float2half2_rn(const float f) {
  return __half2(__float2half_rn(f), __float2half_rn(f));
}
inline __half2 __floats2half2_rn(const float a, const float b) {
  return __half2(__float2half_rn(a), __float2half_rn(b));
}
inline __half2 __float22half2_rn(const float2 f) { return __floats2half2_rn(f.x, f.y); }
inline float2 __half22float2(const __half2 h) {
  return make_float2(__half2float(h.x), __half2float(h.y));
}

// ---- integers: to them saturating (NaN: 0, or 0x8000000000000000 for the 64-bit ones)
inline int __half2int_rn(const __half h) {
  return warpsim::shim::f16::to_int<int>(h, warpsim::shim::fp::Round::nearest_even);
}
inline int __half2int_rz(const __half h) {
  return warpsim::shim::f16::to_int<int>(h, warpsim::shim::fp::Round::toward_zero);
}
inline int __half2int_rd(const __half h) {
  return warpsim::shim::f16::to_int<int>(h, warpsim::shim::fp::Round::down);
}
inline int __half2int_ru(const __half h) {
  return warpsim::shim::f16::to_int<int>(h, warpsim::shim::fp::Round::up);
}
inline __half __int2half_rn(const int i) {
  return warpsim::shim::f16::from_int<__half>(i, warpsim::shim::fp::Round::nearest_even);
}
inline __half __int2half_rz(const int i) {
  return warpsim::shim::f16::from_int<__half>(i, warpsim::shim::fp::Round::toward_zero);
}
inline __half __int2half_rd(const int i) {
  return warpsim::shim::f16::from_int<__half>(i, warpsim::shim::fp::Round::down);
}
inline __half __int2half_ru(const int i) {
  return warpsim::shim::f16::from_int<__half>(i, warpsim::shim::fp::Round::up);
}
inline short __half2short_rn(const __half h) {
  return warpsim::shim::f16::to_int<short>(h, warpsim::shim::fp::Round::nearest_even);
}
inline short __half2short_rz(const __half h) {
  return warpsim::shim::f16::to_int<short>(h, warpsim::shim::fp::Round::toward_zero);
}
inline short __half2short_rd(const __half h) {
  return warpsim::shim::f16::to_int<short>(h, warpsim::shim::fp::Round::down);
}
inline short __half2short_ru(const __half h) {
  return warpsim::shim::f16::to_int<short>(h, warpsim::shim::fp::Round::up);
}
inline __half __short2half_rn(const short i) {
  return warpsim::shim::f16::from_int<__half>(i, warpsim::shim::fp::Round::nearest_even);
}
inline __half __short2half_rz(const short i) {
  return warpsim::shim::f16::from_int<__half>(i, warpsim::shim::fp::Round::toward_zero);
}
inline __half __short2half_rd(const short i) {
  return warpsim::shim::f16::from_int<__half>(i, warpsim::shim::fp::Round::down);
}
inline __half __short2half_ru(const short i) {
  return warpsim::shim::f16::from_int<__half>(i, warpsim::shim::fp::Round::up);
}
inline unsigned int __half2uint_rn(const __half h) {
  return warpsim::shim::f16::to_int<unsigned int>(h, warpsim::shim::fp::Round::nearest_even);
}
inline unsigned int __half2uint_rz(const __half h) {
  return warpsim::shim::f16::to_int<unsigned int>(h, warpsim::shim::fp::Round::toward_zero);
}
inline unsigned int __half2uint_rd(const __half h) {
  return warpsim::shim::f16::to_int<unsigned int>(h, warpsim::shim::fp::Round::down);
}
inline unsigned int __half2uint_ru(const __half h) {
  return warpsim::shim::f16::to_int<unsigned int>(h, warpsim::shim::fp::Round::up);
}
inline __half __uint2half_rn(const unsigned int i) {
  return warpsim::shim::f16::from_int<__half>(i, warpsim::shim::fp::Round::nearest_even);
}
inline __half __uint2half_rz(const unsigned int i) {
  return warpsim::shim::f16::from_int<__half>(i, warpsim::shim::fp::Round::toward_zero);
}
inline __half __uint2half_rd(const unsigned int i) {
  return warpsim::shim::f16::from_int<__half>(i, warpsim::shim::fp::Round::down);
}
inline __half __uint2half_ru(const unsigned int i) {
  return warpsim::shim::f16::from_int<__half>(i, warpsim::shim::fp::Round::up);
}
inline unsigned short __half2ushort_rn(const __half h) {
  return warpsim::shim::f16::to_int<unsigned short>(h, warpsim::shim::fp::Round::nearest_even);
}
inline unsigned short __half2ushort_rz(const __half h) {
  return warpsim::shim::f16::to_int<unsigned short>(h, warpsim::shim::fp::Round::toward_zero);
}
inline unsigned short __half2ushort_rd(const __half h) {
  return warpsim::shim::f16::to_int<unsigned short>(h, warpsim::shim::fp::Round::down);
}
inline unsigned short __half2ushort_ru(const __half h) {
  return warpsim::shim::f16::to_int<unsigned short>(h, warpsim::shim::fp::Round::up);
}
inline __half __ushort2half_rn(const unsigned short i) {
  return warpsim::shim::f16::from_int<__half>(i, warpsim::shim::fp::Round::nearest_even);
}
inline __half __ushort2half_rz(const unsigned short i) {
  return warpsim::shim::f16::from_int<__half>(i, warpsim::shim::fp::Round::toward_zero);
}
inline __half __ushort2half_rd(const unsigned short i) {
  return warpsim::shim::f16::from_int<__half>(i, warpsim::shim::fp::Round::down);
}
inline __half __ushort2half_ru(const unsigned short i) {
  return warpsim::shim::f16::from_int<__half>(i, warpsim::shim::fp::Round::up);
}
inline long long __half2ll_rn(const __half h) {
  return warpsim::shim::f16::to_int<long long>(h, warpsim::shim::fp::Round::nearest_even);
}
inline long long __half2ll_rz(const __half h) {
  return warpsim::shim::f16::to_int<long long>(h, warpsim::shim::fp::Round::toward_zero);
}
inline long long __half2ll_rd(const __half h) {
  return warpsim::shim::f16::to_int<long long>(h, warpsim::shim::fp::Round::down);
}
inline long long __half2ll_ru(const __half h) {
  return warpsim::shim::f16::to_int<long long>(h, warpsim::shim::fp::Round::up);
}
inline __half __ll2half_rn(const long long i) {
  return warpsim::shim::f16::from_int<__half>(i, warpsim::shim::fp::Round::nearest_even);
}
inline __half __ll2half_rz(const long long i) {
  return warpsim::shim::f16::from_int<__half>(i, warpsim::shim::fp::Round::toward_zero);
}
inline __half __ll2half_rd(const long long i) {
  return warpsim::shim::f16::from_int<__half>(i, warpsim::shim::fp::Round::down);
}
inline __half __ll2half_ru(const long long i) {
  return warpsim::shim::f16::from_int<__half>(i, warpsim::shim::fp::Round::up);
}
inline unsigned long long __half2ull_rn(const __half h) {
  return warpsim::shim::f16::to_int<unsigned long long>(h, warpsim::shim::fp::Round::nearest_even);
}
inline unsigned long long __half2ull_rz(const __half h) {
  return warpsim::shim::f16::to_int<unsigned long long>(h, warpsim::shim::fp::Round::toward_zero);
}
inline unsigned long long __half2ull_rd(const __half h) {
  return warpsim::shim::f16::to_int<unsigned long long>(h, warpsim::shim::fp::Round::down);
}
inline unsigned long long __half2ull_ru(const __half h) {
  return warpsim::shim::f16::to_int<unsigned long long>(h, warpsim::shim::fp::Round::up);
}
inline __half __ull2half_rn(const unsigned long long i) {
  return warpsim::shim::f16::from_int<__half>(i, warpsim::shim::fp::Round::nearest_even);
}
inline __half __ull2half_rz(const unsigned long long i) {
  return warpsim::shim::f16::from_int<__half>(i, warpsim::shim::fp::Round::toward_zero);
}
inline __half __ull2half_rd(const unsigned long long i) {
  return warpsim::shim::f16::from_int<__half>(i, warpsim::shim::fp::Round::down);
}
inline __half __ull2half_ru(const unsigned long long i) {
  return warpsim::shim::f16::from_int<__half>(i, warpsim::shim::fp::Round::up);
}
inline signed char __half2char_rz(const __half h) {
  return warpsim::shim::f16::to_int<signed char>(h, warpsim::shim::fp::Round::toward_zero);
}
inline unsigned char __half2uchar_rz(const __half h) {
  return warpsim::shim::f16::to_int<unsigned char>(h, warpsim::shim::fp::Round::toward_zero);
}

// ---- building pairs, taking halves, reinterpreting bits
inline __half2 make_half2(const __half x, const __half y) { return __half2(x, y); }
inline __half2 __halves2half2(const __half a, const __half b) { return __half2(a, b); }
inline __half2 __half2half2(const __half a) { return __half2(a, a); }
inline __half2 __lows2half2(const __half2 a, const __half2 b) { return __half2(a.x, b.x); }
inline __half2 __highs2half2(const __half2 a, const __half2 b) { return __half2(a.y, b.y); }
inline __half __low2half(const __half2 a) { return a.x; }
inline __half __high2half(const __half2 a) { return a.y; }
inline __half2 __low2half2(const __half2 a) { return __half2(a.x, a.x); }
inline __half2 __high2half2(const __half2 a) { return __half2(a.y, a.y); }
inline short __half_as_short(const __half h) { return static_cast<short>(h.warpsim_bits()); }
inline unsigned short __half_as_ushort(const __half h) { return h.warpsim_bits(); }
inline __half __short_as_half(const short i) {
  return __half::warpsim_from_bits(static_cast<unsigned short>(i));
}
inline __half __ushort_as_half(const unsigned short i) { return __half::warpsim_from_bits(i); }

#define WARPSIM_H __half
#define WARPSIM_H2 __half2
#include "warpsim/float16_api.inc"
#undef WARPSIM_H
#undef WARPSIM_H2
