// CUDA's integer and bit intrinsics (crt/device_functions.h, sm_20_intrinsics.h,
// sm_32_intrinsics.h, sm_61_intrinsics.h), exact, from their documented definitions. Plain
// per-lane functions: no step, no trace.
//   __byte_perm(0x33221100, 0x77665544, 0x1707) == 0x11007700  (bytes 7, 0, 7 and 1)
//   __funnelshift_l(0x80000000, 0x1, 4) == 0x18; __dp4a(0x01020304, 0x01010101, 10) == 20
#pragma once

#include <cstdint>

#include "warpsim/bit_ops.hpp"
#include "warpsim/vector_types.hpp"

namespace warpsim::shim::integer {

inline constexpr std::uint32_t byte_of(std::uint32_t word, unsigned n) {
  return (word >> (8 * n)) & 0xffu;
}
inline constexpr std::int32_t signed_byte_of(std::uint32_t word, unsigned n) {
  return static_cast<std::int8_t>(static_cast<std::uint8_t>(byte_of(word, n)));
}
inline constexpr std::uint32_t half_of(std::uint32_t word, unsigned n) {
  return (word >> (16 * n)) & 0xffffu;
}
inline constexpr std::int32_t signed_half_of(std::uint32_t word, unsigned n) {
  return static_cast<std::int16_t>(static_cast<std::uint16_t>(half_of(word, n)));
}
inline std::uint32_t word(short2 v) {
  return static_cast<std::uint16_t>(v.x) |
         static_cast<std::uint32_t>(static_cast<std::uint16_t>(v.y)) << 16;
}
inline std::uint32_t word(ushort2 v) { return v.x | static_cast<std::uint32_t>(v.y) << 16; }
inline std::uint32_t word(char4 v) {
  return static_cast<std::uint8_t>(v.x) |
         static_cast<std::uint32_t>(static_cast<std::uint8_t>(v.y)) << 8 |
         static_cast<std::uint32_t>(static_cast<std::uint8_t>(v.z)) << 16 |
         static_cast<std::uint32_t>(static_cast<std::uint8_t>(v.w)) << 24;
}
inline std::uint32_t word(uchar4 v) {
  return v.x | static_cast<std::uint32_t>(v.y) << 8 | static_cast<std::uint32_t>(v.z) << 16 |
         static_cast<std::uint32_t>(v.w) << 24;
}

}  // namespace warpsim::shim::integer

// ---- high halves of products, 24-bit products
inline int __mulhi(int x, int y) { return static_cast<int>((static_cast<long long>(x) * y) >> 32); }
inline unsigned int __umulhi(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(x) * y) >> 32);
}
inline long long __mul64hi(long long x, long long y) {
  __extension__ using wide = __int128;
  return static_cast<long long>((static_cast<wide>(x) * y) >> 64);
}
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  __extension__ using wide = unsigned __int128;
  return static_cast<unsigned long long>((static_cast<wide>(x) * y) >> 64);
}
// The low 32 bits of the product of the low 24 bits of x and y (signed: sign-extended from bit 23).
inline int __mul24(int x, int y) {
  const auto low24 = [](int v) {
    const auto u = static_cast<std::uint32_t>(v) & 0xffffffu;
    return static_cast<long long>((u ^ 0x800000u)) - 0x800000;
  };
  return static_cast<int>(
      static_cast<std::uint32_t>(static_cast<unsigned long long>(low24(x) * low24(y))));
}
inline unsigned int __umul24(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>(static_cast<unsigned long long>(x & 0xffffffu) *
                                   (y & 0xffffffu));
}

// ---- halving adds (no overflow), absolute differences
inline int __hadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y) >> 1); }
inline int __rhadd(int x, int y) {
  return static_cast<int>((static_cast<long long>(x) + y + 1) >> 1);
}
inline unsigned int __uhadd(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(x) + y) >> 1);
}
inline unsigned int __urhadd(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(x) + y + 1) >> 1);
}
// |x - y| + z, modulo 2^32.
inline unsigned int __sad(int x, int y, unsigned int z) {
  const long long d = static_cast<long long>(x) - y;
  return z + static_cast<unsigned int>(d < 0 ? -d : d);
}
inline unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) {
  return z + (x > y ? x - y : y - x);
}

// ---- bit counts and reversal
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
inline unsigned short __nv_bswap16(unsigned short x) {
  return static_cast<unsigned short>((x >> 8) | (x << 8));
}
inline unsigned int __nv_bswap32(unsigned int x) { return __builtin_bswap32(x); }
inline unsigned long long __nv_bswap64(unsigned long long x) { return __builtin_bswap64(x); }

// ---- byte permutation and funnel shifts
// Result byte n is byte (s >> 4n) & 7 of the eight bytes y:x (x's bytes are 0..3); bit 3 of each
// selector nibble, and bits 16..31 of s, are ignored.
inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
  const unsigned long long bytes = (static_cast<unsigned long long>(y) << 32) | x;
  unsigned int result = 0;
  for (unsigned n = 0; n < 4; ++n) {
    const unsigned selector = (s >> (4 * n)) & 7u;
    result |= static_cast<unsigned int>((bytes >> (8 * selector)) & 0xffu) << (8 * n);
  }
  return result;
}
// The 64 bits hi:lo shifted left (right) by shift & 31 (_l, _r) or by min(shift, 32) (_lc, _rc);
// _l returns the high 32 bits, _r the low 32.
inline unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>((v << (shift & 31u)) >> 32);
}
inline unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>((v << (shift < 32u ? shift : 32u)) >> 32);
}
inline unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>(v >> (shift & 31u));
}
inline unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned int>(v >> (shift < 32u ? shift : 32u));
}

// ---- dot products: __dp4a sums the four byte products, __dp2a_lo/_hi the two products of a's
// 16-bit halves with b's low (high) two bytes; each plus c, modulo 2^32.
inline int __dp4a(int a, int b, int c) {
  using namespace warpsim::shim::integer;
  const auto ua = static_cast<std::uint32_t>(a), ub = static_cast<std::uint32_t>(b);
  std::uint32_t sum = static_cast<std::uint32_t>(c);
  for (unsigned n = 0; n < 4; ++n) {
    sum += static_cast<std::uint32_t>(signed_byte_of(ua, n) * signed_byte_of(ub, n));
  }
  return static_cast<int>(sum);
}
inline unsigned int __dp4a(unsigned int a, unsigned int b, unsigned int c) {
  using namespace warpsim::shim::integer;
  unsigned int sum = c;
  for (unsigned n = 0; n < 4; ++n) sum += byte_of(a, n) * byte_of(b, n);
  return sum;
}
inline int __dp4a(char4 a, char4 b, int c) {
  return __dp4a(static_cast<int>(warpsim::shim::integer::word(a)),
                static_cast<int>(warpsim::shim::integer::word(b)), c);
}
inline unsigned int __dp4a(uchar4 a, uchar4 b, unsigned int c) {
  return __dp4a(warpsim::shim::integer::word(a), warpsim::shim::integer::word(b), c);
}

namespace warpsim::shim::integer {
template <bool Signed>
inline std::uint32_t dp2a(std::uint32_t a, std::uint32_t b, std::uint32_t c, unsigned first_byte) {
  std::uint32_t sum = c;
  for (unsigned n = 0; n < 2; ++n) {
    if constexpr (Signed) {
      sum += static_cast<std::uint32_t>(signed_half_of(a, n) * signed_byte_of(b, first_byte + n));
    } else {
      sum += half_of(a, n) * byte_of(b, first_byte + n);
    }
  }
  return sum;
}
}  // namespace warpsim::shim::integer

inline int __dp2a_lo(int a, int b, int c) {
  return static_cast<int>(warpsim::shim::integer::dp2a<true>(static_cast<std::uint32_t>(a),
                                                             static_cast<std::uint32_t>(b),
                                                             static_cast<std::uint32_t>(c), 0));
}
inline unsigned int __dp2a_lo(unsigned int a, unsigned int b, unsigned int c) {
  return warpsim::shim::integer::dp2a<false>(a, b, c, 0);
}
inline int __dp2a_lo(short2 a, char4 b, int c) {
  return static_cast<int>(warpsim::shim::integer::dp2a<true>(warpsim::shim::integer::word(a),
                                                             warpsim::shim::integer::word(b),
                                                             static_cast<std::uint32_t>(c), 0));
}
inline unsigned int __dp2a_lo(ushort2 a, uchar4 b, unsigned int c) {
  return warpsim::shim::integer::dp2a<false>(warpsim::shim::integer::word(a),
                                             warpsim::shim::integer::word(b), c, 0);
}
inline int __dp2a_hi(int a, int b, int c) {
  return static_cast<int>(warpsim::shim::integer::dp2a<true>(static_cast<std::uint32_t>(a),
                                                             static_cast<std::uint32_t>(b),
                                                             static_cast<std::uint32_t>(c), 2));
}
inline unsigned int __dp2a_hi(unsigned int a, unsigned int b, unsigned int c) {
  return warpsim::shim::integer::dp2a<false>(a, b, c, 2);
}
inline int __dp2a_hi(short2 a, char4 b, int c) {
  return static_cast<int>(warpsim::shim::integer::dp2a<true>(warpsim::shim::integer::word(a),
                                                             warpsim::shim::integer::word(b),
                                                             static_cast<std::uint32_t>(c), 2));
}
inline unsigned int __dp2a_hi(ushort2 a, uchar4 b, unsigned int c) {
  return warpsim::shim::integer::dp2a<false>(warpsim::shim::integer::word(a),
                                             warpsim::shim::integer::word(b), c, 2);
}
