// The inputs of the GPU vectors: a deterministic function of (input index, argument slot) for
// every argument type of cases.inc, compiled both by nvcc (record_gpu.cu, on a GPU) and against
// the shim (gpu_vectors_test.cpp), so both sides evaluate each case on the same values.
//
// Indices 0 .. kSpecials^arity - 1 walk every combination of the type's special values (zeros,
// subnormals, the largest finite values, infinities, NaNs, ties, extremes of the integer types);
// the rest are pseudo-random (splitmix64 of the index), half of them drawn from the range where
// values are ordinary (normal floats near 1, small integers).
#pragma once

#include <cstdint>
#include <cstring>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace gpu_vectors {

inline constexpr int kInputs = 1024;

struct None {};

__host__ __device__ inline unsigned long long mix(unsigned long long x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// 64 pseudo-random bits for input `i`, argument `slot`.
__host__ __device__ inline unsigned long long random_bits(int i, int slot) {
  return mix(static_cast<unsigned long long>(i) * 4 + static_cast<unsigned long long>(slot) + 1);
}

// Which special value argument `slot` of input `i` takes: the first min(count^2, kInputs / 2)
// inputs walk every pair of specials for slots 0 and 1 (slot 2 takes a third mix); -1 past them.
__host__ __device__ inline int special_index(int i, int slot, int count) {
  if (i >= count * count || i >= kInputs / 2) return -1;
  const int k0 = i % count, k1 = (i / count) % count;
  return slot == 0 ? k0 : slot == 1 ? k1 : (k0 + k1) % count;
}

template <class T>
__host__ __device__ inline T from_bits(unsigned long long bits) {
  T value;
  memcpy(&value, &bits, sizeof value);
  return value;
}

template <class T>
__host__ __device__ inline unsigned long long to_bits(T value) {
  unsigned long long bits = 0;
  memcpy(&bits, &value, sizeof value);
  return bits;
}

__host__ __device__ inline unsigned short half_bits(int i, int slot) {
  const unsigned short specials[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00,
                                     0xbc00, 0x3c01, 0x3bff, 0x3800, 0x3e00, 0x4000, 0x4100,
                                     0x4200, 0x4500, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00,
                                     0x7fff, 0xfe01, 0x1000, 0x3555, 0x5bd0, 0xd640, 0x6801};
  const int count = sizeof specials / sizeof specials[0];
  const int k = special_index(i, slot, count);
  if (k >= 0) return specials[k];
  const unsigned long long r = random_bits(i, slot);
  if (r & 1) return static_cast<unsigned short>(r >> 16);
  // sign, exponent within 2^-6 .. 2^8 of 1, random fraction
  const unsigned exponent = 9 + static_cast<unsigned>((r >> 8) % 15);
  return static_cast<unsigned short>(((r >> 4) & 0x8000u) | (exponent << 10) | ((r >> 32) & 0x3ffu));
}

__host__ __device__ inline unsigned short bfloat16_bits(int i, int slot) {
  const unsigned short specials[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x007f, 0x0080, 0x3f80,
                                     0xbf80, 0x3f81, 0x3f7f, 0x3f00, 0x3fc0, 0x4000, 0x4020,
                                     0x4040, 0x40a0, 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0,
                                     0x7fff, 0xffc1, 0x3b80, 0x3eab, 0x4b00, 0xc2c8, 0x4f00};
  const int count = sizeof specials / sizeof specials[0];
  const int k = special_index(i, slot, count);
  if (k >= 0) return specials[k];
  const unsigned long long r = random_bits(i, slot);
  if (r & 1) return static_cast<unsigned short>(r >> 16);
  const unsigned exponent = 112 + static_cast<unsigned>((r >> 8) % 32);
  return static_cast<unsigned short>(((r >> 4) & 0x8000u) | (exponent << 7) | ((r >> 32) & 0x7fu));
}

__host__ __device__ inline unsigned int float_bits(int i, int slot) {
  const unsigned int specials[] = {
      0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu, 0x00800000u, 0x3f800000u, 0xbf800000u,
      0x3f000000u, 0x3fc00000u, 0x40200000u, 0xc0200000u, 0x40600000u, 0x7f7fffffu, 0xff7fffffu,
      0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7fffffffu, 0x477fe000u, 0x477ff000u, 0x3f801000u,
      0x4f000000u, 0xcf000000u, 0x4f800000u, 0x5f000000u, 0x5f800000u, 0x3dcccccdu, 0x33800000u,
      0x4effffffu, 0x4f7fffffu, 0x3eaaaaabu, 0x40490fdbu};
  const int count = sizeof specials / sizeof specials[0];
  const int k = special_index(i, slot, count);
  if (k >= 0) return specials[k];
  const unsigned long long r = random_bits(i, slot);
  switch (r & 3) {
    case 0: return static_cast<unsigned int>(r >> 32);
    case 1: {  // a normal float within 2^-20 .. 2^40
      const unsigned exponent = 107 + static_cast<unsigned>((r >> 8) % 60);
      return static_cast<unsigned int>(((r >> 2) & 0x80000000u) | (exponent << 23) | ((r >> 32) & 0x7fffffu));
    }
    case 2: {  // a multiple of 1/4 near 0
      const float v = static_cast<float>(static_cast<int>((r >> 32) % 4001) - 2000) * 0.25f;
      return to_bits(v) & 0xffffffffu;
    }
    default: {  // near 1
      const unsigned exponent = 120 + static_cast<unsigned>((r >> 8) % 14);
      return static_cast<unsigned int>(((r >> 2) & 0x80000000u) | (exponent << 23) | ((r >> 32) & 0x7fffffu));
    }
  }
}

__host__ __device__ inline unsigned long long double_bits(int i, int slot) {
  const unsigned long long specials[] = {
      0x0000000000000000ull, 0x8000000000000000ull, 0x0000000000000001ull, 0x000fffffffffffffull,
      0x0010000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull, 0x3fe0000000000000ull,
      0x4004000000000000ull, 0xc004000000000000ull, 0x400c000000000000ull, 0x7fefffffffffffffull,
      0xffefffffffffffffull, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
      0x7fffffffffffffffull, 0x41dfffffffc00000ull, 0x41e0000000000000ull, 0xc1e0000000000000ull,
      0x41f0000000000000ull, 0x43e0000000000000ull, 0x43f0000000000000ull, 0x3ff0000010000000ull,
      0x36a0000000000000ull, 0x3fb999999999999aull, 0x47efffffe0000000ull, 0x3ff0000000000001ull};
  const int count = sizeof specials / sizeof specials[0];
  const int k = special_index(i, slot, count);
  if (k >= 0) return specials[k];
  const unsigned long long r = random_bits(i, slot);
  switch (r & 3) {
    case 0: return mix(r);
    case 1: {
      const unsigned long long exponent = 1003 + (r >> 8) % 80;
      return ((r << 61) & 0x8000000000000000ull) | (exponent << 52) | (mix(r) & 0xfffffffffffffull);
    }
    case 2: return to_bits(static_cast<double>(static_cast<long long>((r >> 32) % 4001) - 2000) * 0.25);
    default: {
      const unsigned long long exponent = 1015 + (r >> 8) % 16;
      return ((r << 61) & 0x8000000000000000ull) | (exponent << 52) | (mix(r) & 0xfffffffffffffull);
    }
  }
}

__host__ __device__ inline unsigned int int_bits(int i, int slot) {
  const unsigned int specials[] = {0u,          1u,          0xffffffffu, 0x80000000u, 0x7fffffffu,
                                   2u,          3u,          0x7fu,       0x80u,       0xffu,
                                   0x7fffu,     0x8000u,     0xffffu,     0x10000u,    0x01010101u,
                                   0x7f7f7f7fu, 0x80808080u, 0xff00ff00u, 0x00ff00ffu, 0x12345678u,
                                   0xfffffffeu, 31u,         32u,         33u,         0x80008000u,
                                   0x7fff7fffu, 0xfffe0001u, 0x40u};
  const int count = sizeof specials / sizeof specials[0];
  const int k = special_index(i, slot, count);
  if (k >= 0) return specials[k];
  const unsigned long long r = random_bits(i, slot);
  switch (r & 3) {
    case 0:
    case 1: return static_cast<unsigned int>(r >> 32);
    case 2: return static_cast<unsigned int>(static_cast<int>((r >> 32) % 601) - 300);
    default: return static_cast<unsigned int>((r >> 32) & 0x00ff00ffu) * ((r & 4) ? 1u : 0x101u);
  }
}

__host__ __device__ inline unsigned long long long_bits(int i, int slot) {
  const unsigned long long specials[] = {
      0ull, 1ull, ~0ull, 0x8000000000000000ull, 0x7fffffffffffffffull, 2ull, 0xffffffffull,
      0x100000000ull, 0x80000000ull, 0x0020000000000001ull, 0x0040000000000003ull,
      0x1000001ull, 0xfffffffffffffffeull, 0x8000000000000001ull, 0x3ull, 0x0123456789abcdefull};
  const int count = sizeof specials / sizeof specials[0];
  const int k = special_index(i, slot, count);
  if (k >= 0) return specials[k];
  const unsigned long long r = random_bits(i, slot);
  switch (r & 3) {
    case 0: return mix(r);
    case 1: return mix(r) >> ((r >> 8) % 64);
    case 2: return static_cast<unsigned long long>(static_cast<long long>((r >> 32) % 601) - 300);
    default: return 0ull - (mix(r) >> ((r >> 8) % 64));
  }
}

template <class T>
__host__ __device__ inline T input(int i, int slot);

template <> __host__ __device__ inline None input<None>(int, int) { return None{}; }
template <> __host__ __device__ inline __half input<__half>(int i, int slot) { return __ushort_as_half(half_bits(i, slot)); }
template <> __host__ __device__ inline __nv_bfloat16 input<__nv_bfloat16>(int i, int slot) { return __ushort_as_bfloat16(bfloat16_bits(i, slot)); }
template <> __host__ __device__ inline __half2 input<__half2>(int i, int slot) {
  return __halves2half2(__ushort_as_half(half_bits(i, slot)), __ushort_as_half(half_bits(kInputs - 1 - i, slot + 1)));
}
template <> __host__ __device__ inline __nv_bfloat162 input<__nv_bfloat162>(int i, int slot) {
  return __halves2bfloat162(__ushort_as_bfloat16(bfloat16_bits(i, slot)), __ushort_as_bfloat16(bfloat16_bits(kInputs - 1 - i, slot + 1)));
}
template <> __host__ __device__ inline float input<float>(int i, int slot) { return from_bits<float>(float_bits(i, slot)); }
template <> __host__ __device__ inline double input<double>(int i, int slot) { return from_bits<double>(double_bits(i, slot)); }
template <> __host__ __device__ inline float2 input<float2>(int i, int slot) {
  return make_float2(from_bits<float>(float_bits(i, slot)), from_bits<float>(float_bits(kInputs - 1 - i, slot + 1)));
}
template <> __host__ __device__ inline int input<int>(int i, int slot) { return static_cast<int>(int_bits(i, slot)); }
template <> __host__ __device__ inline unsigned int input<unsigned int>(int i, int slot) { return int_bits(i, slot); }
template <> __host__ __device__ inline short input<short>(int i, int slot) { return static_cast<short>(int_bits(i, slot) >> ((i & 1) * 16)); }
template <> __host__ __device__ inline unsigned short input<unsigned short>(int i, int slot) { return static_cast<unsigned short>(int_bits(i, slot) >> ((i & 1) * 16)); }
template <> __host__ __device__ inline long long input<long long>(int i, int slot) { return static_cast<long long>(long_bits(i, slot)); }
template <> __host__ __device__ inline unsigned long long input<unsigned long long>(int i, int slot) { return long_bits(i, slot); }
template <> __host__ __device__ inline short2 input<short2>(int i, int slot) { return from_bits<short2>(int_bits(i, slot)); }
template <> __host__ __device__ inline ushort2 input<ushort2>(int i, int slot) { return from_bits<ushort2>(int_bits(i, slot)); }
template <> __host__ __device__ inline char4 input<char4>(int i, int slot) { return from_bits<char4>(int_bits(i, slot)); }
template <> __host__ __device__ inline uchar4 input<uchar4>(int i, int slot) { return from_bits<uchar4>(int_bits(i, slot)); }

// Cases whose intrinsic writes through pointers, as one value.
__device__ inline float2 sincos_pair(float x) {
  float s, c;
  __sincosf(x, &s, &c);
  return make_float2(s, c);
}
template <class T, class Fn>
__device__ inline unsigned long long with_predicate(Fn fn) {
  bool p = false;
  const T r = fn(&p);
  return (to_bits(r) & 0xffffffffull) | (static_cast<unsigned long long>(p) << 32);
}
template <class Fn>
__device__ inline unsigned long long with_two_predicates(Fn fn) {
  bool hi = false, lo = false;
  const unsigned int r = fn(&hi, &lo);
  return r | (static_cast<unsigned long long>(hi) << 33) | (static_cast<unsigned long long>(lo) << 32);
}

}  // namespace gpu_vectors
