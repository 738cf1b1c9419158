// Inline PTX that warpsim runs: the warp-level and bit instructions libraries write by hand.
// The runner rewrites each single-instruction asm statement of this set (rewrite_inline_ptx in
// sim/runner) into a call here on the same line, so warp-level ones are traced at the asm's line:
//   asm volatile("shfl.sync.bfly.b32 %0, %1, %2, %3, %4;" : "=r"(d) : "r"(v), "r"(m), "r"(c), "r"(full));
//   ::warpsim::ptx::assign((d), ::warpsim::ptx::shfl_bfly(bits(v), bits(m), bits(c), bits(full)));
// Semantics are PTX ISA 8's for .b32/.u32/.s32 operands. shfl's c operand is read as CUDA's
// headers build it: ((32 - width) << 8) | clamp.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "warpsim/device_abi.hpp"
#include "warpsim/integer_intrinsics.hpp"
#include "warpsim/thread_position.hpp"
#include "warpsim/warp_intrinsics.hpp"

namespace warpsim::ptx {

using device::CallSite;

// A 32-bit operand's bits ("r" and "f" constraints) and back into the output's type.
template <class T>
std::uint32_t bits(T value) {
  static_assert(sizeof(T) <= 4, "warpsim runs 32-bit PTX operands only");
  if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) {
    return static_cast<std::uint32_t>(value);
  } else {
    std::uint32_t b = 0;
    std::memcpy(&b, &value, sizeof value);
    return b;
  }
}
template <class T>
void assign(T& out, std::uint32_t b) {
  static_assert(sizeof(T) == 4, "warpsim runs 32-bit PTX operands only");
  std::memcpy(&out, &b, sizeof out);
}

inline std::uint32_t mov(std::uint32_t a) { return a; }

// Special registers.
inline std::uint32_t laneid() { return shim::lane_id(); }
inline std::uint32_t warpid() { return shim::block_thread_rank() / 32u; }  // as warpsim places warps
inline std::uint32_t lanemask_eq() { return 1u << laneid(); }
inline std::uint32_t lanemask_lt() { return shim::lanemask_lt(); }
inline std::uint32_t lanemask_le() { return lanemask_lt() | lanemask_eq(); }
inline std::uint32_t lanemask_ge() { return ~lanemask_lt(); }
inline std::uint32_t lanemask_gt() { return ~lanemask_le(); }

// Bit field extract: len bits of a from pos, zero- or sign-extended (PTX bfe).
inline std::uint32_t bfe(std::uint32_t a, std::uint32_t b, std::uint32_t c, bool is_signed) {
  const std::uint32_t pos = b & 0xff, len = c & 0xff;
  const std::uint32_t top = pos + len - 1 < 31 ? pos + len - 1 : 31;
  const std::uint32_t sbit = (!is_signed || len == 0) ? 0 : (a >> top) & 1u;
  std::uint32_t d = 0;
  for (std::uint32_t i = 0; i < 32; ++i) {
    const std::uint32_t bit = (i < len && pos + i <= 31) ? (a >> (pos + i)) & 1u : sbit;
    d |= bit << i;
  }
  return d;
}
inline std::uint32_t bfe_u32(std::uint32_t a, std::uint32_t b, std::uint32_t c) { return bfe(a, b, c, false); }
inline std::uint32_t bfe_s32(std::uint32_t a, std::uint32_t b, std::uint32_t c) { return bfe(a, b, c, true); }

// Bit field insert: len bits of a into b at pos (PTX bfi).
inline std::uint32_t bfi_b32(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
  const std::uint32_t pos = c & 0xff, len = d & 0xff;
  std::uint32_t f = b;
  for (std::uint32_t i = 0; i < len && pos + i <= 31; ++i) {
    f = (f & ~(1u << (pos + i))) | (((a >> i) & 1u) << (pos + i));
  }
  return f;
}

inline std::uint32_t prmt_b32(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  return __byte_perm(a, b, c);
}

// Any function of three inputs, bit by bit: bit i of d is bit (a_i b_i c_i) of lut.
inline std::uint32_t lop3_b32(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t lut) {
  std::uint32_t d = 0;
  for (std::uint32_t i = 0; i < 32; ++i) {
    const std::uint32_t index = ((a >> i) & 1u) << 2 | ((b >> i) & 1u) << 1 | ((c >> i) & 1u);
    d |= ((lut >> index) & 1u) << i;
  }
  return d;
}

inline std::uint32_t brev_b32(std::uint32_t a) { return __brev(a); }
inline std::uint32_t popc_b32(std::uint32_t a) { return static_cast<std::uint32_t>(__popc(a)); }
inline std::uint32_t clz_b32(std::uint32_t a) { return static_cast<std::uint32_t>(__clz(static_cast<int>(a))); }

// Warp-level: the shim's own calls, traced at the asm's line.
inline int shfl_width(std::uint32_t c) { return 32 - static_cast<int>((c >> 8) & 0x1f); }
inline std::uint32_t shfl_idx(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t m,
                              CallSite site = CallSite::here()) {
  return shim::shuffle<unsigned>(Op::shfl_idx, m, a, static_cast<int>(b), shfl_width(c), site);
}
inline std::uint32_t shfl_up(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t m,
                             CallSite site = CallSite::here()) {
  return shim::shuffle<unsigned>(Op::shfl_up, m, a, static_cast<int>(b), shfl_width(c), site);
}
inline std::uint32_t shfl_down(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t m,
                               CallSite site = CallSite::here()) {
  return shim::shuffle<unsigned>(Op::shfl_down, m, a, static_cast<int>(b), shfl_width(c), site);
}
inline std::uint32_t shfl_bfly(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t m,
                               CallSite site = CallSite::here()) {
  return shim::shuffle<unsigned>(Op::shfl_xor, m, a, static_cast<int>(b), shfl_width(c), site);
}
inline std::uint32_t activemask_b32(CallSite site = CallSite::here()) {
  return static_cast<std::uint32_t>(device::warp_op({Op::activemask}, 0, site));
}
inline std::uint32_t match_any_b32(std::uint32_t a, std::uint32_t m, CallSite site = CallSite::here()) {
  return shim::match<unsigned>(Op::match_any, m, a, nullptr, site);
}
#if __CUDA_ARCH__ >= 800
#define WARPSIM_PTX_REDUX(name, op, type, value_type)                                           \
  inline std::uint32_t name(std::uint32_t a, std::uint32_t m, CallSite site = CallSite::here()) { \
    return static_cast<std::uint32_t>(                                                          \
        shim::reduce<value_type>(Op::op, ValueType::type, m, static_cast<value_type>(a), site)); \
  }
#else
#define WARPSIM_PTX_REDUX(name, op, type, value_type)                                      \
  template <class... A>                                                                    \
  std::uint32_t name(A...) {                                                               \
    static_assert(sizeof...(A) == 0, "redux.sync needs sm_80 or later (warpsim --arch sm_80)"); \
    return 0;                                                                              \
  }
#endif
WARPSIM_PTX_REDUX(redux_add_u32, reduce_add, u32, unsigned)
WARPSIM_PTX_REDUX(redux_add_s32, reduce_add, i32, int)
WARPSIM_PTX_REDUX(redux_min_u32, reduce_min, u32, unsigned)
WARPSIM_PTX_REDUX(redux_min_s32, reduce_min, i32, int)
WARPSIM_PTX_REDUX(redux_max_u32, reduce_max, u32, unsigned)
WARPSIM_PTX_REDUX(redux_max_s32, reduce_max, i32, int)
WARPSIM_PTX_REDUX(redux_and_b32, reduce_and, none, unsigned)
WARPSIM_PTX_REDUX(redux_or_b32, reduce_or, none, unsigned)
WARPSIM_PTX_REDUX(redux_xor_b32, reduce_xor, none, unsigned)
#undef WARPSIM_PTX_REDUX

}  // namespace warpsim::ptx
