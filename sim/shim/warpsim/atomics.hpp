// Atomic functions. Lanes of one block are fibers on one OS thread and only switch at warp-level
// calls, barriers and between atomics (a spinning lane yields, device_abi.hpp's spin_tick); blocks
// of a launch may run on several OS threads at once (LaunchOptions::jobs), as on a GPU, so each
// read-modify-write is a compare-and-swap loop: atomic across blocks, as each CUDA atomic is on
// the device. Code built for the race checker (which runs blocks one at a time) keeps plain
// read-modify-writes, bracketed so that the checker sees them as atomic.
#pragma once

#include <atomic>
#include <cstdint>
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
#if defined(WARPSIM_CHECKED_BUILD)
  const T old = *address;
  *address = update(old);
  return old;
#else
  static_assert(sizeof(T) <= 16, "an atomic of more than 16 bytes");
  if constexpr (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8) {
    T old;
    __atomic_load(address, &old, __ATOMIC_RELAXED);
    T desired = update(old);
    while (!__atomic_compare_exchange(address, &old, &desired, false, __ATOMIC_SEQ_CST,
                                      __ATOMIC_RELAXED)) {
      desired = update(old);
    }
    return old;
  } else {  // 16 bytes (float4): a lock per address, since no plain instruction swaps them
    static std::atomic_flag locks[64];
    std::atomic_flag& lock = locks[(reinterpret_cast<std::uintptr_t>(address) >> 4) % 64];
    while (lock.test_and_set(std::memory_order_acquire)) {
    }
    const T old = *address;
    *address = update(old);
    lock.clear(std::memory_order_release);
    return old;
  }
#endif
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
    return ::warpsim::shim::atomic_update(                                             \
        address, [compare, val](T old) -> T { return old == compare ? val : old; });   \
  }                                                                                    \
  inline T atomicCAS_block(T* address, T compare, T val) { return atomicCAS(address, compare, val); } \
  inline T atomicCAS_system(T* address, T compare, T val) { return atomicCAS(address, compare, val); }

WARPSIM_ATOMIC_CAS(int)
WARPSIM_ATOMIC_CAS(unsigned int)
WARPSIM_ATOMIC_CAS(unsigned long long)
WARPSIM_ATOMIC_CAS(unsigned short)

#undef WARPSIM_ATOMIC_CAS

// Blocks may run on several OS threads (atomics.hpp's head): a fence orders memory between them.
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_block() { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
