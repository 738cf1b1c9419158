// Atomic functions. Lanes are fibers on one OS thread and only switch at warp-level calls,
// barriers and between atomics (a spinning lane yields, device_abi.hpp's spin_tick), so a plain
// read-modify-write is atomic here, as each CUDA atomic is on the device.
#pragma once

#include <cstring>

#include "warpsim/arch.hpp"
#include "warpsim/device_abi.hpp"
#include "warpsim/vector_types.hpp"

#if defined(__SANITIZE_THREAD__)
#define WARPSIM_CHECKED_BUILD 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define WARPSIM_CHECKED_BUILD 1
#endif
#endif

#if defined(WARPSIM_CHECKED_BUILD)
// Under `--check races` (code built with -fsanitize=thread) the accesses inside an atomic are
// atomic accesses for the race checker: atomics never race with each other.
extern "C" void warpsim_atomic_begin();
extern "C" void warpsim_atomic_end();
#endif

namespace warpsim::shim {

// Each atomic is a tick of forward progress: a lane spinning on atomics yields to the others.
inline void atomic_tick() { ::warpsim::device::spin_tick({nullptr, 0}); }

struct AtomicScope {
#if defined(WARPSIM_CHECKED_BUILD)
  AtomicScope() { warpsim_atomic_begin(); }
  ~AtomicScope() { warpsim_atomic_end(); }
  AtomicScope(const AtomicScope&) = delete;
  AtomicScope& operator=(const AtomicScope&) = delete;
#endif
};

template <class T, class F>
inline T atomic_update(T* address, F update) {
  [[maybe_unused]] const AtomicScope atomic;
  atomic_tick();
  const T old = *address;
  *address = update(old);
  return old;
}

}  // namespace warpsim::shim

#define WARPSIM_ATOMIC(NAME, T, EXPR)                                                       \
  inline T NAME(T* address, T val) {                                                        \
    return ::warpsim::shim::atomic_update(address, [val]([[maybe_unused]] T old) -> T { return EXPR; });     \
  }                                                                                         \
  inline T NAME##_block(T* address, T val) { return NAME(address, val); }                   \
  inline T NAME##_system(T* address, T val) { return NAME(address, val); }

WARPSIM_ATOMIC(atomicAdd, int, old + val)
WARPSIM_ATOMIC(atomicAdd, unsigned int, old + val)
WARPSIM_ATOMIC(atomicAdd, unsigned long long, old + val)
WARPSIM_ATOMIC(atomicAdd, float, old + val)
WARPSIM_ATOMIC(atomicAdd, double, old + val)
WARPSIM_ATOMIC(atomicSub, int, old - val)
WARPSIM_ATOMIC(atomicSub, unsigned int, old - val)
WARPSIM_ATOMIC(atomicExch, int, val)
WARPSIM_ATOMIC(atomicExch, unsigned int, val)
WARPSIM_ATOMIC(atomicExch, unsigned long long, val)
WARPSIM_ATOMIC(atomicExch, float, val)
WARPSIM_ATOMIC(atomicMin, int, val < old ? val : old)
WARPSIM_ATOMIC(atomicMin, unsigned int, val < old ? val : old)
WARPSIM_ATOMIC(atomicMin, long long, val < old ? val : old)
WARPSIM_ATOMIC(atomicMin, unsigned long long, val < old ? val : old)
WARPSIM_ATOMIC(atomicMax, int, val > old ? val : old)
WARPSIM_ATOMIC(atomicMax, unsigned int, val > old ? val : old)
WARPSIM_ATOMIC(atomicMax, long long, val > old ? val : old)
WARPSIM_ATOMIC(atomicMax, unsigned long long, val > old ? val : old)
WARPSIM_ATOMIC(atomicAnd, int, old & val)
WARPSIM_ATOMIC(atomicAnd, unsigned int, old & val)
WARPSIM_ATOMIC(atomicAnd, long long, old & val)
WARPSIM_ATOMIC(atomicAnd, unsigned long long, old & val)
WARPSIM_ATOMIC(atomicOr, int, old | val)
WARPSIM_ATOMIC(atomicOr, unsigned int, old | val)
WARPSIM_ATOMIC(atomicOr, long long, old | val)
WARPSIM_ATOMIC(atomicOr, unsigned long long, old | val)
WARPSIM_ATOMIC(atomicXor, int, old ^ val)
WARPSIM_ATOMIC(atomicXor, unsigned int, old ^ val)
WARPSIM_ATOMIC(atomicXor, long long, old ^ val)
WARPSIM_ATOMIC(atomicXor, unsigned long long, old ^ val)
#if __CUDA_ARCH__ >= 900  // sm_90_rt.h: vector float adds, elementwise
WARPSIM_ATOMIC(atomicAdd, float2, (float2{old.x + val.x, old.y + val.y}))
WARPSIM_ATOMIC(atomicAdd, float4, (float4{old.x + val.x, old.y + val.y, old.z + val.z, old.w + val.w}))
#endif
// ((old >= val) ? 0 : (old + 1)) and (((old == 0) || (old > val)) ? val : (old - 1)), as CUDA defines.
WARPSIM_ATOMIC(atomicInc, unsigned int, old >= val ? 0u : old + 1u)
WARPSIM_ATOMIC(atomicDec, unsigned int, (old == 0u || old > val) ? val : old - 1u)

#undef WARPSIM_ATOMIC

#define WARPSIM_ATOMIC_CAS(T)                                                          \
  inline T atomicCAS(T* address, T compare, T val) {                                   \
    [[maybe_unused]] const ::warpsim::shim::AtomicScope atomic;                                         \
    ::warpsim::shim::atomic_tick();                                                    \
    const T old = *address;                                                            \
    if (old == compare) *address = val;                                                \
    return old;                                                                        \
  }                                                                                    \
  inline T atomicCAS_block(T* address, T compare, T val) { return atomicCAS(address, compare, val); } \
  inline T atomicCAS_system(T* address, T compare, T val) { return atomicCAS(address, compare, val); }

WARPSIM_ATOMIC_CAS(int)
WARPSIM_ATOMIC_CAS(unsigned int)
WARPSIM_ATOMIC_CAS(unsigned long long)
WARPSIM_ATOMIC_CAS(unsigned short)

#undef WARPSIM_ATOMIC_CAS

inline void __threadfence() {}
inline void __threadfence_block() {}
inline void __threadfence_system() {}
