// Warp-level intrinsics with CUDA's exact overload sets. Each call hands the lane's operands to
// the simulator (device::warp_op), which blocks the lane until the call completes; the call site
// arrives through a defaulted CallSite parameter, so traces carry the kernel's file:line.
#pragma once

#include <cstdio>
#include <exception>

#include "warpsim/arch.hpp"
#include "warpsim/device_abi.hpp"
#include "warpsim/unsupported.hpp"
#include "warpsim/value_bits.hpp"

namespace warpsim::shim {

using device::CallSite;

template <class T>
T shuffle(Op op, unsigned mask, T var, int arg, int width, CallSite site) {
  return ValueBits<T>::from(
      device::warp_op({op, ValueBits<T>::type, mask, arg, width}, ValueBits<T>::to(var), site));
}

template <class T>
unsigned match(Op op, unsigned mask, T value, int* pred, CallSite site) {
  bool p = false;
  const auto result = static_cast<unsigned>(
      device::warp_op({op, ValueBits<T>::type, mask}, ValueBits<T>::to(value), site, &p));
  if (pred != nullptr) *pred = p ? 1 : 0;
  return result;
}

template <class T>
T reduce(Op op, ValueType type, unsigned mask, T value, CallSite site) {
  return static_cast<T>(static_cast<std::uint32_t>(
      device::warp_op({op, type, mask}, static_cast<std::uint32_t>(value), site)));
}

inline unsigned vote(Op op, unsigned mask, int predicate, CallSite site) {
  return static_cast<unsigned>(
      device::warp_op({op, ValueType::none, mask}, static_cast<std::uint32_t>(predicate), site));
}

}  // namespace warpsim::shim

#define WARPSIM_SHUFFLES(T)                                                                   \
  inline T __shfl_sync(unsigned mask, T var, int srcLane, int width = warpSize,              \
                       ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) { \
    return ::warpsim::shim::shuffle(::warpsim::Op::shfl_idx, mask, var, srcLane, width, site);  \
  }                                                                                           \
  inline T __shfl_up_sync(unsigned mask, T var, unsigned int delta, int width = warpSize,    \
                          ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) { \
    return ::warpsim::shim::shuffle(::warpsim::Op::shfl_up, mask, var, static_cast<int>(delta), \
                                    width, site);                                             \
  }                                                                                           \
  inline T __shfl_down_sync(unsigned mask, T var, unsigned int delta, int width = warpSize,  \
                            ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) { \
    return ::warpsim::shim::shuffle(::warpsim::Op::shfl_down, mask, var,                      \
                                    static_cast<int>(delta), width, site);                    \
  }                                                                                           \
  inline T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = warpSize,         \
                           ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) { \
    return ::warpsim::shim::shuffle(::warpsim::Op::shfl_xor, mask, var, laneMask, width, site); \
  }

#define WARPSIM_MATCHES(T)                                                                    \
  inline unsigned __match_any_sync(unsigned mask, T value,                                    \
                                   ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) { \
    return ::warpsim::shim::match(::warpsim::Op::match_any, mask, value, nullptr, site);      \
  }                                                                                           \
  inline unsigned __match_all_sync(unsigned mask, T value, int* pred,                         \
                                   ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()) { \
    return ::warpsim::shim::match(::warpsim::Op::match_all, mask, value, pred, site);         \
  }

WARPSIM_SHUFFLES(int)
WARPSIM_SHUFFLES(unsigned int)
WARPSIM_SHUFFLES(long)
WARPSIM_SHUFFLES(unsigned long)
WARPSIM_SHUFFLES(long long)
WARPSIM_SHUFFLES(unsigned long long)
WARPSIM_SHUFFLES(float)
WARPSIM_SHUFFLES(double)
WARPSIM_SHUFFLES(__half)
WARPSIM_SHUFFLES(__half2)
WARPSIM_SHUFFLES(__nv_bfloat16)
WARPSIM_SHUFFLES(__nv_bfloat162)

// sm_70 and later (sm_70_rt.h); every architecture warpsim compiles for has them.
#if __CUDA_ARCH__ >= 700
WARPSIM_MATCHES(int)
WARPSIM_MATCHES(unsigned int)
WARPSIM_MATCHES(long)
WARPSIM_MATCHES(unsigned long)
WARPSIM_MATCHES(long long)
WARPSIM_MATCHES(unsigned long long)
WARPSIM_MATCHES(float)
WARPSIM_MATCHES(double)
#else
WARPSIM_NEEDS_ARCH(unsigned, __match_any_sync, 70)
WARPSIM_NEEDS_ARCH(unsigned, __match_all_sync, 70)
#endif

#undef WARPSIM_SHUFFLES
#undef WARPSIM_MATCHES

#define WARPSIM_SITE ::warpsim::device::CallSite site = ::warpsim::device::CallSite::here()

inline int __all_sync(unsigned mask, int predicate, WARPSIM_SITE) {
  return static_cast<int>(::warpsim::shim::vote(::warpsim::Op::all, mask, predicate, site));
}
inline int __any_sync(unsigned mask, int predicate, WARPSIM_SITE) {
  return static_cast<int>(::warpsim::shim::vote(::warpsim::Op::any, mask, predicate, site));
}
inline int __uni_sync(unsigned mask, int predicate, WARPSIM_SITE) {
  return static_cast<int>(::warpsim::shim::vote(::warpsim::Op::uni, mask, predicate, site));
}
inline unsigned __ballot_sync(unsigned mask, int predicate, WARPSIM_SITE) {
  return ::warpsim::shim::vote(::warpsim::Op::ballot, mask, predicate, site);
}
inline unsigned __activemask(WARPSIM_SITE) {
  return static_cast<unsigned>(::warpsim::device::warp_op({::warpsim::Op::activemask}, 0, site));
}
inline void __syncwarp(unsigned mask = 0xffffffffu, WARPSIM_SITE) {
  ::warpsim::device::warp_op({::warpsim::Op::syncwarp, ::warpsim::ValueType::none, mask}, 0, site);
}

// sm_80 and later (sm_80_rt.h).
#if __CUDA_ARCH__ >= 800
inline unsigned __reduce_add_sync(unsigned mask, unsigned value, WARPSIM_SITE) {
  return ::warpsim::shim::reduce(::warpsim::Op::reduce_add, ::warpsim::ValueType::u32, mask, value, site);
}
inline int __reduce_add_sync(unsigned mask, int value, WARPSIM_SITE) {
  return ::warpsim::shim::reduce(::warpsim::Op::reduce_add, ::warpsim::ValueType::i32, mask, value, site);
}
inline unsigned __reduce_min_sync(unsigned mask, unsigned value, WARPSIM_SITE) {
  return ::warpsim::shim::reduce(::warpsim::Op::reduce_min, ::warpsim::ValueType::u32, mask, value, site);
}
inline int __reduce_min_sync(unsigned mask, int value, WARPSIM_SITE) {
  return ::warpsim::shim::reduce(::warpsim::Op::reduce_min, ::warpsim::ValueType::i32, mask, value, site);
}
inline unsigned __reduce_max_sync(unsigned mask, unsigned value, WARPSIM_SITE) {
  return ::warpsim::shim::reduce(::warpsim::Op::reduce_max, ::warpsim::ValueType::u32, mask, value, site);
}
inline int __reduce_max_sync(unsigned mask, int value, WARPSIM_SITE) {
  return ::warpsim::shim::reduce(::warpsim::Op::reduce_max, ::warpsim::ValueType::i32, mask, value, site);
}
inline unsigned __reduce_and_sync(unsigned mask, unsigned value, WARPSIM_SITE) {
  return ::warpsim::shim::reduce(::warpsim::Op::reduce_and, ::warpsim::ValueType::none, mask, value, site);
}
inline unsigned __reduce_or_sync(unsigned mask, unsigned value, WARPSIM_SITE) {
  return ::warpsim::shim::reduce(::warpsim::Op::reduce_or, ::warpsim::ValueType::none, mask, value, site);
}
inline unsigned __reduce_xor_sync(unsigned mask, unsigned value, WARPSIM_SITE) {
  return ::warpsim::shim::reduce(::warpsim::Op::reduce_xor, ::warpsim::ValueType::none, mask, value, site);
}

#else
WARPSIM_NEEDS_ARCH(unsigned, __reduce_add_sync, 80)
WARPSIM_NEEDS_ARCH(unsigned, __reduce_min_sync, 80)
WARPSIM_NEEDS_ARCH(unsigned, __reduce_max_sync, 80)
WARPSIM_NEEDS_ARCH(unsigned, __reduce_and_sync, 80)
WARPSIM_NEEDS_ARCH(unsigned, __reduce_or_sync, 80)
WARPSIM_NEEDS_ARCH(unsigned, __reduce_xor_sync, 80)
#endif

inline void __syncthreads(WARPSIM_SITE) {
  ::warpsim::device::block_barrier(::warpsim::Op::syncthreads, 1, site);
}
inline int __syncthreads_count(int predicate, WARPSIM_SITE) {
  return ::warpsim::device::block_barrier(::warpsim::Op::syncthreads_count, predicate, site);
}
inline int __syncthreads_and(int predicate, WARPSIM_SITE) {
  return ::warpsim::device::block_barrier(::warpsim::Op::syncthreads_and, predicate, site);
}
inline int __syncthreads_or(int predicate, WARPSIM_SITE) {
  return ::warpsim::device::block_barrier(::warpsim::Op::syncthreads_or, predicate, site);
}

// sm_20_intrinsics.h's bool forms.
inline int syncthreads_count(bool predicate, WARPSIM_SITE) { return __syncthreads_count(predicate, site); }
inline bool syncthreads_and(bool predicate, WARPSIM_SITE) { return __syncthreads_and(predicate, site) != 0; }
inline bool syncthreads_or(bool predicate, WARPSIM_SITE) { return __syncthreads_or(predicate, site) != 0; }

// Named barriers (bar.sync id{, count}): 16 per block. __barrier_sync(0) is __syncthreads (and
// traced as one, as cooperative groups' thread_block::sync() is); any other id, and every
// __barrier_sync_count, waits at that barrier while warps that do not take part run on.
inline void __barrier_sync(unsigned id, WARPSIM_SITE) {
  if (id == 0) return __syncthreads(site);
  ::warpsim::device::named_barrier(id, 0, false, site);
}
inline void __barrier_sync_count(unsigned id, unsigned count, WARPSIM_SITE) {
  ::warpsim::device::named_barrier(id, count, true, site);
}

#undef WARPSIM_SITE

// The warp votes without a mask are not valid on compute_70 and above (sm_30_intrinsics.h), the
// only architectures warpsim compiles for.
#define WARPSIM_PRE_VOLTA(RESULT, NAME, REPLACEMENT)                                            \
  template <class... Args>                                                                     \
  RESULT NAME(Args...) {                                                                       \
    static_assert(::warpsim::shim::not_simulated<Args...>,                                     \
                  #NAME "() is not valid on compute_70 and above: use " #REPLACEMENT "()");    \
    return ::warpsim::shim::default_value<RESULT>();                                           \
  }
WARPSIM_PRE_VOLTA(unsigned int, __ballot, __ballot_sync)
WARPSIM_PRE_VOLTA(int, __any, __any_sync)
WARPSIM_PRE_VOLTA(int, __all, __all_sync)
WARPSIM_PRE_VOLTA(unsigned int, ballot, __ballot_sync)
WARPSIM_PRE_VOLTA(bool, any, __any_sync)
WARPSIM_PRE_VOLTA(bool, all, __all_sync)
#undef WARPSIM_PRE_VOLTA
