// CUDA 12.8's __nv_atomic_* functions (crt/device_functions.h's memory orders and scopes; the
// functions are nvcc built-ins, shaped as GCC's __atomic_* built-ins with a scope added):
//   unsigned v = __nv_atomic_load_n(&flag, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);
//   __nv_atomic_fetch_add(&count, 1u, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
// Each is an atomic of atomics.hpp (atomic across blocks, seen as atomic by the race checker, a
// tick of forward progress for a lane that spins on it); every order is kept as sequentially
// consistent and every scope as the system's, which is stronger than any that can be asked for,
// so a program correct on a GPU is correct here (a missing acquire is not found, only kept).
#pragma once

#include <type_traits>

#include "warpsim/atomics.hpp"

enum {
  __NV_ATOMIC_RELAXED,
  __NV_ATOMIC_CONSUME,
  __NV_ATOMIC_ACQUIRE,
  __NV_ATOMIC_RELEASE,
  __NV_ATOMIC_ACQ_REL,
  __NV_ATOMIC_SEQ_CST
};

enum {
  __NV_THREAD_SCOPE_THREAD,
  __NV_THREAD_SCOPE_BLOCK,
  __NV_THREAD_SCOPE_CLUSTER,
  __NV_THREAD_SCOPE_DEVICE,
  __NV_THREAD_SCOPE_SYSTEM
};

namespace warpsim::shim::nv_atomic {
template <class T>
using Value = std::remove_volatile_t<T>;
template <class T>
Value<T>* plain(T* ptr) {
  return const_cast<Value<T>*>(ptr);
}
}  // namespace warpsim::shim::nv_atomic

#define WARPSIM_NV_FETCH(NAME, EXPR)                                                          \
  template <class T, class U>                                                               \
  inline ::warpsim::shim::nv_atomic::Value<T> NAME(T* ptr, U operand, int, int = __NV_THREAD_SCOPE_SYSTEM) { \
    using V = ::warpsim::shim::nv_atomic::Value<T>;                                         \
    const V val = static_cast<V>(operand);                                                  \
    return ::warpsim::shim::atomic_update(::warpsim::shim::nv_atomic::plain(ptr),           \
                                          [val]([[maybe_unused]] V old) -> V { return EXPR; }); \
  }
WARPSIM_NV_FETCH(__nv_atomic_fetch_add, old + val)
WARPSIM_NV_FETCH(__nv_atomic_fetch_sub, old - val)
WARPSIM_NV_FETCH(__nv_atomic_fetch_and, old & val)
WARPSIM_NV_FETCH(__nv_atomic_fetch_or, old | val)
WARPSIM_NV_FETCH(__nv_atomic_fetch_xor, old ^ val)
WARPSIM_NV_FETCH(__nv_atomic_fetch_min, val < old ? val : old)
WARPSIM_NV_FETCH(__nv_atomic_fetch_max, val > old ? val : old)
WARPSIM_NV_FETCH(__nv_atomic_exchange_n, val)
#undef WARPSIM_NV_FETCH

// A load is an update that writes back what it read (under the race checker: an atomic read
// and write of the same value, which races with no other atomic).
template <class T>
inline ::warpsim::shim::nv_atomic::Value<T> __nv_atomic_load_n(T* ptr, int,
                                                               int = __NV_THREAD_SCOPE_SYSTEM) {
  using V = ::warpsim::shim::nv_atomic::Value<T>;
  return ::warpsim::shim::atomic_update(::warpsim::shim::nv_atomic::plain(ptr),
                                        [](V old) -> V { return old; });
}
template <class T>
inline void __nv_atomic_load(T* ptr, ::warpsim::shim::nv_atomic::Value<T>* ret, int order,
                             int scope = __NV_THREAD_SCOPE_SYSTEM) {
  *ret = __nv_atomic_load_n(ptr, order, scope);
}
template <class T, class U>
inline void __nv_atomic_store_n(T* ptr, U value, int order, int scope = __NV_THREAD_SCOPE_SYSTEM) {
  __nv_atomic_exchange_n(ptr, value, order, scope);
}
template <class T>
inline void __nv_atomic_store(T* ptr, ::warpsim::shim::nv_atomic::Value<T>* value, int order,
                              int scope = __NV_THREAD_SCOPE_SYSTEM) {
  __nv_atomic_exchange_n(ptr, *value, order, scope);
}
template <class T>
inline void __nv_atomic_exchange(T* ptr, ::warpsim::shim::nv_atomic::Value<T>* value,
                                 ::warpsim::shim::nv_atomic::Value<T>* ret, int order,
                                 int scope = __NV_THREAD_SCOPE_SYSTEM) {
  *ret = __nv_atomic_exchange_n(ptr, *value, order, scope);
}
// Strong or weak alike (a weak one here never fails spuriously): true when *ptr held *expected
// and now holds desired; otherwise *expected gets what it held.
template <class T, class U>
inline bool __nv_atomic_compare_exchange_n(T* ptr, ::warpsim::shim::nv_atomic::Value<T>* expected,
                                           U desired, bool, int, int,
                                           int = __NV_THREAD_SCOPE_SYSTEM) {
  using V = ::warpsim::shim::nv_atomic::Value<T>;
  const V compare = *expected;
  const V val = static_cast<V>(desired);
  const V old = ::warpsim::shim::atomic_update(
      ::warpsim::shim::nv_atomic::plain(ptr),
      [compare, val](V held) -> V { return held == compare ? val : held; });
  if (old == compare) return true;
  *expected = old;
  return false;
}
template <class T>
inline bool __nv_atomic_compare_exchange(T* ptr, ::warpsim::shim::nv_atomic::Value<T>* expected,
                                         ::warpsim::shim::nv_atomic::Value<T>* desired, bool weak,
                                         int success, int failure,
                                         int scope = __NV_THREAD_SCOPE_SYSTEM) {
  return __nv_atomic_compare_exchange_n(ptr, expected, *desired, weak, success, failure, scope);
}
inline void __nv_atomic_thread_fence(int, int = __NV_THREAD_SCOPE_SYSTEM) { __threadfence(); }
inline void __nv_atomic_signal_fence(int) { __threadfence_block(); }
