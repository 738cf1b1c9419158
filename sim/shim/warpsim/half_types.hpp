// The 16-bit float types of cuda_fp16.h and cuda_bf16.h: __half, __half2, __nv_bfloat16,
// __nv_bfloat162 and their _raw forms, with the members CUDA 13 gives them (constructors from
// float, double and the integer types, conversions back, assignment from all of those). The free
// functions (__hadd, __float2half_rz, ...) and operators are in fp16.hpp and bf16.hpp, which
// <cuda_fp16.h> and <cuda_bf16.h> include; the types themselves are always there, since the warp
// intrinsics take them.
//
// Like CUDA's, the types are trivially default-constructible (usable in unions and __shared__
// arrays) and keep their bits in a protected member; conversions from float and double round to
// nearest even, conversions to integers round toward zero and saturate (NaN gives 0).
#pragma once

#include <cstdint>

#include "warpsim/float16_ops.hpp"
#include "warpsim/kernel_registry.hpp"
#include "warpsim/vector_types.hpp"

struct __half_raw {
  unsigned short x;
};
struct alignas(4) __half2_raw {
  unsigned short x, y;
};
struct __nv_bfloat16_raw {
  unsigned short x;
};
struct alignas(4) __nv_bfloat162_raw {
  unsigned short x, y;
};

struct __nv_bfloat16;

namespace warpsim::shim::f16 {

// Members shared by __half and __nv_bfloat16: Self is the type, F its Format, Raw its _raw type.
template <class Self, class F, class Raw>
struct Scalar {
 protected:
  unsigned short __x;

  static Self of_bits(unsigned short bits) {
    Self s;
    s.__x = bits;
    return s;
  }

 public:
  using Format = F;

  Scalar() = default;
  constexpr Scalar(const Raw& raw) : __x(raw.x) {}
  Scalar(float f) : __x(from_float<F>(f, Round::nearest_even)) {}
  Scalar(double d) : __x(from_double_keeping_nan<F>(d, Round::nearest_even)) {}
  Scalar(short v) : __x(from_integer<F>(v, Round::nearest_even)) {}
  Scalar(unsigned short v) : __x(from_integer<F>(v, Round::nearest_even)) {}
  Scalar(int v) : __x(from_integer<F>(v, Round::nearest_even)) {}
  Scalar(unsigned int v) : __x(from_integer<F>(v, Round::nearest_even)) {}
  Scalar(long v) : __x(from_integer<F>(v, Round::nearest_even)) {}
  Scalar(unsigned long v) : __x(from_integer<F>(v, Round::nearest_even)) {}
  Scalar(long long v) : __x(from_integer<F>(v, Round::nearest_even)) {}
  Scalar(unsigned long long v) : __x(from_integer<F>(v, Round::nearest_even)) {}

  operator Raw() const { return Raw{__x}; }
  operator Raw() const volatile { return Raw{__x}; }
  operator float() const { return to_float<F>(__x); }
  operator signed char() const { return to_integer<F, signed char>(__x, Round::toward_zero); }
  operator unsigned char() const { return to_integer<F, unsigned char>(__x, Round::toward_zero); }
  operator char() const { return to_integer<F, char>(__x, Round::toward_zero); }
  operator short() const { return to_integer<F, short>(__x, Round::toward_zero); }
  operator unsigned short() const { return to_integer<F, unsigned short>(__x, Round::toward_zero); }
  operator int() const { return to_integer<F, int>(__x, Round::toward_zero); }
  operator unsigned int() const { return to_integer<F, unsigned int>(__x, Round::toward_zero); }
  operator long() const { return to_integer<F, long>(__x, Round::toward_zero); }
  operator unsigned long() const { return to_integer<F, unsigned long>(__x, Round::toward_zero); }
  operator long long() const { return to_integer<F, long long>(__x, Round::toward_zero); }
  operator unsigned long long() const {
    return to_integer<F, unsigned long long>(__x, Round::toward_zero);
  }
  // true for anything but +0 and -0 (NaN included).
  operator bool() const { return (__x & 0x7fffu) != 0; }

  // The bits, for the shim's own functions (user code reads them through Raw, as in CUDA).
  unsigned short warpsim_bits() const { return __x; }
  static Self warpsim_from_bits(unsigned short bits) { return of_bits(bits); }
};

}  // namespace warpsim::shim::f16

struct __half : warpsim::shim::f16::Scalar<__half, warpsim::shim::f16::Binary16, __half_raw> {
  static constexpr warpsim::ValueKind warpsim_value_kind = warpsim::ValueKind::half;  // --arg f16
  using Scalar::Scalar;
  __half() = default;
  explicit __half(const __nv_bfloat16 b);  // bf16.hpp: through float, rounded to nearest even

  __half& operator=(const __half_raw& raw) {
    __x = raw.x;
    return *this;
  }
  volatile __half& operator=(const __half_raw& raw) volatile {
    __x = raw.x;
    return *this;
  }
  volatile __half& operator=(const volatile __half_raw& raw) volatile {
    __x = raw.x;
    return *this;
  }
  template <class T, class = decltype(__half(T{}))>
  __half& operator=(T value) {
    __x = __half(value).__x;
    return *this;
  }
};

struct __nv_bfloat16
    : warpsim::shim::f16::Scalar<__nv_bfloat16, warpsim::shim::f16::Bfloat16, __nv_bfloat16_raw> {
  static constexpr warpsim::ValueKind warpsim_value_kind = warpsim::ValueKind::bfloat16;  // bf16
  using Scalar::Scalar;
  __nv_bfloat16() = default;
  explicit __nv_bfloat16(const __half h)
      : Scalar(static_cast<float>(h)) {}  // exact in float, rounded to nearest even

  __nv_bfloat16& operator=(const __nv_bfloat16_raw& raw) {
    __x = raw.x;
    return *this;
  }
  volatile __nv_bfloat16& operator=(const __nv_bfloat16_raw& raw) volatile {
    __x = raw.x;
    return *this;
  }
  volatile __nv_bfloat16& operator=(const volatile __nv_bfloat16_raw& raw) volatile {
    __x = raw.x;
    return *this;
  }
  template <class T, class = decltype(__nv_bfloat16(T{}))>
  __nv_bfloat16& operator=(T value) {
    __x = __nv_bfloat16(value).__x;
    return *this;
  }
};

inline __half::__half(const __nv_bfloat16 b) : Scalar(static_cast<float>(b)) {}

struct alignas(4) __half2 {
  __half x, y;
  __half2() = default;
  constexpr __half2(const __half& a, const __half& b) : x(a), y(b) {}
  __half2(const __half2_raw& raw) : x(__half_raw{raw.x}), y(__half_raw{raw.y}) {}
  __half2& operator=(const __half2_raw& raw) {
    x = __half_raw{raw.x};
    y = __half_raw{raw.y};
    return *this;
  }
  operator __half2_raw() const { return {x.warpsim_bits(), y.warpsim_bits()}; }
};

struct alignas(4) __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  constexpr __nv_bfloat162(const __nv_bfloat16& a, const __nv_bfloat16& b) : x(a), y(b) {}
  __nv_bfloat162(const __nv_bfloat162_raw& raw)
      : x(__nv_bfloat16_raw{raw.x}), y(__nv_bfloat16_raw{raw.y}) {}
  __nv_bfloat162& operator=(const __nv_bfloat162_raw& raw) {
    x = __nv_bfloat16_raw{raw.x};
    y = __nv_bfloat16_raw{raw.y};
    return *this;
  }
  operator __nv_bfloat162_raw() const { return {x.warpsim_bits(), y.warpsim_bits()}; }
};

static_assert(sizeof(__half) == 2 && sizeof(__half2) == 4 && sizeof(__nv_bfloat16) == 2 &&
              sizeof(__nv_bfloat162) == 4);

using half = __half;
using half2 = __half2;
using __nv_half = __half;
using __nv_half2 = __half2;
using __nv_half_raw = __half_raw;
using __nv_half2_raw = __half2_raw;
using nv_half = __half;
using nv_half2 = __half2;
using nv_bfloat16 = __nv_bfloat16;
using nv_bfloat162 = __nv_bfloat162;
