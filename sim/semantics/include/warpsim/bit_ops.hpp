// Host versions of CUDA's integer bit intrinsics, as the CUDA shim calls them (__popc ->
// warpsim::popc, ...). Plain per-lane functions: no step, no trace. Same signatures as CUDA's.
// C++17 (kernel files compile as C++17, as nvcc and NVRTC default to), hence the builtins.
#pragma once

#include <cstdint>

namespace warpsim {

// Number of set bits. popc(0xf0) == 4.
constexpr int popc(unsigned int x) { return __builtin_popcount(x); }
constexpr int popcll(unsigned long long x) { return __builtin_popcountll(x); }

// 1 + index of the lowest set bit, 0 when x == 0. ffs(0x8) == 4, ffs(INT_MIN) == 32.
constexpr int ffs(int x) { return x == 0 ? 0 : __builtin_ctz(static_cast<unsigned int>(x)) + 1; }
constexpr int ffsll(long long x) {
  return x == 0 ? 0 : __builtin_ctzll(static_cast<unsigned long long>(x)) + 1;
}

// Number of zero bits above the highest set bit; 32 (64) when x == 0. clz(1) == 31, clz(-1) == 0.
constexpr int clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned int>(x)); }
constexpr int clzll(long long x) {
  return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x));
}

// Bit i of the result is bit 31 - i (63 - i) of x. brev(1) == 0x80000000.
constexpr unsigned int brev(unsigned int x) {
  unsigned int r = 0;
  for (int i = 0; i < 32; ++i, x >>= 1) r = (r << 1) | (x & 1u);
  return r;
}
constexpr unsigned long long brevll(unsigned long long x) {
  unsigned long long r = 0;
  for (int i = 0; i < 64; ++i, x >>= 1) r = (r << 1) | (x & 1u);
  return r;
}

// PTX fns (spec section 7): the position of the |offset|-th set bit of `mask`, counting bit
// `base` itself as the first candidate and walking up (offset > 0) or down (offset < 0);
// offset 0 tests bit `base` only. 0xffffffff when there is no such bit. PTX requires base <= 31;
// for a larger base we answer 0xffffffff.
// fns(0b10110, 1, 2) == 2, fns(0b10110, 4, -2) == 2, fns(0b10110, 0, 0) == 0xffffffff.
constexpr unsigned int fns(unsigned int mask, unsigned int base, int offset) {
  constexpr unsigned int kNone = 0xffffffffu;
  if (base > 31) return kNone;
  if (offset == 0) return ((mask >> base) & 1u) != 0 ? base : kNone;
  // |offset| in unsigned arithmetic, so INT_MIN does not overflow.
  unsigned int remaining =
      offset > 0 ? static_cast<unsigned int>(offset) : 0u - static_cast<unsigned int>(offset);
  const int step = offset > 0 ? 1 : -1;
  for (int pos = static_cast<int>(base); pos >= 0 && pos < 32; pos += step) {
    if (((mask >> pos) & 1u) != 0 && --remaining == 0) return static_cast<unsigned int>(pos);
  }
  return kNone;
}

}  // namespace warpsim
