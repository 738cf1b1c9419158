// Memory and timing intrinsics (sm_20_intrinsics.h, sm_32_intrinsics.h, sm_70_rt.h,
// crt/device_functions.h): cache-hinted loads and stores, clocks, sleeping, address spaces.
//
// Cache hints (__ldg, __ldcs, __stwt, ...) change where a GPU caches data, never the value: here
// they are plain loads and stores, for every type. clock() and clock64() count up (clock64 by 4
// per call on each host thread); __nanosleep returns at once.
//
// Address spaces: shared memory is known exactly (the block's dynamic shared buffer and the
// __shared__ variables, which live in the kernel module's thread-local block), so __isShared and
// the shared-window conversions are exact. Local, constant and grid-constant memory are ordinary
// host memory here and cannot be told apart from global memory: the predicates and conversions
// for them fail to compile, saying so.
#pragma once

#include <dlfcn.h>
#include <link.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <ctime>

#include "warpsim/arch.hpp"
#include "warpsim/unsupported.hpp"

// ---- cache-hinted loads and stores
template <class T>
inline T __ldg(const T* ptr) {
  return *ptr;
}
template <class T>
inline T __ldcg(const T* ptr) {
  return *ptr;
}
template <class T>
inline T __ldca(const T* ptr) {
  return *ptr;
}
template <class T>
inline T __ldcs(const T* ptr) {
  return *ptr;
}
template <class T>
inline T __ldlu(const T* ptr) {
  return *ptr;
}
template <class T>
inline T __ldcv(const T* ptr) {
  return *ptr;
}

namespace warpsim::shim::memory {
template <class T>
struct identity {
  using type = T;
};
}  // namespace warpsim::shim::memory

// The stored value converts to the pointee type, as it does for CUDA's non-template overloads.
template <class T>
inline void __stwb(T* ptr, typename warpsim::shim::memory::identity<T>::type value) {
  *ptr = value;
}
template <class T>
inline void __stcg(T* ptr, typename warpsim::shim::memory::identity<T>::type value) {
  *ptr = value;
}
template <class T>
inline void __stcs(T* ptr, typename warpsim::shim::memory::identity<T>::type value) {
  *ptr = value;
}
template <class T>
inline void __stwt(T* ptr, typename warpsim::shim::memory::identity<T>::type value) {
  *ptr = value;
}

// ---- clocks and sleeping
inline long long clock64() {
  static thread_local long long ticks = 0;
  return ticks += 4;
}
using std::clock;  // the host's: it counts up too
#if __CUDA_ARCH__ >= 700
inline void __nanosleep(unsigned int) {}
#else
WARPSIM_NEEDS_ARCH(void, __nanosleep, 70)
#endif

// ---- address spaces
// libwarpsim's dynamic shared buffer, and where the block's dynamic shared memory starts (the same,
// unless `warpsim run`'s child moved it in front of a guard page): runner.hpp's symbols.
extern "C" unsigned char warpsim_dynamic_shared[];
extern "C" unsigned char* warpsim_dynamic_shared_base;

namespace warpsim::shim::memory {

// This module's own function: its address tells dladdr which module (kernel object or program)
// the calling code, and so its __shared__ variables, belong to. Internal linkage on purpose.
static inline void module_anchor() {}

struct Span {
  const unsigned char* begin = nullptr;
  std::size_t size = 0;
  bool contains(const void* p) const {
    const auto* c = static_cast<const unsigned char*>(p);
    return begin != nullptr && c >= begin && c < begin + size;
  }
};

// The calling thread's thread-local block of this module: where its __shared__ variables are.
inline Span static_shared() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&module_anchor), &info) == 0) return {};
  struct Search {
    const void* base;
    std::size_t tls_size;
  } search{info.dli_fbase, 0};
  dl_iterate_phdr(
      [](dl_phdr_info* module, std::size_t, void* data) {
        auto* s = static_cast<Search*>(data);
        bool same = false;
        std::size_t tls = 0;
        for (int k = 0; k < module->dlpi_phnum; ++k) {
          const auto& header = module->dlpi_phdr[k];
          if (header.p_type == PT_LOAD && header.p_offset == 0 &&
              reinterpret_cast<const void*>(module->dlpi_addr + header.p_vaddr) == s->base) {
            same = true;
          }
          if (header.p_type == PT_TLS) tls = header.p_memsz;
        }
        if (same) s->tls_size = tls;
        return same ? 1 : 0;
      },
      &search);
  void* handle = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  if (handle == nullptr) handle = dlopen(nullptr, RTLD_LAZY);  // the program itself
  void* block = nullptr;
  if (handle != nullptr) {
    dlinfo(handle, RTLD_DI_TLS_DATA, &block);
    dlclose(handle);
  }
  return {static_cast<const unsigned char*>(block), block != nullptr ? search.tls_size : 0};
}

inline constexpr std::size_t kDynamicSharedBytes = 256 * 1024;  // device_abi.hpp's capacity

// Whether the byte at `p` can be read (a guard page cannot): process_vm_readv on ourselves
// reports EFAULT instead of faulting.
inline bool readable(const void* p) {
  char byte;
  iovec local{&byte, 1};
  iovec remote{const_cast<void*>(p), 1};
  return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == 1;
}

// The block's dynamic shared memory: libwarpsim's buffer, or the region the child moved it to,
// which ends at a guard page.
inline Span dynamic_shared() {
  const unsigned char* base = warpsim_dynamic_shared_base;
  if (base == warpsim_dynamic_shared) return {base, kDynamicSharedBytes};
  const auto page = static_cast<std::uintptr_t>(getpagesize());
  auto end = (reinterpret_cast<std::uintptr_t>(base) + page) / page * page;  // past base's page
  while (end - reinterpret_cast<std::uintptr_t>(base) < kDynamicSharedBytes &&
         readable(reinterpret_cast<const void*>(end))) {
    end += page;
  }
  return {base, static_cast<std::size_t>(end - reinterpret_cast<std::uintptr_t>(base))};
}

}  // namespace warpsim::shim::memory

inline unsigned int __isShared(const void* ptr) {
  using namespace warpsim::shim::memory;
  return dynamic_shared().contains(ptr) || static_shared().contains(ptr) ? 1u : 0u;
}
// The shared window: static __shared__ variables from 0, the dynamic shared memory after them.
inline size_t __cvta_generic_to_shared(const void* ptr) {
  using namespace warpsim::shim::memory;
  const Span statics = static_shared();
  const auto* p = static_cast<const unsigned char*>(ptr);
  if (statics.contains(ptr)) return static_cast<size_t>(p - statics.begin);
  return statics.size + static_cast<size_t>(p - warpsim_dynamic_shared_base);
}
inline void* __cvta_shared_to_generic(size_t address) {
  using namespace warpsim::shim::memory;
  const Span statics = static_shared();
  const unsigned char* p = address < statics.size
                               ? statics.begin + address
                               : warpsim_dynamic_shared_base + (address - statics.size);
  return const_cast<unsigned char*>(p);
}
// The global window is the generic one.
inline size_t __cvta_generic_to_global(const void* ptr) { return reinterpret_cast<size_t>(ptr); }
inline void* __cvta_global_to_generic(size_t address) { return reinterpret_cast<void*>(address); }

#define WARPSIM_ADDRESS_SPACE_WHY                                                               \
  "local, constant and grid-constant memory are ordinary host memory in warpsim, which cannot " \
  "tell them from global memory"
WARPSIM_NOT_SIMULATED(unsigned int, __isGlobal, WARPSIM_ADDRESS_SPACE_WHY)
WARPSIM_NOT_SIMULATED(unsigned int, __isLocal, WARPSIM_ADDRESS_SPACE_WHY)
WARPSIM_NOT_SIMULATED(unsigned int, __isConstant, WARPSIM_ADDRESS_SPACE_WHY)
WARPSIM_NOT_SIMULATED(unsigned int, __isGridConstant, WARPSIM_ADDRESS_SPACE_WHY)
WARPSIM_NOT_SIMULATED(size_t, __cvta_generic_to_local, WARPSIM_ADDRESS_SPACE_WHY)
WARPSIM_NOT_SIMULATED(size_t, __cvta_generic_to_constant, WARPSIM_ADDRESS_SPACE_WHY)
WARPSIM_NOT_SIMULATED(size_t, __cvta_generic_to_grid_constant, WARPSIM_ADDRESS_SPACE_WHY)
WARPSIM_NOT_SIMULATED(void*, __cvta_local_to_generic, WARPSIM_ADDRESS_SPACE_WHY)
WARPSIM_NOT_SIMULATED(void*, __cvta_constant_to_generic, WARPSIM_ADDRESS_SPACE_WHY)
WARPSIM_NOT_SIMULATED(void*, __cvta_grid_constant_to_generic, WARPSIM_ADDRESS_SPACE_WHY)
#undef WARPSIM_ADDRESS_SPACE_WHY

// ---- sm_80_rt.h: an access-property hint (the pointer, unchanged) and the asynchronous copies
// that cuda::memcpy_async is built on, done at once: their completion is waited for before the
// copy is read, so copying early is observably the same (bytes past src_size are zeroed, as
// cp.async's zero fill does).
inline void* __nv_associate_access_property(const void* ptr, unsigned long long) {
  return const_cast<void*>(ptr);
}
namespace warpsim::shim::memory {
inline void copy_async(void* dst, const void* src, unsigned src_size, unsigned bytes) {
  const unsigned n = src_size < bytes ? src_size : bytes;
  std::memcpy(dst, src, n);
  std::memset(static_cast<char*>(dst) + n, 0, bytes - n);
}
}  // namespace warpsim::shim::memory
inline void __nv_memcpy_async_shared_global_4(void* dst, const void* src, unsigned src_size) {
  warpsim::shim::memory::copy_async(dst, src, src_size, 4);
}
inline void __nv_memcpy_async_shared_global_8(void* dst, const void* src, unsigned src_size) {
  warpsim::shim::memory::copy_async(dst, src, src_size, 8);
}
inline void __nv_memcpy_async_shared_global_16(void* dst, const void* src, unsigned src_size) {
  warpsim::shim::memory::copy_async(dst, src, src_size, 16);
}

// ---- sm_90_rt.h: thread block clusters are not simulated (warpsim runs one block at a time and
// has no distributed shared memory). Shared memory of this block is the only shared memory, so
// __isCtaShared and __isClusterShared are __isShared; a cluster fence is a fence.
inline unsigned int __isCtaShared(const void* ptr) { return __isShared(ptr); }
inline unsigned int __isClusterShared(const void* ptr) { return __isShared(ptr); }
inline void __threadfence_cluster() {}
#define WARPSIM_CLUSTERS_WHY "thread block clusters are not simulated (warpsim runs one block at a time)"
WARPSIM_NOT_SIMULATED(void*, __cluster_map_shared_rank, WARPSIM_CLUSTERS_WHY)
WARPSIM_NOT_SIMULATED(unsigned int, __cluster_query_shared_rank, WARPSIM_CLUSTERS_WHY)
WARPSIM_NOT_SIMULATED(uint2, __cluster_map_shared_multicast, WARPSIM_CLUSTERS_WHY)
WARPSIM_NOT_SIMULATED(unsigned int, __clusterDimIsSpecified, WARPSIM_CLUSTERS_WHY)
WARPSIM_NOT_SIMULATED(dim3, __clusterDim, WARPSIM_CLUSTERS_WHY)
WARPSIM_NOT_SIMULATED(dim3, __clusterRelativeBlockIdx, WARPSIM_CLUSTERS_WHY)
WARPSIM_NOT_SIMULATED(dim3, __clusterGridDimInClusters, WARPSIM_CLUSTERS_WHY)
WARPSIM_NOT_SIMULATED(dim3, __clusterIdx, WARPSIM_CLUSTERS_WHY)
WARPSIM_NOT_SIMULATED(unsigned int, __clusterRelativeBlockRank, WARPSIM_CLUSTERS_WHY)
WARPSIM_NOT_SIMULATED(unsigned int, __clusterSizeInBlocks, WARPSIM_CLUSTERS_WHY)
WARPSIM_NOT_SIMULATED(void, __cluster_barrier_arrive, WARPSIM_CLUSTERS_WHY)
WARPSIM_NOT_SIMULATED(void, __cluster_barrier_arrive_relaxed, WARPSIM_CLUSTERS_WHY)
WARPSIM_NOT_SIMULATED(void, __cluster_barrier_wait, WARPSIM_CLUSTERS_WHY)
#undef WARPSIM_CLUSTERS_WHY

// ---- debugging and profiling
[[noreturn]] inline void __trap() { __builtin_trap(); }
inline void __brkpt() {}
inline void __prof_trigger(int) {}
WARPSIM_NOT_SIMULATED(unsigned int, __pm0,
                      "the GPU's performance monitor counters do not exist here")
WARPSIM_NOT_SIMULATED(unsigned int, __pm1,
                      "the GPU's performance monitor counters do not exist here")
WARPSIM_NOT_SIMULATED(unsigned int, __pm2,
                      "the GPU's performance monitor counters do not exist here")
WARPSIM_NOT_SIMULATED(unsigned int, __pm3,
                      "the GPU's performance monitor counters do not exist here")
