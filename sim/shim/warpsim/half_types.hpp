// __half, __half2, __nv_bfloat16, __nv_bfloat162: storage and round-to-nearest-even conversions
// as CUDA's cuda_fp16.h / cuda_bf16.h define them; arithmetic goes through float (exact for one
// operation, as a float result rounds once to the 16-bit type).
#pragma once

#include <cstdint>
#include <cstring>

#include "warpsim/vector_types.hpp"

namespace warpsim::shim {

inline std::uint32_t float_bits(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, sizeof x);
  return x;
}
inline float bits_float(std::uint32_t x) {
  float f;
  std::memcpy(&f, &x, sizeof f);
  return f;
}

inline unsigned short float_to_half_bits(float f) {
  const std::uint32_t x = float_bits(f);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t exponent = (x >> 23) & 0xffu;
  std::uint32_t mantissa = x & 0x7fffffu;
  if (exponent == 0xffu) return static_cast<unsigned short>(mantissa != 0 ? 0x7fffu : sign | 0x7c00u);
  const int e = static_cast<int>(exponent) - 127 + 15;
  if (e >= 31) return static_cast<unsigned short>(sign | 0x7c00u);
  if (e <= 0) {
    if (e < -10) return static_cast<unsigned short>(sign);
    mantissa |= 0x800000u;
    const int shift = 14 - e;
    std::uint32_t h = mantissa >> shift;
    const std::uint32_t rest = mantissa & ((1u << shift) - 1);
    const std::uint32_t half_way = 1u << (shift - 1);
    if (rest > half_way || (rest == half_way && (h & 1u))) ++h;
    return static_cast<unsigned short>(sign | h);
  }
  std::uint32_t h = sign | (static_cast<std::uint32_t>(e) << 10) | (mantissa >> 13);
  const std::uint32_t rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // a carry rounds up to inf
  return static_cast<unsigned short>(h);
}

inline float half_bits_to_float(unsigned short h) {
  const std::uint32_t sign = (std::uint32_t{h} & 0x8000u) << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1fu;
  std::uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0) {
    if (mantissa == 0) return bits_float(sign);
    int e = -14;
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      --e;
    }
    mantissa &= 0x3ffu;
    return bits_float(sign | (static_cast<std::uint32_t>(e + 127) << 23) | (mantissa << 13));
  }
  if (exponent == 31) return bits_float(sign | 0x7f800000u | (mantissa << 13));
  return bits_float(sign | ((exponent - 15 + 127) << 23) | (mantissa << 13));
}

inline unsigned short float_to_bf16_bits(float f) {
  const std::uint32_t x = float_bits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return 0x7fffu;
  return static_cast<unsigned short>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

inline float bf16_bits_to_float(unsigned short b) { return bits_float(std::uint32_t{b} << 16); }

}  // namespace warpsim::shim

struct __half {
  unsigned short __x;
  __half() = default;
  __half(float f) : __x(warpsim::shim::float_to_half_bits(f)) {}
  __half(double d) : __half(static_cast<float>(d)) {}
  __half(int i) : __half(static_cast<float>(i)) {}
  operator float() const { return warpsim::shim::half_bits_to_float(__x); }
};

struct __half2 {
  __half x, y;
};

struct __nv_bfloat16 {
  unsigned short __x;
  __nv_bfloat16() = default;
  __nv_bfloat16(float f) : __x(warpsim::shim::float_to_bf16_bits(f)) {}
  __nv_bfloat16(double d) : __nv_bfloat16(static_cast<float>(d)) {}
  __nv_bfloat16(int i) : __nv_bfloat16(static_cast<float>(i)) {}
  operator float() const { return warpsim::shim::bf16_bits_to_float(__x); }
};

struct __nv_bfloat162 {
  __nv_bfloat16 x, y;
};

using half = __half;
using half2 = __half2;
using nv_bfloat16 = __nv_bfloat16;
using nv_bfloat162 = __nv_bfloat162;

inline __half __float2half(float f) { return __half(f); }
inline __half __float2half_rn(float f) { return __half(f); }
inline float __half2float(__half h) { return static_cast<float>(h); }
inline __half2 __floats2half2_rn(float a, float b) { return {__half(a), __half(b)}; }
inline __half2 __float2half2_rn(float a) { return {__half(a), __half(a)}; }
inline __half2 __halves2half2(__half a, __half b) { return {a, b}; }
inline float2 __half22float2(__half2 h) { return {static_cast<float>(h.x), static_cast<float>(h.y)}; }
inline float __low2float(__half2 h) { return static_cast<float>(h.x); }
inline float __high2float(__half2 h) { return static_cast<float>(h.y); }
inline __half __low2half(__half2 h) { return h.x; }
inline __half __high2half(__half2 h) { return h.y; }
inline __half __ushort_as_half(unsigned short u) { __half h; h.__x = u; return h; }
inline unsigned short __half_as_ushort(__half h) { return h.__x; }
inline __half __hadd(__half a, __half b) { return __half(float(a) + float(b)); }
inline __half __hsub(__half a, __half b) { return __half(float(a) - float(b)); }
inline __half __hmul(__half a, __half b) { return __half(float(a) * float(b)); }
inline __half __hdiv(__half a, __half b) { return __half(float(a) / float(b)); }
inline __half __hmax(__half a, __half b) { return float(a) >= float(b) ? a : b; }
inline __half __hmin(__half a, __half b) { return float(a) <= float(b) ? a : b; }
inline __half2 __hadd2(__half2 a, __half2 b) { return {__hadd(a.x, b.x), __hadd(a.y, b.y)}; }
inline __half2 __hmul2(__half2 a, __half2 b) { return {__hmul(a.x, b.x), __hmul(a.y, b.y)}; }
inline __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
inline float __bfloat162float(__nv_bfloat16 b) { return static_cast<float>(b); }
inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b) { return {__nv_bfloat16(a), __nv_bfloat16(b)}; }
