// CUDA device math and bit functions that the C/C++ host library lacks. Fast-math intrinsics
// (__expf, __fdividef, ...) compute the exact function here; the GPU's approximations may differ
// in the last bits, which the GPU comparison reports as such.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "warpsim/bit_ops.hpp"

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
}  // namespace warpsim::shim

inline int __float_as_int(float x) { return warpsim::shim::pun<int>(x); }
inline float __int_as_float(int x) { return warpsim::shim::pun<float>(x); }
inline unsigned int __float_as_uint(float x) { return warpsim::shim::pun<unsigned int>(x); }
inline float __uint_as_float(unsigned int x) { return warpsim::shim::pun<float>(x); }
inline long long __double_as_longlong(double x) { return warpsim::shim::pun<long long>(x); }
inline double __longlong_as_double(long long x) { return warpsim::shim::pun<double>(x); }
inline int __double2hiint(double x) { return static_cast<int>(__double_as_longlong(x) >> 32); }
inline int __double2loint(double x) { return static_cast<int>(__double_as_longlong(x)); }
inline double __hiloint2double(int hi, int lo) {
  return __longlong_as_double(static_cast<long long>((static_cast<unsigned long long>(static_cast<unsigned>(hi)) << 32) |
                                                     static_cast<unsigned>(lo)));
}

inline int __popc(unsigned int x) { return warpsim::popc(x); }
inline int __popcll(unsigned long long x) { return warpsim::popcll(x); }
inline int __ffs(int x) { return warpsim::ffs(x); }
inline int __ffsll(long long x) { return warpsim::ffsll(x); }
inline int __clz(int x) { return warpsim::clz(x); }
inline int __clzll(long long x) { return warpsim::clzll(x); }
inline unsigned int __brev(unsigned int x) { return warpsim::brev(x); }
inline unsigned long long __brevll(unsigned long long x) { return warpsim::brevll(x); }
inline unsigned int __fns(unsigned int mask, unsigned int base, int offset) {
  return warpsim::fns(mask, base, offset);
}

inline float __expf(float x) { return std::exp(x); }
inline float __exp10f(float x) { return std::pow(10.0f, x); }
inline float exp10f(float x) { return std::pow(10.0f, x); }
inline float __logf(float x) { return std::log(x); }
inline float __log2f(float x) { return std::log2(x); }
inline float __log10f(float x) { return std::log10(x); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __tanf(float x) { return std::tan(x); }
inline float __powf(float x, float y) { return std::pow(x, y); }
inline void __sincosf(float x, float* s, float* c) { *s = std::sin(x); *c = std::cos(x); }
inline float __fdividef(float x, float y) { return x / y; }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fsqrt_rn(float x) { return std::sqrt(x); }
inline float __fadd_rn(float x, float y) { return x + y; }
inline float __fsub_rn(float x, float y) { return x - y; }
inline float __fmul_rn(float x, float y) { return x * y; }
inline float __fdiv_rn(float x, float y) { return x / y; }
inline float __fmaf_rn(float x, float y, float z) { return std::fma(x, y, z); }
inline double __dadd_rn(double x, double y) { return x + y; }
inline double __dmul_rn(double x, double y) { return x * y; }
inline double __fma_rn(double x, double y, double z) { return std::fma(x, y, z); }
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / std::cbrt(x); }
inline float __saturatef(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : (x == x ? x : 0.0f)); }
inline float exp2f_fast(float x) { return std::exp2(x); }
inline float normcdff(float x) { return 0.5f * std::erfc(-x / std::sqrt(2.0f)); }
inline float sinpif(float x) { return std::sin(x * 3.14159265358979323846f); }
inline float cospif(float x) { return std::cos(x * 3.14159265358979323846f); }

inline int __float2int_rn(float x) { return static_cast<int>(std::nearbyint(x)); }
inline int __float2int_rz(float x) { return static_cast<int>(x); }
inline int __float2int_rd(float x) { return static_cast<int>(std::floor(x)); }
inline int __float2int_ru(float x) { return static_cast<int>(std::ceil(x)); }
inline unsigned int __float2uint_rn(float x) { return static_cast<unsigned int>(std::nearbyint(x)); }
inline unsigned int __float2uint_rz(float x) { return static_cast<unsigned int>(x); }
inline float __int2float_rn(int x) { return static_cast<float>(x); }
inline float __uint2float_rn(unsigned int x) { return static_cast<float>(x); }
inline float __double2float_rn(double x) { return static_cast<float>(x); }
inline long long __float2ll_rn(float x) { return static_cast<long long>(std::nearbyint(x)); }

inline int __mul24(int x, int y) { return static_cast<int>((static_cast<long long>(x) << 40 >> 40) * (static_cast<long long>(y) << 40 >> 40)); }
inline unsigned int __umul24(unsigned int x, unsigned int y) { return (x & 0xffffffu) * (y & 0xffffffu); }
inline int __mulhi(int x, int y) { return static_cast<int>((static_cast<long long>(x) * y) >> 32); }
inline unsigned int __umulhi(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(x) * y) >> 32);
}
inline long long __mul64hi(long long x, long long y) {
  return static_cast<long long>((static_cast<warpsim::shim::wide_int>(x) * y) >> 64);
}
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  return static_cast<unsigned long long>((static_cast<warpsim::shim::wide_uint>(x) * y) >> 64);
}
inline unsigned int __sad(int x, int y, unsigned int z) {
  return z + static_cast<unsigned int>(x > y ? x - y : y - x);
}
inline int __hadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y) >> 1); }
inline int __rhadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y + 1) >> 1); }

// CUDA's global min/max overloads (the host has only std::min/std::max templates).
inline int min(int a, int b) { return a < b ? a : b; }
inline unsigned int min(unsigned int a, unsigned int b) { return a < b ? a : b; }
inline unsigned int min(int a, unsigned int b) { return min(static_cast<unsigned int>(a), b); }
inline unsigned int min(unsigned int a, int b) { return min(a, static_cast<unsigned int>(b)); }
inline long min(long a, long b) { return a < b ? a : b; }
inline unsigned long min(unsigned long a, unsigned long b) { return a < b ? a : b; }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline float min(float a, float b) { return std::fmin(a, b); }
inline double min(double a, double b) { return std::fmin(a, b); }
inline double min(float a, double b) { return std::fmin(static_cast<double>(a), b); }
inline double min(double a, float b) { return std::fmin(a, static_cast<double>(b)); }
inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned int max(unsigned int a, unsigned int b) { return a > b ? a : b; }
inline unsigned int max(int a, unsigned int b) { return max(static_cast<unsigned int>(a), b); }
inline unsigned int max(unsigned int a, int b) { return max(a, static_cast<unsigned int>(b)); }
inline long max(long a, long b) { return a > b ? a : b; }
inline unsigned long max(unsigned long a, unsigned long b) { return a > b ? a : b; }
inline long long max(long long a, long long b) { return a > b ? a : b; }
inline unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
inline float max(float a, float b) { return std::fmax(a, b); }
inline double max(double a, double b) { return std::fmax(a, b); }
inline double max(float a, double b) { return std::fmax(static_cast<double>(a), b); }
inline double max(double a, float b) { return std::fmax(a, static_cast<double>(b)); }

template <class T>
inline T __ldg(const T* address) { return *address; }
template <class T>
inline T __ldcg(const T* address) { return *address; }
template <class T>
inline T __ldcs(const T* address) { return *address; }
template <class T>
inline void __stcg(T* address, T value) { *address = value; }
template <class T>
inline void __stcs(T* address, T value) { *address = value; }

inline long long clock64() {
  static thread_local long long ticks = 0;
  return ticks += 4;
}
inline void __nanosleep(unsigned int) {}
[[noreturn]] inline void __trap() { __builtin_trap(); }
inline void __brkpt() {}
