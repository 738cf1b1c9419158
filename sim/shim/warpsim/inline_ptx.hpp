// Inline PTX that warpsim runs: the instructions libraries write by hand (cub, CUTLASS, llm.c).
// The runner translates each asm statement whose every instruction it knows (ptx_translate.cpp in
// sim/runner) into C++ on the asm's own line: operands and `.reg` declarations become locals of
// the widths PTX gives them (bool for .pred, 16, 32 or 64 bits), each instruction a call here,
// `@p` an `if`. Warp-level instructions call the shim's own functions, so they are traced at the
// asm's line and checked like their intrinsics:
//   asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, %2; }"
//                : "=r"(r) : "r"(x), "r"(m));
// becomes, on the asm's line (abridged: every name is fully qualified, each local warpsim_ptx_):
//   { auto& out0 = (r); std::uint32_t op0 = std::uint32_t{};
//     const std::uint32_t op1 = in<std::uint32_t>(x); const std::uint32_t op2 = in<std::uint32_t>(m);
//     { { bool r_p{}; { const bool t = setp<u32>(Cmp::ne, op1, static_cast<std::uint32_t>(0x0ULL));
//                       r_p = t; }
//         op0 = vote_ballot(r_p, op2); } }
//     out<std::uint32_t>(out0, op0); }
// Semantics are the PTX ISA's (8.x); what the translator does not know never reaches this file.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <initializer_list>
#include <limits>
#include <type_traits>

#include "warpsim/device_abi.hpp"
#include "warpsim/float16_ops.hpp"
#include "warpsim/fp_round.hpp"
#include "warpsim/integer_intrinsics.hpp"
#include "warpsim/launch_stop.hpp"
#include "warpsim/memory_intrinsics.hpp"
#include "warpsim/thread_position.hpp"
#include "warpsim/warp_intrinsics.hpp"

namespace warpsim::ptx {

using device::CallSite;
using Round = shim::fp::Round;
// 128-bit products and clamps (mul.hi.u64, cvt.sat of 64-bit values); __extension__ keeps
// -Wpedantic quiet about the GCC/Clang type.
__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 Uint128;

// ---- Operands: a C++ value into a PTX register and back. `As` is what the constraint holds:
// std::uint16_t ("h"), std::uint32_t ("r"), std::uint64_t ("l"), float ("f") or double ("d").
// Integers convert by value into integer registers (an int in "l" is sign-extended, as the
// compiler does), pointers by address, floats by value into float registers; anything else
// (__half in "h", float in "r") by its bits, which must then fill the register.
template <class As, class T>
auto in(const T& value) {
  using Reg = std::conditional_t<sizeof(As) == 8, std::uint64_t,
                                 std::conditional_t<sizeof(As) == 4, std::uint32_t, std::uint16_t>>;
  if constexpr (std::is_floating_point_v<As> && std::is_arithmetic_v<T>) {
    static_assert(std::is_floating_point_v<T>, "warpsim: an integer given to an inline PTX \"f\" or "
                                               "\"d\" operand: pass a float or double");
    return shim::fp::bit_cast<Reg>(static_cast<As>(value));
  } else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) {
    return static_cast<Reg>(value);
  } else if constexpr (std::is_pointer_v<T>) {
    return static_cast<Reg>(reinterpret_cast<std::uintptr_t>(value));
  } else {
    static_assert(sizeof(T) == sizeof(Reg), "warpsim: an inline PTX operand's C++ type does not "
                                            "have the size of its constraint's register");
    Reg r;
    std::memcpy(&r, &value, sizeof r);
    return r;
  }
}
template <class As, class T, class Reg>
void out(T& lvalue, Reg r) {
  if constexpr (std::is_floating_point_v<As> && std::is_arithmetic_v<T>) {
    static_assert(std::is_floating_point_v<T>, "warpsim: an integer bound to an inline PTX \"=f\" or "
                                               "\"=d\" output: use a float or double");
    lvalue = static_cast<T>(shim::fp::bit_cast<As>(r));
  } else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) {
    lvalue = static_cast<T>(r);
  } else if constexpr (std::is_pointer_v<T>) {
    lvalue = reinterpret_cast<T>(static_cast<std::uintptr_t>(r));
  } else {
    static_assert(sizeof(T) == sizeof(Reg), "warpsim: an inline PTX operand's C++ type does not "
                                            "have the size of its constraint's register");
    std::memcpy(&lvalue, &r, sizeof r);
  }
}

// PTX the runner could not translate in a toolkit header (cub's loads with cache hints, exit):
// the header must compile whether or not the kernel uses it, so a lane that reaches it stops
// the launch, naming the instruction and the header's line.
[[noreturn]] inline void not_simulated(const char* what, CallSite site = CallSite::here()) {
  shim::stop_launch("%s:%u: inline PTX is not simulated (%s", site.file, site.line, what);
}

// Memory fences (membar, fence.sc/acq_rel): lanes run one at a time, so memory is already
// sequentially consistent between them, as for __threadfence().
inline void fence() {}

// ---- Instruction types: the register bits and how PTX reads them.
enum class Kind { bits, unsigned_int, signed_int, floating, predicate };
template <class Bits, class Value, Kind K>
struct Type {
  using bits = Bits;
  using value = Value;
  static constexpr Kind kind = K;
};
using pred = Type<bool, bool, Kind::predicate>;
using b8 = Type<std::uint8_t, std::uint8_t, Kind::bits>;
using b16 = Type<std::uint16_t, std::uint16_t, Kind::bits>;
using b32 = Type<std::uint32_t, std::uint32_t, Kind::bits>;
using b64 = Type<std::uint64_t, std::uint64_t, Kind::bits>;
using u8 = Type<std::uint8_t, std::uint8_t, Kind::unsigned_int>;
using u16 = Type<std::uint16_t, std::uint16_t, Kind::unsigned_int>;
using u32 = Type<std::uint32_t, std::uint32_t, Kind::unsigned_int>;
using u64 = Type<std::uint64_t, std::uint64_t, Kind::unsigned_int>;
using s8 = Type<std::uint8_t, std::int8_t, Kind::signed_int>;
using s16 = Type<std::uint16_t, std::int16_t, Kind::signed_int>;
using s32 = Type<std::uint32_t, std::int32_t, Kind::signed_int>;
using s64 = Type<std::uint64_t, std::int64_t, Kind::signed_int>;
using f16 = Type<std::uint16_t, shim::f16::Binary16, Kind::floating>;
using bf16 = Type<std::uint16_t, shim::f16::Bfloat16, Kind::floating>;
using f32 = Type<std::uint32_t, float, Kind::floating>;
using f64 = Type<std::uint64_t, double, Kind::floating>;

template <class T>
typename T::value value_of(typename T::bits b) {
  if constexpr (std::is_same_v<typename T::value, float> ||
                std::is_same_v<typename T::value, double>) {
    return shim::fp::bit_cast<typename T::value>(b);
  } else {
    return static_cast<typename T::value>(b);
  }
}

// A register wider than the instruction's type (cvt's operands): its low bits, and a result
// sign- or zero-extended into the wider destination as the type's signedness says.
template <class T, class Reg>
typename T::bits low(Reg r) {
  return static_cast<typename T::bits>(r);
}
template <class Reg, class T>
Reg widen(typename T::bits b) {
  if constexpr (T::kind == Kind::signed_int) {
    return static_cast<Reg>(static_cast<std::int64_t>(value_of<T>(b)));
  } else {
    return static_cast<Reg>(b);
  }
}

// ---- ld and st with cache hints: plain host loads and stores of the type's bits, as the
// shim's __ldcg and __stcs are (cache hints never change a value).

// A GPU accesses memory only at a multiple of the access's size (a vector's whole size) and stops
// the kernel otherwise (CUDA_ERROR_MISALIGNED_ADDRESS); the host would not, so this stops it.
inline void check_alignment(std::uint64_t address, unsigned bytes, const char* access,
                            CallSite site = CallSite::here()) {
  if (address % bytes == 0) return;
  shim::stop_launch("%s:%u: misaligned address: a %u-byte %s at 0x%llx, which is not a multiple "
                    "of %u (a GPU stops the kernel here: CUDA_ERROR_MISALIGNED_ADDRESS)",
                    site.file, site.line, bytes, access,
                    static_cast<unsigned long long>(address), bytes);
}
template <class T>
typename T::bits load(std::uint64_t address) {
  typename T::bits bits;
  std::memcpy(&bits, reinterpret_cast<const void*>(static_cast<std::uintptr_t>(address)), sizeof bits);
  return bits;
}
template <class T>
void store(std::uint64_t address, typename T::bits bits) {
  std::memcpy(reinterpret_cast<void*>(static_cast<std::uintptr_t>(address)), &bits, sizeof bits);
}

// The qualifiers a macro stringizes into an ld or st (cub's `"ld." #ptx_modifier ".u32 ..."`):
// whether each dot-separated word is one the translated instruction runs as a plain access.
constexpr bool qualifiers_among(const char* text, std::initializer_list<const char*> allowed) {
  while (*text != '\0') {
    const char* end = text;
    while (*end != '\0' && *end != '.') ++end;
    bool found = false;
    for (const char* word : allowed) {
      std::size_t n = 0;
      while (word[n] != '\0' && text + n < end && word[n] == text[n]) ++n;
      found = found || (word[n] == '\0' && text + n == end);
    }
    if (!found || end == text) return false;
    text = *end == '.' ? end + 1 : end;
  }
  return true;
}
constexpr bool runs_as_load(const char* qualifiers) {
  return qualifiers_among(qualifiers, {"global", "nc", "ca", "cg", "cs", "lu", "cv"});
}
constexpr bool runs_as_store(const char* qualifiers) {
  return qualifiers_among(qualifiers, {"global", "wb", "cg", "cs", "wt"});
}

// ---- Moves and vectors: {a, b} packs its elements from the lowest bits up.
template <class Reg, class... E>
Reg pack(E... elements) {
  static_assert(sizeof...(E) * sizeof(std::common_type_t<E...>) == sizeof(Reg));
  Reg r = 0;
  int shift = 0;
  ((r |= static_cast<Reg>(static_cast<Reg>(elements) << shift),
    shift += 8 * static_cast<int>(sizeof(E))),
   ...);
  return r;
}
template <class Reg, class... E>
void unpack(Reg r, E&... elements) {
  static_assert(sizeof...(E) * sizeof(std::common_type_t<E...>) == sizeof(Reg));
  int shift = 0;
  ((elements = static_cast<E>(r >> shift), shift += 8 * static_cast<int>(sizeof(E))), ...);
}

// ---- Special registers.
inline std::uint32_t laneid() { return shim::lane_id(); }
inline std::uint32_t warpid() { return shim::block_thread_rank() / 32u; }  // as warpsim places warps
inline std::uint32_t lanemask_eq() { return 1u << laneid(); }
inline std::uint32_t lanemask_lt() { return shim::lanemask_lt(); }
inline std::uint32_t lanemask_le() { return lanemask_lt() | lanemask_eq(); }
inline std::uint32_t lanemask_ge() { return ~lanemask_lt(); }
inline std::uint32_t lanemask_gt() { return ~lanemask_le(); }
// %globaltimer: nanoseconds of the host's real-time clock, as the GPU's is a nanosecond timer
// (_lo, _hi: its halves); %clock64 and %clock: the device's cycle counter, as clock64() reads it.
inline std::uint64_t globaltimer_register() {
  timespec now{};
  ::clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<std::uint64_t>(now.tv_sec) * 1000000000u + static_cast<std::uint64_t>(now.tv_nsec);
}
inline std::uint32_t globaltimer_lo_register() { return static_cast<std::uint32_t>(globaltimer_register()); }
inline std::uint32_t globaltimer_hi_register() { return static_cast<std::uint32_t>(globaltimer_register() >> 32); }
inline std::uint64_t clock64_register() { return static_cast<std::uint64_t>(::clock64()); }
inline std::uint32_t clock_register() { return static_cast<std::uint32_t>(clock64_register()); }
// %tid, %ntid, %ctaid, %nctaid: x, y or z (axis 0, 1, 2) of the running lane's launch values.
template <class V>
std::uint32_t component(const V& v, int axis) {
  return axis == 0 ? v.x : axis == 1 ? v.y : v.z;
}
inline std::uint32_t tid(int axis) { return component(device::current_env->thread_idx, axis); }
inline std::uint32_t ntid(int axis) { return component(device::current_env->block_dim, axis); }
inline std::uint32_t ctaid(int axis) { return component(device::current_env->block_idx, axis); }
inline std::uint32_t nctaid(int axis) { return component(device::current_env->grid_dim, axis); }

// ---- Integer and logic. Register bits wrap (two's complement), so add, sub and mul.lo do not
// depend on signedness; shifts clamp amounts past the width (shr.s fills with the sign).
template <class T>
typename T::bits add(typename T::bits a, typename T::bits b) {
  return static_cast<typename T::bits>(a + b);
}
template <class T>
typename T::bits sub(typename T::bits a, typename T::bits b) {
  return static_cast<typename T::bits>(a - b);
}
template <class T>
typename T::bits mul_lo(typename T::bits a, typename T::bits b) {
  using Wide = std::conditional_t<sizeof(typename T::bits) == 8, std::uint64_t, std::uint32_t>;
  return static_cast<typename T::bits>(static_cast<Wide>(a) * static_cast<Wide>(b));
}
template <class T>
typename T::bits mad_lo(typename T::bits a, typename T::bits b, typename T::bits c) {
  return add<T>(mul_lo<T>(a, b), c);
}
// The upper half of the full product (signed or unsigned as the type says).
template <class T>
typename T::bits mul_hi(typename T::bits a, typename T::bits b) {
  constexpr int width = 8 * sizeof(typename T::bits);
  if constexpr (T::kind == Kind::signed_int) {
    const Int128 p = static_cast<Int128>(value_of<T>(a)) * value_of<T>(b);
    return static_cast<typename T::bits>(static_cast<Uint128>(p) >> width);
  } else {
    const Uint128 p = static_cast<Uint128>(a) * b;
    return static_cast<typename T::bits>(p >> width);
  }
}
// mul.wide: the whole product, twice the type's width.
template <class T, class Wide>
Wide mul_wide(typename T::bits a, typename T::bits b) {
  if constexpr (T::kind == Kind::signed_int) {
    return static_cast<Wide>(static_cast<std::int64_t>(value_of<T>(a)) *
                             static_cast<std::int64_t>(value_of<T>(b)));
  } else {
    return static_cast<Wide>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
  }
}
template <class T>
typename T::bits min(typename T::bits a, typename T::bits b) {
  return value_of<T>(a) < value_of<T>(b) ? a : b;
}
template <class T>
typename T::bits max(typename T::bits a, typename T::bits b) {
  return value_of<T>(a) < value_of<T>(b) ? b : a;
}
template <class T>
typename T::bits bit_and(typename T::bits a, typename T::bits b) {
  return static_cast<typename T::bits>(a & b);
}
template <class T>
typename T::bits bit_or(typename T::bits a, typename T::bits b) {
  return static_cast<typename T::bits>(a | b);
}
template <class T>
typename T::bits bit_xor(typename T::bits a, typename T::bits b) {
  return static_cast<typename T::bits>(a ^ b);
}
template <class T>
typename T::bits bit_not(typename T::bits a) {
  if constexpr (T::kind == Kind::predicate) {
    return !a;
  } else {
    return static_cast<typename T::bits>(~a);
  }
}
template <class T>
typename T::bits shl(typename T::bits a, std::uint32_t b) {
  constexpr std::uint32_t width = 8 * sizeof(typename T::bits);
  return b >= width ? 0 : static_cast<typename T::bits>(a << b);
}
template <class T>
typename T::bits shr(typename T::bits a, std::uint32_t b) {
  constexpr std::uint32_t width = 8 * sizeof(typename T::bits);
  const std::uint32_t amount = b >= width ? width - 1 : b;
  if constexpr (T::kind == Kind::signed_int) {
    return static_cast<typename T::bits>(value_of<T>(a) >> amount);
  } else {
    return b >= width ? 0 : static_cast<typename T::bits>(a >> amount);
  }
}

// add.f32/.f64 and sub, rounded to nearest even as the host's IEEE unit does (subnormals kept:
// no .ftz). A NaN result is the GPU's: for f32 the canonical 0x7fffffff; for f64 the first NaN
// operand made quiet, else the invalid-operation NaN, which the host gives too (fp_round.hpp).
template <class T>
typename T::bits float_result(typename T::value r) {
  if constexpr (std::is_same_v<typename T::value, float>) {
    if (r != r) return 0x7fffffffu;
  }
  return shim::fp::bit_cast<typename T::bits>(r);
}
template <class T>
typename T::bits float_add(typename T::bits a, typename T::bits b) {
  return float_result<T>(value_of<T>(a) + value_of<T>(b));
}
template <class T>
typename T::bits float_sub(typename T::bits a, typename T::bits b) {
  return float_result<T>(value_of<T>(a) - value_of<T>(b));
}

// rsqrt/rcp/sqrt/ex2/lg2/sin/cos/tanh.approx{.ftz}.f32 by the host's functions, which are
// within the approximations' stated error (PTX ISA: 2 ulp for ex2, 2^-22.9 relative for rsqrt,
// 2^-11 for tanh, ...). .ftz flushes a subnormal operand and a subnormal result to zero, keeping
// the sign.
enum class Approx { rsqrt, rcp, sqrt, ex2, lg2, sin, cos, tanh };
inline std::uint32_t approx_f32(Approx op, bool ftz, std::uint32_t bits) {
  const auto flushed = [ftz](float v) {
    return ftz && std::fpclassify(v) == FP_SUBNORMAL ? std::copysign(0.0f, v) : v;
  };
  const float a = flushed(shim::fp::bit_cast<float>(bits));
  float r = 0;
  switch (op) {
    case Approx::rsqrt: r = 1.0f / std::sqrt(a); break;
    case Approx::rcp: r = 1.0f / a; break;
    case Approx::sqrt: r = std::sqrt(a); break;
    case Approx::ex2: r = std::exp2(a); break;
    case Approx::lg2: r = std::log2(a); break;
    case Approx::sin: r = std::sin(a); break;
    case Approx::cos: r = std::cos(a); break;
    case Approx::tanh: r = std::tanh(a); break;
  }
  return float_result<f32>(flushed(r));
}

// ---- Comparison (setp) and selection.
enum class Cmp { eq, ne, lt, le, gt, ge, lo, ls, hi, hs, equ, neu, ltu, leu, gtu, geu, num, nan };
// lo/ls/hi/hs compare the bits unsigned; lt..ge as the type reads them (.b types unsigned).
// For floats the plain forms are false when either side is NaN, the ...u forms true.
template <class T>
bool setp(Cmp cmp, typename T::bits a, typename T::bits b) {
  if constexpr (T::kind == Kind::floating) {
    const auto x = value_of<T>(a), y = value_of<T>(b);
    const bool unordered = x != x || y != y;
    switch (cmp) {
      case Cmp::eq: return !unordered && x == y;
      case Cmp::ne: return !unordered && x != y;
      case Cmp::lt: return !unordered && x < y;
      case Cmp::le: return !unordered && x <= y;
      case Cmp::gt: return !unordered && x > y;
      case Cmp::ge: return !unordered && x >= y;
      case Cmp::equ: return unordered || x == y;
      case Cmp::neu: return unordered || x != y;
      case Cmp::ltu: return unordered || x < y;
      case Cmp::leu: return unordered || x <= y;
      case Cmp::gtu: return unordered || x > y;
      case Cmp::geu: return unordered || x >= y;
      case Cmp::num: return !unordered;
      case Cmp::nan: return unordered;
      default: return false;  // the translator gives floats no lo/ls/hi/hs
    }
  } else {
    const auto x = value_of<T>(a), y = value_of<T>(b);
    switch (cmp) {
      case Cmp::eq: return a == b;
      case Cmp::ne: return a != b;
      case Cmp::lt: return x < y;
      case Cmp::le: return x <= y;
      case Cmp::gt: return x > y;
      case Cmp::ge: return x >= y;
      case Cmp::lo: return a < b;
      case Cmp::ls: return a <= b;
      case Cmp::hi: return a > b;
      case Cmp::hs: return a >= b;
      default: return false;  // the translator gives integers no unordered forms
    }
  }
}
template <class Bits>
Bits selp(Bits a, Bits b, bool c) {
  return c ? a : b;
}

// ---- cvt. Integer to integer: narrower chops, wider extends as the source's signedness says;
// .sat clamps to the destination's range. Float to integer rounds in the given mode and
// saturates (NaN gives 0). Integer and float to float round in the given mode; widening is exact.
// 16-bit floats: NaN becomes the canonical NaN, as the GPU's conversions give.
template <class D, class A>
typename D::bits cvt(typename A::bits a, Round mode, bool saturate) {
  using DV = typename D::value;
  using AV = typename A::value;
  constexpr bool d_int = D::kind == Kind::signed_int || D::kind == Kind::unsigned_int;
  constexpr bool a_int = A::kind == Kind::signed_int || A::kind == Kind::unsigned_int;
  constexpr bool d_half = std::is_same_v<D, f16> || std::is_same_v<D, bf16>;
  constexpr bool a_half = std::is_same_v<A, f16> || std::is_same_v<A, bf16>;
  if constexpr (d_int && a_int) {
    const AV v = value_of<A>(a);
    if (saturate) {
      using Wide = std::conditional_t<std::is_signed_v<AV>, Int128, Uint128>;
      const auto lo = static_cast<Int128>(std::numeric_limits<DV>::min());
      const auto hi = static_cast<Int128>(std::numeric_limits<DV>::max());
      const auto w = static_cast<Int128>(static_cast<Wide>(v));
      return static_cast<typename D::bits>(static_cast<DV>(w < lo ? lo : w > hi ? hi : w));
    }
    return static_cast<typename D::bits>(static_cast<std::int64_t>(v));
  } else if constexpr (d_int) {  // from a float
    double x = 0;
    if constexpr (a_half) {
      x = shim::f16::to_float<typename A::value>(a);
    } else {
      x = static_cast<double>(value_of<A>(a));
    }
    return static_cast<typename D::bits>(shim::fp::to_integer<DV>(x, mode, DV{0}));
  } else if constexpr (d_half) {
    using F = typename D::value;
    if constexpr (a_int) {
      return shim::f16::from_integer<F>(value_of<A>(a), mode);
    } else if constexpr (a_half) {
      return shim::f16::from_float<F>(shim::f16::to_float<typename A::value>(a), mode);
    } else {
      return shim::f16::from_double<F>(static_cast<double>(value_of<A>(a)), mode);
    }
  } else {  // to f32 or f64
    constexpr shim::fp::Format format =
        std::is_same_v<D, f32> ? shim::fp::kBinary32 : shim::fp::kBinary64;
    if constexpr (a_int) {
      const shim::fp::Exact e = shim::fp::exact_integer(
          std::conditional_t<std::is_signed_v<AV>, long long, unsigned long long>(value_of<A>(a)));
      return static_cast<typename D::bits>(shim::fp::round_to(format, e, mode));
    } else if constexpr (a_half) {  // widening, exact (the 16-bit NaN rules of to_float)
      return shim::fp::bit_cast<typename D::bits>(
          static_cast<DV>(shim::f16::to_float<typename A::value>(a)));
    } else if constexpr (sizeof(typename D::bits) > sizeof(typename A::bits)) {  // f32 to f64
      return shim::fp::bit_cast<typename D::bits>(static_cast<DV>(value_of<A>(a)));
    } else {  // f64 to f32: NaN becomes the canonical float NaN, as the GPU gives
      const double x = value_of<A>(a);
      if (x != x) return 0x7fffffffu;
      if (x == 0 || x == std::numeric_limits<double>::infinity() ||
          x == -std::numeric_limits<double>::infinity()) {
        return shim::fp::bit_cast<typename D::bits>(static_cast<DV>(x));
      }
      return static_cast<typename D::bits>(shim::fp::round_to(format, shim::fp::exact(x), mode));
    }
  }
}
// cvt.rn.f16x2.f32 d, a, b: a's conversion in the upper half, b's in the lower.
template <class H>
std::uint32_t cvt_pair(std::uint32_t a, std::uint32_t b, Round mode) {
  return static_cast<std::uint32_t>(cvt<H, f32>(a, mode, false)) << 16 | cvt<H, f32>(b, mode, false);
}

// ---- Bit manipulation (32-bit).
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

// c plus the sum of the absolute differences of a's and b's four unsigned bytes (PTX
// vabsdiff4.u32.u32.u32.add; __vsadu4(a, b) + c).
inline std::uint32_t vabsdiff4_add_u32(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  std::uint32_t sum = c;
  for (int shift = 0; shift < 32; shift += 8) {
    const std::uint32_t x = (a >> shift) & 0xffu, y = (b >> shift) & 0xffu;
    sum += x > y ? x - y : y - x;
  }
  return sum;
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
inline std::uint64_t brev_b64(std::uint64_t a) { return __brevll(a); }
inline std::uint32_t popc_b64(std::uint64_t a) { return static_cast<std::uint32_t>(__popcll(a)); }
inline std::uint32_t clz_b64(std::uint64_t a) { return static_cast<std::uint32_t>(__clzll(static_cast<long long>(a))); }
// bfind: the position of the most significant bit that is not a sign bit (for a negative signed
// value, its most significant 0), 0xffffffff when there is none; .shiftamt gives the left shift
// that brings that bit to the top instead (width - 1 - position).
template <class T>
inline std::uint32_t bfind(T a, bool shift_amount) {
  using U = std::make_unsigned_t<T>;
  constexpr int width = static_cast<int>(sizeof(T) * 8);
  U bits = static_cast<U>(a);
  if (std::is_signed_v<T> && a < 0) bits = static_cast<U>(~bits);
  if (bits == 0) return 0xffffffffu;
  const int position = 63 - __builtin_clzll(static_cast<std::uint64_t>(bits));
  return static_cast<std::uint32_t>(shift_amount ? width - 1 - position : position);
}

// ---- Warp-level: the shim's own calls, traced at the asm's line.
//
// shfl.sync's c operand is ((32 - width) << 8) | clamp. The simulator's shuffle takes a width and
// the clamp CUDA's intrinsics pass (0 for up, 31 otherwise); a lane's source j does not depend on
// the clamp, only whether j is in range does, and a smaller clamp only narrows the range. So the
// shuffle runs with the segment's width and each lane applies PTX's range test with its own
// clamp: out of range, it keeps its own value. `p` (d|p) is that test.
inline bool shfl_in_range(Op op, std::uint32_t b, std::uint32_t c) {
  const int lane = static_cast<int>(laneid());
  const int bval = static_cast<int>(b & 31u), cval = static_cast<int>(c & 31u);
  const int seg = static_cast<int>((c >> 8) & 31u);
  const int min_lane = lane & seg, max_lane = (lane & seg) | (cval & ~seg);
  switch (op) {
    case Op::shfl_up: return lane - bval >= max_lane;
    case Op::shfl_down: return lane + bval <= max_lane;
    case Op::shfl_xor: return (lane ^ bval) <= max_lane;
    default: return (min_lane | (bval & ~seg)) <= max_lane;  // idx
  }
}
inline std::uint32_t shfl(Op op, std::uint32_t a, std::uint32_t b, std::uint32_t c,
                          std::uint32_t m, bool* p, CallSite site = CallSite::here()) {
  const int width = 32 - static_cast<int>((c >> 8) & 31u);
  const std::uint32_t moved = shim::shuffle<unsigned>(op, m, a, static_cast<int>(b), width, site);
  const bool in_range = shfl_in_range(op, b, c);
  if (p != nullptr) *p = in_range;
  return in_range ? moved : a;
}
inline std::uint32_t vote_ballot(bool a, std::uint32_t m, CallSite site = CallSite::here()) {
  return shim::vote(Op::ballot, m, a ? 1 : 0, site);
}
inline bool vote_any(bool a, std::uint32_t m, CallSite site = CallSite::here()) {
  return shim::vote(Op::any, m, a ? 1 : 0, site) != 0;
}
inline bool vote_all(bool a, std::uint32_t m, CallSite site = CallSite::here()) {
  return shim::vote(Op::all, m, a ? 1 : 0, site) != 0;
}
inline bool vote_uni(bool a, std::uint32_t m, CallSite site = CallSite::here()) {
  return shim::vote(Op::uni, m, a ? 1 : 0, site) != 0;
}
inline std::uint32_t activemask_b32(CallSite site = CallSite::here()) {
  return static_cast<std::uint32_t>(device::warp_op({Op::activemask}, 0, site));
}
inline void bar_warp_sync(std::uint32_t m, CallSite site = CallSite::here()) {
  device::warp_op({Op::syncwarp, ValueType::none, m}, 0, site);
}
template <class Bits>
std::uint32_t match_any(Bits a, std::uint32_t m, CallSite site = CallSite::here()) {
  return shim::match<Bits>(Op::match_any, m, a, nullptr, site);
}
// match.sync.all: d is the mask when every lane's value agrees, else 0; p says which.
template <class Bits>
std::uint32_t match_all(Bits a, std::uint32_t m, bool* p, CallSite site = CallSite::here()) {
  int agreed = 0;
  const std::uint32_t d = shim::match<Bits>(Op::match_all, m, a, &agreed, site);
  if (p != nullptr) *p = agreed != 0;
  return d;
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
