// The calls that GCC's and Clang's -fsanitize=thread put around every memory access of
// instrumented code, answered here instead of by libtsan (the kernel object is built with the
// instrumentation and linked without the runtime, see sim/runner/kernel_compiler.cpp): each
// access inside checked memory goes to the launch's MemoryChecker with the running lane and the
// return address (which the report turns into a source line). Outside a checked launch they do
// nothing. Atomic callbacks perform the operation (lanes are fibers on one OS thread: a plain
// read-modify-write is atomic) and count as atomic accesses; so do the shim's atomics, which
// announce themselves with warpsim_atomic_begin/end.
#include <cstddef>
#include <cstdint>

#include "block_runner.hpp"
#include "memory_checker.hpp"

namespace {

__thread int tl_atomic_depth __attribute__((tls_model("initial-exec"))) = 0;
constinit bool g_instrumented = false;

// Out of bounds: the access must not happen (it may fault, losing every finding so far).
[[gnu::noinline, noreturn]] void stop_out_of_bounds(warpsim::runtime::BlockRunner* runner) {
  tl_atomic_depth = 0;  // the lane may stand inside an atomic; it never leaves it
  runner->stop_running_lane(warpsim::LaunchStatus::out_of_bounds,
                            "a lane touched memory outside a checked buffer");
}

// Inline into each plain load and store callback below, so that each has its own copy of the
// checker's common case with the size and the direction known.
[[gnu::always_inline]] inline void check_inline(const volatile void* address, std::size_t size,
                                                bool write, bool atomic, void* pc) {
  warpsim::runtime::MemoryChecker* checker = warpsim::runtime::tl_checker;
  if (checker == nullptr) return;
  warpsim::runtime::BlockRunner* runner = warpsim::runtime::tl_runner;
  const warpsim::runtime::Lane* lane = runner != nullptr ? runner->running_lane() : nullptr;
  if (lane == nullptr) return;
  if (!checker->access(reinterpret_cast<std::uintptr_t>(address), size, write,
                       atomic || tl_atomic_depth > 0, reinterpret_cast<std::uintptr_t>(pc),
                       lane->thread)) [[unlikely]] {
    stop_out_of_bounds(runner);
  }
}

void check(const volatile void* address, std::size_t size, bool write, bool atomic, void* pc) {
  check_inline(address, size, write, atomic, pc);
}

}  // namespace

namespace warpsim {
bool instrumented_code_loaded() { return g_instrumented; }
}  // namespace warpsim

#define WARPSIM_EXPORT extern "C" __attribute__((visibility("default"), noinline))

WARPSIM_EXPORT void warpsim_atomic_begin() { ++tl_atomic_depth; }
WARPSIM_EXPORT void warpsim_atomic_end() { --tl_atomic_depth; }

WARPSIM_EXPORT void __tsan_init() { g_instrumented = true; }
WARPSIM_EXPORT void __tsan_func_entry(void*) {}
WARPSIM_EXPORT void __tsan_func_exit() {}
// A constructor's store of an object's vtable pointer, and a virtual call's load of it: accesses
// like any other (an object built in shared memory by one thread and called by others after a
// barrier is written, then read: without them its first virtual call read unwritten bytes).
WARPSIM_EXPORT void __tsan_vptr_update(void** vptr, void*) {
  check(vptr, sizeof(void*), true, false, __builtin_return_address(0));
}
WARPSIM_EXPORT void __tsan_vptr_read(void** vptr) {
  check(vptr, sizeof(void*), false, false, __builtin_return_address(0));
}
WARPSIM_EXPORT void __tsan_ignore_thread_begin() {}
WARPSIM_EXPORT void __tsan_ignore_thread_end() {}

#define WARPSIM_ACCESS(SIZE)                                                                   \
  WARPSIM_EXPORT void __tsan_read##SIZE(void* a) {                                             \
    check_inline(a, SIZE, false, false, __builtin_return_address(0));                                 \
  }                                                                                            \
  WARPSIM_EXPORT void __tsan_write##SIZE(void* a) {                                            \
    check_inline(a, SIZE, true, false, __builtin_return_address(0));                                  \
  }                                                                                            \
  WARPSIM_EXPORT void __tsan_volatile_read##SIZE(void* a) {                                    \
    check_inline(a, SIZE, false, false, __builtin_return_address(0));                                 \
  }                                                                                            \
  WARPSIM_EXPORT void __tsan_volatile_write##SIZE(void* a) {                                   \
    check_inline(a, SIZE, true, false, __builtin_return_address(0));                                  \
  }                                                                                            \
  WARPSIM_EXPORT void __tsan_unaligned_read##SIZE(void* a) {                                   \
    check_inline(a, SIZE, false, false, __builtin_return_address(0));                                 \
  }                                                                                            \
  WARPSIM_EXPORT void __tsan_unaligned_write##SIZE(void* a) {                                  \
    check_inline(a, SIZE, true, false, __builtin_return_address(0));                                  \
  }                                                                                            \
  WARPSIM_EXPORT void __tsan_read##SIZE##_pc(void* a, void* pc) { check_inline(a, SIZE, false, false, pc); } \
  WARPSIM_EXPORT void __tsan_write##SIZE##_pc(void* a, void* pc) { check_inline(a, SIZE, true, false, pc); }
WARPSIM_ACCESS(1)
WARPSIM_ACCESS(2)
WARPSIM_ACCESS(4)
WARPSIM_ACCESS(8)
WARPSIM_ACCESS(16)
#undef WARPSIM_ACCESS

WARPSIM_EXPORT void __tsan_read_range(void* a, unsigned long size) {
  check(a, size, false, false, __builtin_return_address(0));
}
WARPSIM_EXPORT void __tsan_write_range(void* a, unsigned long size) {
  check(a, size, true, false, __builtin_return_address(0));
}

// ---- atomics: the operation itself, checked as an atomic access
namespace {

template <class T>
T atomic_rmw(volatile T* a, T v, int op, void* pc) {
  check(a, sizeof(T), true, true, pc);
  T* p = const_cast<T*>(a);
  const T old = *p;
  switch (op) {
    case 0: *p = v; break;
    case 1: *p = static_cast<T>(old + v); break;
    case 2: *p = static_cast<T>(old - v); break;
    case 3: *p = static_cast<T>(old & v); break;
    case 4: *p = static_cast<T>(old | v); break;
    case 5: *p = static_cast<T>(old ^ v); break;
    default: *p = static_cast<T>(~(old & v)); break;
  }
  return old;
}

template <class T>
int atomic_cas(volatile T* a, T* expected, T desired, void* pc) {
  check(a, sizeof(T), true, true, pc);
  T* p = const_cast<T*>(a);
  if (*p == *expected) {
    *p = desired;
    return 1;
  }
  *expected = *p;
  return 0;
}

}  // namespace

#define WARPSIM_ATOMICS(BITS, T)                                                               \
  WARPSIM_EXPORT T __tsan_atomic##BITS##_load(const volatile T* a, int) {                      \
    check(a, sizeof(T), false, true, __builtin_return_address(0));                             \
    return *const_cast<const T*>(a);                                                           \
  }                                                                                            \
  WARPSIM_EXPORT void __tsan_atomic##BITS##_store(volatile T* a, T v, int) {                   \
    check(a, sizeof(T), true, true, __builtin_return_address(0));                              \
    *const_cast<T*>(a) = v;                                                                    \
  }                                                                                            \
  WARPSIM_EXPORT T __tsan_atomic##BITS##_exchange(volatile T* a, T v, int) {                   \
    return atomic_rmw(a, v, 0, __builtin_return_address(0));                                   \
  }                                                                                            \
  WARPSIM_EXPORT T __tsan_atomic##BITS##_fetch_add(volatile T* a, T v, int) {                  \
    return atomic_rmw(a, v, 1, __builtin_return_address(0));                                   \
  }                                                                                            \
  WARPSIM_EXPORT T __tsan_atomic##BITS##_fetch_sub(volatile T* a, T v, int) {                  \
    return atomic_rmw(a, v, 2, __builtin_return_address(0));                                   \
  }                                                                                            \
  WARPSIM_EXPORT T __tsan_atomic##BITS##_fetch_and(volatile T* a, T v, int) {                  \
    return atomic_rmw(a, v, 3, __builtin_return_address(0));                                   \
  }                                                                                            \
  WARPSIM_EXPORT T __tsan_atomic##BITS##_fetch_or(volatile T* a, T v, int) {                   \
    return atomic_rmw(a, v, 4, __builtin_return_address(0));                                   \
  }                                                                                            \
  WARPSIM_EXPORT T __tsan_atomic##BITS##_fetch_xor(volatile T* a, T v, int) {                  \
    return atomic_rmw(a, v, 5, __builtin_return_address(0));                                   \
  }                                                                                            \
  WARPSIM_EXPORT T __tsan_atomic##BITS##_fetch_nand(volatile T* a, T v, int) {                 \
    return atomic_rmw(a, v, 6, __builtin_return_address(0));                                   \
  }                                                                                            \
  WARPSIM_EXPORT int __tsan_atomic##BITS##_compare_exchange_strong(volatile T* a, T* c, T v,   \
                                                                   int, int) {                 \
    return atomic_cas(a, c, v, __builtin_return_address(0));                                   \
  }                                                                                            \
  WARPSIM_EXPORT int __tsan_atomic##BITS##_compare_exchange_weak(volatile T* a, T* c, T v,     \
                                                                 int, int) {                   \
    return atomic_cas(a, c, v, __builtin_return_address(0));                                   \
  }                                                                                            \
  WARPSIM_EXPORT T __tsan_atomic##BITS##_compare_exchange_val(volatile T* a, T c, T v, int,    \
                                                              int) {                           \
    atomic_cas(a, &c, v, __builtin_return_address(0));                                         \
    return c;                                                                                  \
  }
WARPSIM_ATOMICS(8, std::uint8_t)
WARPSIM_ATOMICS(16, std::uint16_t)
WARPSIM_ATOMICS(32, std::uint32_t)
WARPSIM_ATOMICS(64, std::uint64_t)
#undef WARPSIM_ATOMICS

WARPSIM_EXPORT void __tsan_atomic_thread_fence(int) {}
WARPSIM_EXPORT void __tsan_atomic_signal_fence(int) {}
