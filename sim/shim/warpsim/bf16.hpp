// cuda_bf16.h's API for __nv_bfloat16 and __nv_bfloat162 (the types are in half_types.hpp):
// conversions in every rounding mode, arithmetic, comparisons, math functions and operators, as
// the toolkit documents them. What is exact and what is approximate: float16_ops.hpp.
//   __float2bfloat16_rn(1.00390625f) == 1.0 (a tie, to even); __bfloat162float is exact.
#pragma once

#include "warpsim/fp16.hpp"  // as CUDA's cuda_bf16.h includes cuda_fp16.h

// ---- float and double
inline __nv_bfloat16 __double2bfloat16(const double d) {
  return __nv_bfloat16::warpsim_from_bits(
      warpsim::shim::f16::from_double_keeping_nan<warpsim::shim::f16::Bfloat16>(
          d, warpsim::shim::fp::Round::nearest_even));
}
inline __nv_bfloat16 __float2bfloat16(const float f) {
  return warpsim::shim::f16::from_float_in<__nv_bfloat16>(f,
                                                          warpsim::shim::fp::Round::nearest_even);
}
inline __nv_bfloat16 __float2bfloat16_rn(const float f) {
  return warpsim::shim::f16::from_float_in<__nv_bfloat16>(f,
                                                          warpsim::shim::fp::Round::nearest_even);
}
inline __nv_bfloat16 __float2bfloat16_rz(const float f) {
  return warpsim::shim::f16::from_float_in<__nv_bfloat16>(f, warpsim::shim::fp::Round::toward_zero);
}
inline __nv_bfloat16 __float2bfloat16_rd(const float f) {
  return warpsim::shim::f16::from_float_in<__nv_bfloat16>(f, warpsim::shim::fp::Round::down);
}
inline __nv_bfloat16 __float2bfloat16_ru(const float f) {
  return warpsim::shim::f16::from_float_in<__nv_bfloat16>(f, warpsim::shim::fp::Round::up);
}
inline float __bfloat162float(const __nv_bfloat16 b) { return static_cast<float>(b); }
inline __nv_bfloat162 __float2bfloat162_rn(const float f) {
  return __nv_bfloat162(__float2bfloat16_rn(f), __float2bfloat16_rn(f));
}
inline __nv_bfloat162 __floats2bfloat162_rn(const float a, const float b) {
  return __nv_bfloat162(__float2bfloat16_rn(a), __float2bfloat16_rn(b));
}
inline __nv_bfloat162 __float22bfloat162_rn(const float2 f) {
  return __floats2bfloat162_rn(f.x, f.y);
}
inline float2 __bfloat1622float2(const __nv_bfloat162 b) {
  return make_float2(__bfloat162float(b.x), __bfloat162float(b.y));
}

// ---- integers: to them saturating (NaN: 0, or 0x8000000000000000 for the 64-bit ones)
inline int __bfloat162int_rn(const __nv_bfloat16 h) {
  return warpsim::shim::f16::to_int<int>(h, warpsim::shim::fp::Round::nearest_even);
}
inline int __bfloat162int_rz(const __nv_bfloat16 h) {
  return warpsim::shim::f16::to_int<int>(h, warpsim::shim::fp::Round::toward_zero);
}
inline int __bfloat162int_rd(const __nv_bfloat16 h) {
  return warpsim::shim::f16::to_int<int>(h, warpsim::shim::fp::Round::down);
}
inline int __bfloat162int_ru(const __nv_bfloat16 h) {
  return warpsim::shim::f16::to_int<int>(h, warpsim::shim::fp::Round::up);
}
inline __nv_bfloat16 __int2bfloat16_rn(const int i) {
  return warpsim::shim::f16::from_int<__nv_bfloat16>(i, warpsim::shim::fp::Round::nearest_even);
}
inline __nv_bfloat16 __int2bfloat16_rz(const int i) {
  return warpsim::shim::f16::from_int<__nv_bfloat16>(i, warpsim::shim::fp::Round::toward_zero);
}
inline __nv_bfloat16 __int2bfloat16_rd(const int i) {
  return warpsim::shim::f16::from_int<__nv_bfloat16>(i, warpsim::shim::fp::Round::down);
}
inline __nv_bfloat16 __int2bfloat16_ru(const int i) {
  return warpsim::shim::f16::from_int<__nv_bfloat16>(i, warpsim::shim::fp::Round::up);
}
inline short __bfloat162short_rn(const __nv_bfloat16 h) {
  return warpsim::shim::f16::to_int<short>(h, warpsim::shim::fp::Round::nearest_even);
}
inline short __bfloat162short_rz(const __nv_bfloat16 h) {
  return warpsim::shim::f16::to_int<short>(h, warpsim::shim::fp::Round::toward_zero);
}
inline short __bfloat162short_rd(const __nv_bfloat16 h) {
  return warpsim::shim::f16::to_int<short>(h, warpsim::shim::fp::Round::down);
}
inline short __bfloat162short_ru(const __nv_bfloat16 h) {
  return warpsim::shim::f16::to_int<short>(h, warpsim::shim::fp::Round::up);
}
inline __nv_bfloat16 __short2bfloat16_rn(const short i) {
  return warpsim::shim::f16::from_int<__nv_bfloat16>(i, warpsim::shim::fp::Round::nearest_even);
}
inline __nv_bfloat16 __short2bfloat16_rz(const short i) {
  return warpsim::shim::f16::from_int<__nv_bfloat16>(i, warpsim::shim::fp::Round::toward_zero);
}
inline __nv_bfloat16 __short2bfloat16_rd(const short i) {
  return warpsim::shim::f16::from_int<__nv_bfloat16>(i, warpsim::shim::fp::Round::down);
}
inline __nv_bfloat16 __short2bfloat16_ru(const short i) {
  return warpsim::shim::f16::from_int<__nv_bfloat16>(i, warpsim::shim::fp::Round::up);
}
inline unsigned int __bfloat162uint_rn(const __nv_bfloat16 h) {
  return warpsim::shim::f16::to_int<unsigned int>(h, warpsim::shim::fp::Round::nearest_even);
}
inline unsigned int __bfloat162uint_rz(const __nv_bfloat16 h) {
  return warpsim::shim::f16::to_int<unsigned int>(h, warpsim::shim::fp::Round::toward_zero);
}
inline unsigned int __bfloat162uint_rd(const __nv_bfloat16 h) {
  return warpsim::shim::f16::to_int<unsigned int>(h, warpsim::shim::fp::Round::down);
}
inline unsigned int __bfloat162uint_ru(const __nv_bfloat16 h) {
  return warpsim::shim::f16::to_int<unsigned int>(h, warpsim::shim::fp::Round::up);
}
inline __nv_bfloat16 __uint2bfloat16_rn(const unsigned int i) {
  return warpsim::shim::f16::from_int<__nv_bfloat16>(i, warpsim::shim::fp::Round::nearest_even);
}
inline __nv_bfloat16 __uint2bfloat16_rz(const unsigned int i) {
  return warpsim::shim::f16::from_int<__nv_bfloat16>(i, warpsim::shim::fp::Round::toward_zero);
}
inline __nv_bfloat16 __uint2bfloat16_rd(const unsigned int i) {
  return warpsim::shim::f16::from_int<__nv_bfloat16>(i, warpsim::shim::fp::Round::down);
}
inline __nv_bfloat16 __uint2bfloat16_ru(const unsigned int i) {
  return warpsim::shim::f16::from_int<__nv_bfloat16>(i, warpsim::shim::fp::Round::up);
}
inline unsigned short __bfloat162ushort_rn(const __nv_bfloat16 h) {
  return warpsim::shim::f16::to_int<unsigned short>(h, warpsim::shim::fp::Round::nearest_even);
}
inline unsigned short __bfloat162ushort_rz(const __nv_bfloat16 h) {
  return warpsim::shim::f16::to_int<unsigned short>(h, warpsim::shim::fp::Round::toward_zero);
}
inline unsigned short __bfloat162ushort_rd(const __nv_bfloat16 h) {
  return warpsim::shim::f16::to_int<unsigned short>(h, warpsim::shim::fp::Round::down);
}
inline unsigned short __bfloat162ushort_ru(const __nv_bfloat16 h) {
  return warpsim::shim::f16::to_int<unsigned short>(h, warpsim::shim::fp::Round::up);
}
inline __nv_bfloat16 __ushort2bfloat16_rn(const unsigned short i) {
  return warpsim::shim::f16::from_int<__nv_bfloat16>(i, warpsim::shim::fp::Round::nearest_even);
}
inline __nv_bfloat16 __ushort2bfloat16_rz(const unsigned short i) {
  return warpsim::shim::f16::from_int<__nv_bfloat16>(i, warpsim::shim::fp::Round::toward_zero);
}
inline __nv_bfloat16 __ushort2bfloat16_rd(const unsigned short i) {
  return warpsim::shim::f16::from_int<__nv_bfloat16>(i, warpsim::shim::fp::Round::down);
}
inline __nv_bfloat16 __ushort2bfloat16_ru(const unsigned short i) {
  return warpsim::shim::f16::from_int<__nv_bfloat16>(i, warpsim::shim::fp::Round::up);
}
inline long long __bfloat162ll_rn(const __nv_bfloat16 h) {
  return warpsim::shim::f16::to_int<long long>(h, warpsim::shim::fp::Round::nearest_even);
}
inline long long __bfloat162ll_rz(const __nv_bfloat16 h) {
  return warpsim::shim::f16::to_int<long long>(h, warpsim::shim::fp::Round::toward_zero);
}
inline long long __bfloat162ll_rd(const __nv_bfloat16 h) {
  return warpsim::shim::f16::to_int<long long>(h, warpsim::shim::fp::Round::down);
}
inline long long __bfloat162ll_ru(const __nv_bfloat16 h) {
  return warpsim::shim::f16::to_int<long long>(h, warpsim::shim::fp::Round::up);
}
inline __nv_bfloat16 __ll2bfloat16_rn(const long long i) {
  return warpsim::shim::f16::from_int<__nv_bfloat16>(i, warpsim::shim::fp::Round::nearest_even);
}
inline __nv_bfloat16 __ll2bfloat16_rz(const long long i) {
  return warpsim::shim::f16::from_int<__nv_bfloat16>(i, warpsim::shim::fp::Round::toward_zero);
}
inline __nv_bfloat16 __ll2bfloat16_rd(const long long i) {
  return warpsim::shim::f16::from_int<__nv_bfloat16>(i, warpsim::shim::fp::Round::down);
}
inline __nv_bfloat16 __ll2bfloat16_ru(const long long i) {
  return warpsim::shim::f16::from_int<__nv_bfloat16>(i, warpsim::shim::fp::Round::up);
}
inline unsigned long long __bfloat162ull_rn(const __nv_bfloat16 h) {
  return warpsim::shim::f16::to_int<unsigned long long>(h, warpsim::shim::fp::Round::nearest_even);
}
inline unsigned long long __bfloat162ull_rz(const __nv_bfloat16 h) {
  return warpsim::shim::f16::to_int<unsigned long long>(h, warpsim::shim::fp::Round::toward_zero);
}
inline unsigned long long __bfloat162ull_rd(const __nv_bfloat16 h) {
  return warpsim::shim::f16::to_int<unsigned long long>(h, warpsim::shim::fp::Round::down);
}
inline unsigned long long __bfloat162ull_ru(const __nv_bfloat16 h) {
  return warpsim::shim::f16::to_int<unsigned long long>(h, warpsim::shim::fp::Round::up);
}
inline __nv_bfloat16 __ull2bfloat16_rn(const unsigned long long i) {
  return warpsim::shim::f16::from_int<__nv_bfloat16>(i, warpsim::shim::fp::Round::nearest_even);
}
inline __nv_bfloat16 __ull2bfloat16_rz(const unsigned long long i) {
  return warpsim::shim::f16::from_int<__nv_bfloat16>(i, warpsim::shim::fp::Round::toward_zero);
}
inline __nv_bfloat16 __ull2bfloat16_rd(const unsigned long long i) {
  return warpsim::shim::f16::from_int<__nv_bfloat16>(i, warpsim::shim::fp::Round::down);
}
inline __nv_bfloat16 __ull2bfloat16_ru(const unsigned long long i) {
  return warpsim::shim::f16::from_int<__nv_bfloat16>(i, warpsim::shim::fp::Round::up);
}
inline signed char __bfloat162char_rz(const __nv_bfloat16 h) {
  return warpsim::shim::f16::to_int<signed char>(h, warpsim::shim::fp::Round::toward_zero);
}
inline unsigned char __bfloat162uchar_rz(const __nv_bfloat16 h) {
  return warpsim::shim::f16::to_int<unsigned char>(h, warpsim::shim::fp::Round::toward_zero);
}

// ---- building pairs, taking halves, reinterpreting bits
inline __nv_bfloat162 make_bfloat162(const __nv_bfloat16 x, const __nv_bfloat16 y) {
  return __nv_bfloat162(x, y);
}
inline __nv_bfloat162 __halves2bfloat162(const __nv_bfloat16 a, const __nv_bfloat16 b) {
  return __nv_bfloat162(a, b);
}
inline __nv_bfloat162 __bfloat162bfloat162(const __nv_bfloat16 a) { return __nv_bfloat162(a, a); }
inline __nv_bfloat162 __lows2bfloat162(const __nv_bfloat162 a, const __nv_bfloat162 b) {
  return __nv_bfloat162(a.x, b.x);
}
inline __nv_bfloat162 __highs2bfloat162(const __nv_bfloat162 a, const __nv_bfloat162 b) {
  return __nv_bfloat162(a.y, b.y);
}
inline __nv_bfloat16 __low2bfloat16(const __nv_bfloat162 a) { return a.x; }
inline __nv_bfloat16 __high2bfloat16(const __nv_bfloat162 a) { return a.y; }
inline __nv_bfloat162 __low2bfloat162(const __nv_bfloat162 a) { return __nv_bfloat162(a.x, a.x); }
inline __nv_bfloat162 __high2bfloat162(const __nv_bfloat162 a) { return __nv_bfloat162(a.y, a.y); }
inline short __bfloat16_as_short(const __nv_bfloat16 h) {
  return static_cast<short>(h.warpsim_bits());
}
inline unsigned short __bfloat16_as_ushort(const __nv_bfloat16 h) { return h.warpsim_bits(); }
inline __nv_bfloat16 __short_as_bfloat16(const short i) {
  return __nv_bfloat16::warpsim_from_bits(static_cast<unsigned short>(i));
}
inline __nv_bfloat16 __ushort_as_bfloat16(const unsigned short i) {
  return __nv_bfloat16::warpsim_from_bits(i);
}

#define WARPSIM_H __nv_bfloat16
#define WARPSIM_H2 __nv_bfloat162
#include "warpsim/float16_api.inc"
#undef WARPSIM_H
#undef WARPSIM_H2
