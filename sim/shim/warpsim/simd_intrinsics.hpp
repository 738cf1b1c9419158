// CUDA's SIMD intrinsics (crt/device_functions.h): the __v*2 functions work on the two 16-bit
// halves of a 32-bit word, the __v*4 ones on its four bytes, each half or byte on its own; and
// sm_90's DPX functions (__vimax3_s32, __viaddmin_s16x2_relu, __vibmax_u32, ...) on 32-bit values
// or 16-bit halves. Exact, from the documented definitions.
//
// Lane by lane: "s" reads a lane as signed, "u" as unsigned; "ss"/"us" saturate the result to the
// signed/unsigned range of the lane; __vcmp* give all ones for true, __vset* give 1; __vsad* sum
// the absolute differences of the lanes; _relu clamps the result below at 0.
//   __vadd2(0x0001ffff, 0x00010001) == 0x00020000; __vaddss2(0x7fff0000, 0x00010000) == 0x7fff0000
//   __vcmpgtu4(0x80010203, 0x7f010000) == 0xff0000ff; __vsadu4(0x00ff0000, 0x01000000) == 256
#pragma once

#include <cstdint>

namespace warpsim::shim::simd {

// Lane n (0 = lowest bits) of `word`, for lanes of `width` bits, unsigned or sign-extended.
inline long long lane_u(std::uint32_t word, int width, int n) {
  return static_cast<long long>((word >> (n * width)) & ((1ull << width) - 1));
}
inline long long lane_s(std::uint32_t word, int width, int n) {
  const long long u = lane_u(word, width, n);
  const long long half = 1ll << (width - 1);
  return u >= half ? u - 2 * half : u;
}
inline long long clamp(long long v, long long lo, long long hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}
inline long long saturate_s(long long v, int width) {
  return clamp(v, -(1ll << (width - 1)), (1ll << (width - 1)) - 1);
}
inline long long saturate_u(long long v, int width) { return clamp(v, 0, (1ll << width) - 1); }

// `value` truncated to a lane of `width` bits and moved to lane n.
inline std::uint32_t lane_bits(long long value, int width, int n) {
  return (static_cast<std::uint32_t>(static_cast<unsigned long long>(value)) &
          static_cast<std::uint32_t>((1ull << width) - 1))
         << (n * width);
}

// Sum over the lanes of |a - b|, read signed or unsigned.
inline unsigned int sad(std::uint32_t a, std::uint32_t b, int width, bool is_signed) {
  long long sum = 0;
  for (int n = 0; n < 32 / width; ++n) {
    const long long d = is_signed ? lane_s(a, width, n) - lane_s(b, width, n)
                                  : lane_u(a, width, n) - lane_u(b, width, n);
    sum += d < 0 ? -d : d;
  }
  return static_cast<unsigned int>(sum);
}

inline long long larger(long long a, long long b) { return a > b ? a : b; }
inline long long smaller(long long a, long long b) { return a < b ? a : b; }

}  // namespace warpsim::shim::simd

// One SIMD intrinsic per line: NAME, lane width, and the lane result from lanes x (of a) and
// y (of b), read with S (signed) or U (unsigned).
#define WARPSIM_SIMD(NAME, WIDTH, EXPR)                                                    \
  inline unsigned int NAME(unsigned int a, unsigned int b) {                               \
    using namespace warpsim::shim::simd;                                                   \
    std::uint32_t result = 0;                                                              \
    for (int n = 0; n < 32 / (WIDTH); ++n) {                                               \
      [[maybe_unused]] const long long sx = lane_s(a, WIDTH, n), ux = lane_u(a, WIDTH, n); \
      [[maybe_unused]] const long long sy = lane_s(b, WIDTH, n), uy = lane_u(b, WIDTH, n); \
      result |= lane_bits(EXPR, WIDTH, n);                                                 \
    }                                                                                      \
    return result;                                                                         \
  }
#define WARPSIM_SIMD_UNARY(NAME, WIDTH, EXPR)   \
  inline unsigned int NAME(unsigned int a) {    \
    using namespace warpsim::shim::simd;        \
    std::uint32_t result = 0;                   \
    for (int n = 0; n < 32 / (WIDTH); ++n) {    \
      const long long sx = lane_s(a, WIDTH, n); \
      result |= lane_bits(EXPR, WIDTH, n);      \
    }                                           \
    return result;                              \
  }

#define WARPSIM_SIMD_FAMILY(N, WIDTH)                                          \
  WARPSIM_SIMD_UNARY(__vabs##N, WIDTH, sx < 0 ? -sx : sx)                      \
  WARPSIM_SIMD_UNARY(__vabsss##N, WIDTH, saturate_s(sx < 0 ? -sx : sx, WIDTH)) \
  WARPSIM_SIMD_UNARY(__vneg##N, WIDTH, -sx)                                    \
  WARPSIM_SIMD_UNARY(__vnegss##N, WIDTH, saturate_s(-sx, WIDTH))               \
  WARPSIM_SIMD(__vadd##N, WIDTH, ux + uy)                                      \
  WARPSIM_SIMD(__vaddss##N, WIDTH, saturate_s(sx + sy, WIDTH))                 \
  WARPSIM_SIMD(__vaddus##N, WIDTH, saturate_u(ux + uy, WIDTH))                 \
  WARPSIM_SIMD(__vsub##N, WIDTH, ux - uy)                                      \
  WARPSIM_SIMD(__vsubss##N, WIDTH, saturate_s(sx - sy, WIDTH))                 \
  WARPSIM_SIMD(__vsubus##N, WIDTH, saturate_u(ux - uy, WIDTH))                 \
  WARPSIM_SIMD(__vavgs##N, WIDTH, (sx + sy + ((sx + sy) >= 0 ? 1 : 0)) >> 1)   \
  WARPSIM_SIMD(__vavgu##N, WIDTH, (ux + uy + 1) >> 1)                          \
  WARPSIM_SIMD(__vhaddu##N, WIDTH, (ux + uy) >> 1)                             \
  WARPSIM_SIMD(__vabsdiffs##N, WIDTH, sx > sy ? sx - sy : sy - sx)             \
  WARPSIM_SIMD(__vabsdiffu##N, WIDTH, ux > uy ? ux - uy : uy - ux)             \
  WARPSIM_SIMD(__vmaxs##N, WIDTH, sx > sy ? sx : sy)                           \
  WARPSIM_SIMD(__vmaxu##N, WIDTH, ux > uy ? ux : uy)                           \
  WARPSIM_SIMD(__vmins##N, WIDTH, sx < sy ? sx : sy)                           \
  WARPSIM_SIMD(__vminu##N, WIDTH, ux < uy ? ux : uy)                           \
  WARPSIM_SIMD(__vcmpeq##N, WIDTH, ux == uy ? -1 : 0)                          \
  WARPSIM_SIMD(__vcmpne##N, WIDTH, ux != uy ? -1 : 0)                          \
  WARPSIM_SIMD(__vcmpges##N, WIDTH, sx >= sy ? -1 : 0)                         \
  WARPSIM_SIMD(__vcmpgeu##N, WIDTH, ux >= uy ? -1 : 0)                         \
  WARPSIM_SIMD(__vcmpgts##N, WIDTH, sx > sy ? -1 : 0)                          \
  WARPSIM_SIMD(__vcmpgtu##N, WIDTH, ux > uy ? -1 : 0)                          \
  WARPSIM_SIMD(__vcmples##N, WIDTH, sx <= sy ? -1 : 0)                         \
  WARPSIM_SIMD(__vcmpleu##N, WIDTH, ux <= uy ? -1 : 0)                         \
  WARPSIM_SIMD(__vcmplts##N, WIDTH, sx < sy ? -1 : 0)                          \
  WARPSIM_SIMD(__vcmpltu##N, WIDTH, ux < uy ? -1 : 0)                          \
  WARPSIM_SIMD(__vseteq##N, WIDTH, ux == uy ? 1 : 0)                           \
  WARPSIM_SIMD(__vsetne##N, WIDTH, ux != uy ? 1 : 0)                           \
  WARPSIM_SIMD(__vsetges##N, WIDTH, sx >= sy ? 1 : 0)                          \
  WARPSIM_SIMD(__vsetgeu##N, WIDTH, ux >= uy ? 1 : 0)                          \
  WARPSIM_SIMD(__vsetgts##N, WIDTH, sx > sy ? 1 : 0)                           \
  WARPSIM_SIMD(__vsetgtu##N, WIDTH, ux > uy ? 1 : 0)                           \
  WARPSIM_SIMD(__vsetles##N, WIDTH, sx <= sy ? 1 : 0)                          \
  WARPSIM_SIMD(__vsetleu##N, WIDTH, ux <= uy ? 1 : 0)                          \
  WARPSIM_SIMD(__vsetlts##N, WIDTH, sx < sy ? 1 : 0)                           \
  WARPSIM_SIMD(__vsetltu##N, WIDTH, ux < uy ? 1 : 0)                           \
  inline unsigned int __vsads##N(unsigned int a, unsigned int b) {             \
    return warpsim::shim::simd::sad(a, b, WIDTH, true);                        \
  }                                                                            \
  inline unsigned int __vsadu##N(unsigned int a, unsigned int b) {             \
    return warpsim::shim::simd::sad(a, b, WIDTH, false);                       \
  }

WARPSIM_SIMD_FAMILY(2, 16)
WARPSIM_SIMD_FAMILY(4, 8)
#undef WARPSIM_SIMD_FAMILY
#undef WARPSIM_SIMD_UNARY

// ---- DPX (sm_90; emulated on earlier architectures by CUDA's headers, so available on all)
WARPSIM_SIMD(__vimax_s16x2_relu, 16, larger(larger(sx, sy), 0))
WARPSIM_SIMD(__vimin_s16x2_relu, 16, larger(smaller(sx, sy), 0))
#undef WARPSIM_SIMD

inline int __vimax_s32_relu(const int a, const int b) {
  return a > b ? (a > 0 ? a : 0) : (b > 0 ? b : 0);
}
inline int __vimin_s32_relu(const int a, const int b) {
  const int m = a < b ? a : b;
  return m > 0 ? m : 0;
}

// Three operands: lane results from x, y, z (of a, b, c).
#define WARPSIM_DPX3(NAME, WIDTH, EXPR)                                                        \
  inline unsigned int NAME(const unsigned int a, const unsigned int b, const unsigned int c) { \
    using namespace warpsim::shim::simd;                                                       \
    std::uint32_t result = 0;                                                                  \
    for (int n = 0; n < 32 / (WIDTH); ++n) {                                                   \
      [[maybe_unused]] const long long sx = lane_s(a, WIDTH, n), ux = lane_u(a, WIDTH, n);     \
      [[maybe_unused]] const long long sy = lane_s(b, WIDTH, n), uy = lane_u(b, WIDTH, n);     \
      [[maybe_unused]] const long long sz = lane_s(c, WIDTH, n), uz = lane_u(c, WIDTH, n);     \
      result |= lane_bits(EXPR, WIDTH, n);                                                     \
    }                                                                                          \
    return result;                                                                             \
  }
#define WARPSIM_DPX3_S32(NAME, EXPR)                                                           \
  inline int NAME(const int a, const int b, const int c) {                                     \
    using namespace warpsim::shim::simd;                                                       \
    const long long sx = a, sy = b, sz = c;                                                    \
    return static_cast<int>(static_cast<unsigned int>(static_cast<unsigned long long>(EXPR))); \
  }
#define WARPSIM_DPX3_U32(NAME, EXPR)                                                           \
  inline unsigned int NAME(const unsigned int a, const unsigned int b, const unsigned int c) { \
    using namespace warpsim::shim::simd;                                                       \
    const long long ux = a, uy = b, uz = c;                                                    \
    return static_cast<unsigned int>(static_cast<unsigned long long>(EXPR));                   \
  }
// a + b wraps to the lane width before the comparison.
#define WARPSIM_WRAP_S(v, WIDTH) \
  lane_s(static_cast<std::uint32_t>(static_cast<unsigned long long>(v)), WIDTH, 0)
#define WARPSIM_WRAP_U(v, WIDTH) \
  lane_u(static_cast<std::uint32_t>(static_cast<unsigned long long>(v)), WIDTH, 0)

WARPSIM_DPX3_S32(__vimax3_s32, larger(sx, larger(sy, sz)))
WARPSIM_DPX3_U32(__vimax3_u32, larger(ux, larger(uy, uz)))
WARPSIM_DPX3(__vimax3_s16x2, 16, larger(sx, larger(sy, sz)))
WARPSIM_DPX3(__vimax3_u16x2, 16, larger(ux, larger(uy, uz)))
WARPSIM_DPX3_S32(__vimin3_s32, smaller(sx, smaller(sy, sz)))
WARPSIM_DPX3_U32(__vimin3_u32, smaller(ux, smaller(uy, uz)))
WARPSIM_DPX3(__vimin3_s16x2, 16, smaller(sx, smaller(sy, sz)))
WARPSIM_DPX3(__vimin3_u16x2, 16, smaller(ux, smaller(uy, uz)))
WARPSIM_DPX3_S32(__vimax3_s32_relu, larger(larger(sx, larger(sy, sz)), 0))
WARPSIM_DPX3(__vimax3_s16x2_relu, 16, larger(larger(sx, larger(sy, sz)), 0))
WARPSIM_DPX3_S32(__vimin3_s32_relu, larger(smaller(sx, smaller(sy, sz)), 0))
WARPSIM_DPX3(__vimin3_s16x2_relu, 16, larger(smaller(sx, smaller(sy, sz)), 0))
WARPSIM_DPX3_S32(__viaddmax_s32, larger(WARPSIM_WRAP_S(sx + sy, 32), sz))
WARPSIM_DPX3_U32(__viaddmax_u32, larger(WARPSIM_WRAP_U(ux + uy, 32), uz))
WARPSIM_DPX3(__viaddmax_s16x2, 16, larger(WARPSIM_WRAP_S(sx + sy, 16), sz))
WARPSIM_DPX3(__viaddmax_u16x2, 16, larger(WARPSIM_WRAP_U(ux + uy, 16), uz))
WARPSIM_DPX3_S32(__viaddmin_s32, smaller(WARPSIM_WRAP_S(sx + sy, 32), sz))
WARPSIM_DPX3_U32(__viaddmin_u32, smaller(WARPSIM_WRAP_U(ux + uy, 32), uz))
WARPSIM_DPX3(__viaddmin_s16x2, 16, smaller(WARPSIM_WRAP_S(sx + sy, 16), sz))
WARPSIM_DPX3(__viaddmin_u16x2, 16, smaller(WARPSIM_WRAP_U(ux + uy, 16), uz))
WARPSIM_DPX3_S32(__viaddmax_s32_relu, larger(larger(WARPSIM_WRAP_S(sx + sy, 32), sz), 0))
WARPSIM_DPX3(__viaddmax_s16x2_relu, 16, larger(larger(WARPSIM_WRAP_S(sx + sy, 16), sz), 0))
WARPSIM_DPX3_S32(__viaddmin_s32_relu, larger(smaller(WARPSIM_WRAP_S(sx + sy, 32), sz), 0))
WARPSIM_DPX3(__viaddmin_s16x2_relu, 16, larger(smaller(WARPSIM_WRAP_S(sx + sy, 16), sz), 0))
#undef WARPSIM_DPX3
#undef WARPSIM_DPX3_S32
#undef WARPSIM_DPX3_U32
#undef WARPSIM_WRAP_S
#undef WARPSIM_WRAP_U

// max or min, and whether a was the one chosen (a >= b for max, a <= b for min); for 16-bit
// halves, one predicate per half.
inline int __vibmax_s32(const int a, const int b, bool* const pred) {
  *pred = a >= b;
  return a >= b ? a : b;
}
inline unsigned int __vibmax_u32(const unsigned int a, const unsigned int b, bool* const pred) {
  *pred = a >= b;
  return a >= b ? a : b;
}
inline int __vibmin_s32(const int a, const int b, bool* const pred) {
  *pred = a <= b;
  return a <= b ? a : b;
}
inline unsigned int __vibmin_u32(const unsigned int a, const unsigned int b, bool* const pred) {
  *pred = a <= b;
  return a <= b ? a : b;
}

namespace warpsim::shim::simd {
template <bool Signed, bool Max>
inline unsigned int select_halves(unsigned int a, unsigned int b, bool* hi, bool* lo) {
  std::uint32_t result = 0;
  for (int n = 0; n < 2; ++n) {
    const long long x = Signed ? lane_s(a, 16, n) : lane_u(a, 16, n);
    const long long y = Signed ? lane_s(b, 16, n) : lane_u(b, 16, n);
    const bool picked = Max ? x >= y : x <= y;
    *(n == 0 ? lo : hi) = picked;
    result |= lane_bits(picked ? x : y, 16, n);
  }
  return result;
}
}  // namespace warpsim::shim::simd

inline unsigned int __vibmax_s16x2(const unsigned int a, const unsigned int b, bool* const pred_hi,
                                   bool* const pred_lo) {
  return warpsim::shim::simd::select_halves<true, true>(a, b, pred_hi, pred_lo);
}
inline unsigned int __vibmax_u16x2(const unsigned int a, const unsigned int b, bool* const pred_hi,
                                   bool* const pred_lo) {
  return warpsim::shim::simd::select_halves<false, true>(a, b, pred_hi, pred_lo);
}
inline unsigned int __vibmin_s16x2(const unsigned int a, const unsigned int b, bool* const pred_hi,
                                   bool* const pred_lo) {
  return warpsim::shim::simd::select_halves<true, false>(a, b, pred_hi, pred_lo);
}
inline unsigned int __vibmin_u16x2(const unsigned int a, const unsigned int b, bool* const pred_hi,
                                   bool* const pred_lo) {
  return warpsim::shim::simd::select_halves<false, false>(a, b, pred_hi, pred_lo);
}
