// Memory and timing intrinsics (sm_20_intrinsics.h, sm_32_intrinsics.h, sm_70_rt.h,
// crt/device_functions.h): cache-hinted loads and stores, clocks, sleeping, address spaces.
//
// Cache hints (__ldg, __ldcs, __stwt, ...) change where a GPU caches data, never the value: here
// they are plain loads and stores, for every type. clock() and clock64() read one counter that
// counts up by 4 a read on each host thread; __nanosleep returns at once.
//
// Address spaces, as warpsim lays them out: shared memory is the block's dynamic shared buffer
// and the __shared__ variables (the kernel module's thread-local block); local memory is the
// running lane's stack; constant memory is the module's __constant__ variables (each in a
// section of its own, keywords.hpp); grid-constant memory only __grid_constant__ parameters;
// global memory everything else. The predicates and conversions answer from these windows. What
// cannot be answered (a __grid_constant__ parameter is a copy on the lane's stack, like a local)
// or makes no sense (converting a pointer that is not in the space) stops the launch, saying so.
#pragma once

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <exception>

#include "warpsim/arch.hpp"
#include "warpsim/device_abi.hpp"
#include "warpsim/launch_stop.hpp"
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
  return warpsim::device::clock_ticks += warpsim::device::kClockTicksPerRead;
}
// clock(): the C library's name, which libwarpsim replaces: in a running lane it reads the same
// counter as clock64(), as the 32-bit %clock register (sim/runtime/device_clock.cpp).
using std::clock;
#if __CUDA_ARCH__ >= 700
inline void __nanosleep(unsigned int) {}
#else
WARPSIM_NEEDS_ARCH(void, __nanosleep, 70)
#endif

// ---- address spaces
// libwarpsim's dynamic shared buffer, and where the block's dynamic shared memory starts (the same,
// unless `warpsim run`'s child moved it in front of a guard page): runner.hpp's symbols.
extern "C" unsigned char warpsim_dynamic_shared[];
extern "C" __thread unsigned char* warpsim_dynamic_shared_base;  // per OS thread

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

namespace warpsim::shim::memory {

// The running lane's stack: every automatic variable of its thread, CUDA's local memory.
inline Span local_window() {
  const device::LaneStack stack = device::lane_stack();
  return {stack.low, stack.size};
}

// This module's __constant__ variables: keywords.hpp puts each in a section named
// warpsim_constant_N, found here in the module's ELF section headers (once per module).
// `window` spans them all: the constant window's offset 0 is its start.
struct ConstantSpans {
  static constexpr int kMax = 256;
  Span spans[kMax];
  int count = 0;
  bool complete = true;  // false: the file could not be read, or more than kMax variables
  Span window;
  bool contains(const void* p) const {
    for (int k = 0; k < count; ++k)
      if (spans[k].contains(p)) return true;
    return false;
  }
};

inline ConstantSpans read_constant_spans() {
  ConstantSpans found;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&module_anchor), &info) == 0) {
    found.complete = false;
    return found;
  }
  struct Module {
    const void* base;
    std::uintptr_t bias = 0;
    const char* name = nullptr;
  } module{info.dli_fbase};
  dl_iterate_phdr(
      [](dl_phdr_info* m, std::size_t, void* data) {
        auto* s = static_cast<Module*>(data);
        for (int k = 0; k < m->dlpi_phnum; ++k) {
          const auto& header = m->dlpi_phdr[k];
          if (header.p_type == PT_LOAD && header.p_offset == 0 &&
              reinterpret_cast<const void*>(m->dlpi_addr + header.p_vaddr) == s->base) {
            s->bias = m->dlpi_addr;
            s->name = m->dlpi_name;
            return 1;
          }
        }
        return 0;
      },
      &module);
  const char* path = module.name != nullptr && module.name[0] != '\0' ? module.name : "/proc/self/exe";
  std::FILE* file = std::fopen(path, "rb");
  if (file == nullptr) {
    found.complete = false;
    return found;
  }
  const auto read_at = [file](long offset, void* into, std::size_t bytes) {
    return std::fseek(file, offset, SEEK_SET) == 0 && std::fread(into, 1, bytes, file) == bytes;
  };
  Elf64_Ehdr elf{};
  Elf64_Shdr names{};
  char name[64];
  bool ok = read_at(0, &elf, sizeof elf) && elf.e_shentsize == sizeof(Elf64_Shdr) &&
            read_at(static_cast<long>(elf.e_shoff + elf.e_shstrndx * sizeof(Elf64_Shdr)), &names,
                    sizeof names);
  const char prefix[] = "warpsim_constant_";
  for (unsigned k = 0; ok && k < elf.e_shnum; ++k) {
    Elf64_Shdr section{};
    ok = read_at(static_cast<long>(elf.e_shoff + k * sizeof(Elf64_Shdr)), &section, sizeof section);
    if (!ok || (section.sh_flags & SHF_ALLOC) == 0 || section.sh_size == 0) continue;
    std::memset(name, 0, sizeof name);
    if (std::fseek(file, static_cast<long>(names.sh_offset + section.sh_name), SEEK_SET) != 0 ||
        std::fread(name, 1, sizeof name - 1, file) == 0 ||
        std::strncmp(name, prefix, sizeof prefix - 1) != 0) {
      continue;
    }
    if (found.count == ConstantSpans::kMax) {
      found.complete = false;
      break;
    }
    const auto* begin = reinterpret_cast<const unsigned char*>(module.bias + section.sh_addr);
    found.spans[found.count++] = {begin, static_cast<std::size_t>(section.sh_size)};
  }
  std::fclose(file);
  found.complete = found.complete && ok;
  const unsigned char* low = nullptr;
  const unsigned char* high = nullptr;
  for (int k = 0; k < found.count; ++k) {
    const Span& span = found.spans[k];
    if (low == nullptr || span.begin < low) low = span.begin;
    if (high == nullptr || span.begin + span.size > high) high = span.begin + span.size;
  }
  found.window = {low, static_cast<std::size_t>(high - low)};
  return found;
}

// Internal linkage: each module keeps its own.
static inline const ConstantSpans& constant_spans() {
  static const ConstantSpans spans = read_constant_spans();
  return spans;
}

// What the simulator cannot answer stops the launch with the reason.
[[noreturn]] inline void address_space_stop(const char* function, const char* why) {
  stop_launch("%s: %s", function, why);
}

inline const ConstantSpans& checked_constant_spans(const char* function) {
  const ConstantSpans& spans = constant_spans();
  if (!spans.complete) {
    address_space_stop(function, "not simulated here: the kernel module's __constant__ sections "
                                 "could not be read (or there are more than 256)");
  }
  return spans;
}

// Whether a pointer on the lane's stack may be a __grid_constant__ parameter: `warpsim run`
// defines WARPSIM_GRID_CONSTANT_PARAMETERS for a file that declares any. Kernel parameters are
// the lane's own copies here, on its stack with its locals, so local and grid-constant memory
// cannot be told apart in such a file.
#if defined(WARPSIM_GRID_CONSTANT_PARAMETERS)
inline constexpr bool kGridConstantParameters = true;
#else
inline constexpr bool kGridConstantParameters = false;
#endif
inline void check_no_grid_constant(const char* function) {
  if (kGridConstantParameters) {
    address_space_stop(function, "not simulated in a file with __grid_constant__ parameters: "
                                 "they are copies on the lane's stack here, like its local "
                                 "variables, so local and grid-constant memory look alike");
  }
}

}  // namespace warpsim::shim::memory

// Local memory: the running lane's stack; its window's offset 0 is the stack's lowest byte.
inline unsigned int __isLocal(const void* ptr) {
  using namespace warpsim::shim::memory;
  if (!local_window().contains(ptr)) return 0u;
  check_no_grid_constant("__isLocal");
  return 1u;
}
inline size_t __cvta_generic_to_local(const void* ptr) {
  using namespace warpsim::shim::memory;
  const Span local = local_window();
  if (!local.contains(ptr)) {
    address_space_stop("__cvta_generic_to_local",
                       "the pointer is not in the thread's local memory (its stack): the GPU's "
                       "result would be meaningless");
  }
  check_no_grid_constant("__cvta_generic_to_local");
  return static_cast<size_t>(static_cast<const unsigned char*>(ptr) - local.begin);
}
inline void* __cvta_local_to_generic(size_t address) {
  using namespace warpsim::shim::memory;
  const Span local = local_window();
  if (address >= local.size) {
    address_space_stop("__cvta_local_to_generic",
                       "the address is past the thread's local memory (its stack)");
  }
  return const_cast<unsigned char*>(local.begin + address);
}

// Constant memory: the module's __constant__ variables; the window starts at the lowest of them.
inline unsigned int __isConstant(const void* ptr) {
  using namespace warpsim::shim::memory;
  return checked_constant_spans("__isConstant").contains(ptr) ? 1u : 0u;
}
inline size_t __cvta_generic_to_constant(const void* ptr) {
  using namespace warpsim::shim::memory;
  const ConstantSpans& spans = checked_constant_spans("__cvta_generic_to_constant");
  if (!spans.contains(ptr)) {
    address_space_stop("__cvta_generic_to_constant",
                       "the pointer is not in a __constant__ variable: the GPU's result would be "
                       "meaningless");
  }
  return static_cast<size_t>(static_cast<const unsigned char*>(ptr) - spans.window.begin);
}
inline void* __cvta_constant_to_generic(size_t address) {
  using namespace warpsim::shim::memory;
  const ConstantSpans& spans = checked_constant_spans("__cvta_constant_to_generic");
  if (address >= spans.window.size) {
    address_space_stop("__cvta_constant_to_generic",
                       "the address is past the file's __constant__ variables");
  }
  return const_cast<unsigned char*>(spans.window.begin + address);
}

// Grid-constant memory holds only __grid_constant__ kernel parameters. In a file without any,
// nothing is grid-constant; in a file with some, they cannot be told from locals (above).
inline unsigned int __isGridConstant(const void* ptr) {
  using namespace warpsim::shim::memory;
  if (local_window().contains(ptr)) check_no_grid_constant("__isGridConstant");
  return 0u;
}
inline size_t __cvta_generic_to_grid_constant(const void*) {
  using namespace warpsim::shim::memory;
  check_no_grid_constant("__cvta_generic_to_grid_constant");
  address_space_stop("__cvta_generic_to_grid_constant",
                     "the file declares no __grid_constant__ parameter, so no pointer is in "
                     "grid-constant memory: the GPU's result would be meaningless");
}
inline void* __cvta_grid_constant_to_generic(size_t) {
  using namespace warpsim::shim::memory;
  check_no_grid_constant("__cvta_grid_constant_to_generic");
  address_space_stop("__cvta_grid_constant_to_generic",
                     "the file declares no __grid_constant__ parameter: grid-constant memory is "
                     "empty");
}

// Global memory: what is in none of the windows above (the --arg buffers, cudaMalloc'd memory,
// __device__ variables, the heap).
inline unsigned int __isGlobal(const void* ptr) {
  using namespace warpsim::shim::memory;
  return __isShared(ptr) || local_window().contains(ptr) ||
                 checked_constant_spans("__isGlobal").contains(ptr)
             ? 0u
             : 1u;
}

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
// %pm0-%pm3, the performance monitor counters: they count only what a profiler programs them
// to, and in a plain run an H100 reads 0 from all four in every thread, before and after a loop
// (docs/gpu-runs/named-barriers.txt, tests/shim/gpu_probes/perf_counters.cu). warpsim has no
// profiler: 0, as there.
inline unsigned int __pm0() { return 0; }
inline unsigned int __pm1() { return 0; }
inline unsigned int __pm2() { return 0; }
inline unsigned int __pm3() { return 0; }
