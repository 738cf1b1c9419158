// Stream-ordered memory for whole programs: memory pools (cudaMemPool*, cudaMallocFromPoolAsync,
// the device's default pool), the location types CUDA 12/13 pass to cudaMemPrefetchAsync and
// cudaMemAdvise, and cudaStreamAttachMemAsync. All memory is host memory and every stream runs
// in issue order, so a pool hands out ordinary allocations at once; it keeps its attributes (a
// release threshold changes when memory goes back to the OS, which no result can see) and counts
// the bytes it has handed out for cudaMemPoolAttrUsedMem*/ReservedMem*.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

enum cudaMemLocationType {
  cudaMemLocationTypeInvalid = 0,
  cudaMemLocationTypeNone = 0,
  cudaMemLocationTypeDevice = 1,
  cudaMemLocationTypeHost = 2,
  cudaMemLocationTypeHostNuma = 3,
  cudaMemLocationTypeHostNumaCurrent = 4
};
struct cudaMemLocation {
  cudaMemLocationType type;
  int id;
};
enum cudaMemAllocationType {
  cudaMemAllocationTypeInvalid = 0x0,
  cudaMemAllocationTypePinned = 0x1,
  cudaMemAllocationTypeManaged = 0x2,
  cudaMemAllocationTypeMax = 0x7FFFFFFF
};
enum cudaMemAllocationHandleType {
  cudaMemHandleTypeNone = 0x0,
  cudaMemHandleTypePosixFileDescriptor = 0x1,
  cudaMemHandleTypeWin32 = 0x2,
  cudaMemHandleTypeWin32Kmt = 0x4,
  cudaMemHandleTypeFabric = 0x8
};
enum cudaMemAccessFlags {
  cudaMemAccessFlagsProtNone = 0,
  cudaMemAccessFlagsProtRead = 1,
  cudaMemAccessFlagsProtReadWrite = 3
};
struct cudaMemAccessDesc {
  cudaMemLocation location;
  cudaMemAccessFlags flags;
};
struct cudaMemPoolProps {
  cudaMemAllocationType allocType;
  cudaMemAllocationHandleType handleTypes;
  cudaMemLocation location;
  void* win32SecurityAttributes;
  std::size_t maxSize;
  unsigned short usage;
  unsigned char reserved[54];
};
struct cudaMemPoolPtrExportData {
  unsigned char reserved[64];
};
struct cudaMemAllocNodeParams {
  cudaMemPoolProps poolProps;
  const cudaMemAccessDesc* accessDescs;
  std::size_t accessDescCount;
  std::size_t bytesize;
  void* dptr;
};
enum cudaMemPoolAttr {
  cudaMemPoolReuseFollowEventDependencies = 0x1,
  cudaMemPoolReuseAllowOpportunistic = 0x2,
  cudaMemPoolReuseAllowInternalDependencies = 0x3,
  cudaMemPoolAttrReleaseThreshold = 0x4,
  cudaMemPoolAttrReservedMemCurrent = 0x5,
  cudaMemPoolAttrReservedMemHigh = 0x6,
  cudaMemPoolAttrUsedMemCurrent = 0x7,
  cudaMemPoolAttrUsedMemHigh = 0x8
};

struct CUmemPoolHandle_st {
  std::mutex mutex;
  cudaMemPoolProps props{};
  int reuse[4] = {0, 1, 1, 1};  // indexed by the reuse attributes 1..3: CUDA's defaults
  std::uint64_t release_threshold = 0;
  std::vector<std::pair<void*, std::size_t>> blocks;  // handed out and not yet freed
  std::uint64_t used_high = 0;
  cudaMemAccessFlags access = cudaMemAccessFlagsProtReadWrite;

  std::uint64_t used() const {
    std::uint64_t total = 0;
    for (const auto& block : blocks) total += block.second;
    return total;
  }
};
using cudaMemPool_t = CUmemPoolHandle_st*;

namespace warpsim::shim {
// The simulated device's default pool, and the pool cudaMallocAsync takes from (the same unless
// the program set another with cudaDeviceSetMemPool).
struct DevicePools {
  CUmemPoolHandle_st default_pool;
  CUmemPoolHandle_st* current = &default_pool;
  std::vector<CUmemPoolHandle_st*> pools{&default_pool};

  static DevicePools& instance() {
    static DevicePools pools;  // one per program
    return pools;
  }
  // The pool that handed out `pointer`, or null.
  CUmemPoolHandle_st* pool_of(const void* pointer) {
    for (CUmemPoolHandle_st* pool : pools) {
      std::lock_guard<std::mutex> lock(pool->mutex);
      for (const auto& block : pool->blocks)
        if (block.first == pointer) return pool;
    }
    return nullptr;
  }
};

inline void note_pool_allocation(CUmemPoolHandle_st* pool, void* pointer, std::size_t bytes) {
  if (pointer == nullptr) return;
  std::lock_guard<std::mutex> lock(pool->mutex);
  pool->blocks.emplace_back(pointer, bytes);
  pool->used_high = std::max(pool->used_high, pool->used());
}
// cudaMallocAsync takes from the device's current pool.
inline void note_current_pool_allocation(void* pointer, std::size_t bytes) {
  note_pool_allocation(DevicePools::instance().current, pointer, bytes);
}
inline void note_pool_free(const void* pointer) {
  CUmemPoolHandle_st* pool = DevicePools::instance().pool_of(pointer);
  if (pool == nullptr) return;
  std::lock_guard<std::mutex> lock(pool->mutex);
  pool->blocks.erase(std::remove_if(pool->blocks.begin(), pool->blocks.end(),
                                    [&](const auto& block) { return block.first == pointer; }),
                     pool->blocks.end());
}
}  // namespace warpsim::shim

inline cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device) {
  if (pool == nullptr) return cudaErrorInvalidValue;
  if (device != 0) return cudaErrorInvalidDevice;
  *pool = &::warpsim::shim::DevicePools::instance().default_pool;
  return cudaSuccess;
}
inline cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* pool, int device) {
  if (pool == nullptr) return cudaErrorInvalidValue;
  if (device != 0) return cudaErrorInvalidDevice;
  *pool = ::warpsim::shim::DevicePools::instance().current;
  return cudaSuccess;
}
inline cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool) {
  if (pool == nullptr) return cudaErrorInvalidValue;
  if (device != 0) return cudaErrorInvalidDevice;
  ::warpsim::shim::DevicePools::instance().current = pool;
  return cudaSuccess;
}
inline cudaError_t cudaMemPoolCreate(cudaMemPool_t* pool, const cudaMemPoolProps* props) {
  if (pool == nullptr || props == nullptr) return cudaErrorInvalidValue;
  if (props->allocType != cudaMemAllocationTypePinned) return cudaErrorInvalidValue;
  if (props->location.type != cudaMemLocationTypeDevice || props->location.id != 0)
    return cudaErrorInvalidDevice;
  *pool = new CUmemPoolHandle_st;
  (*pool)->props = *props;
  ::warpsim::shim::DevicePools::instance().pools.push_back(*pool);
  return cudaSuccess;
}
inline cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool) {
  auto& pools = ::warpsim::shim::DevicePools::instance();
  if (pool == nullptr || pool == &pools.default_pool) return cudaErrorInvalidValue;
  pools.pools.erase(std::remove(pools.pools.begin(), pools.pools.end(), pool), pools.pools.end());
  if (pools.current == pool) pools.current = &pools.default_pool;
  delete pool;
  return cudaSuccess;
}
inline cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attribute,
                                           void* value) {
  if (pool == nullptr || value == nullptr) return cudaErrorInvalidValue;
  std::lock_guard<std::mutex> lock(pool->mutex);
  switch (attribute) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies:
      pool->reuse[attribute] = *static_cast<int*>(value);
      return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold:
      pool->release_threshold = *static_cast<std::uint64_t*>(value);
      return cudaSuccess;
    case cudaMemPoolAttrReservedMemHigh:
    case cudaMemPoolAttrUsedMemHigh:  // only 0 may be set: back to the current value
      if (*static_cast<std::uint64_t*>(value) != 0) return cudaErrorInvalidValue;
      pool->used_high = pool->used();
      return cudaSuccess;
    default: return cudaErrorInvalidValue;
  }
}
// Reserved memory is what the pool holds from the OS: here exactly what it has handed out.
inline cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attribute,
                                           void* value) {
  if (pool == nullptr || value == nullptr) return cudaErrorInvalidValue;
  std::lock_guard<std::mutex> lock(pool->mutex);
  switch (attribute) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies:
      *static_cast<int*>(value) = pool->reuse[attribute];
      return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold:
      *static_cast<std::uint64_t*>(value) = pool->release_threshold;
      return cudaSuccess;
    case cudaMemPoolAttrReservedMemCurrent:
    case cudaMemPoolAttrUsedMemCurrent:
      *static_cast<std::uint64_t*>(value) = pool->used();
      return cudaSuccess;
    case cudaMemPoolAttrReservedMemHigh:
    case cudaMemPoolAttrUsedMemHigh:
      *static_cast<std::uint64_t*>(value) = pool->used_high;
      return cudaSuccess;
    default: return cudaErrorInvalidValue;
  }
}
// Freed blocks go back to the OS at once here: nothing is left to trim.
inline cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, std::size_t) {
  return pool == nullptr ? cudaErrorInvalidValue : cudaSuccess;
}
inline cudaError_t cudaMemPoolSetAccess(cudaMemPool_t pool, const cudaMemAccessDesc* descriptions,
                                        std::size_t count) {
  if (pool == nullptr || (descriptions == nullptr && count != 0)) return cudaErrorInvalidValue;
  for (std::size_t i = 0; i < count; ++i) {
    if (descriptions[i].location.type != cudaMemLocationTypeDevice) return cudaErrorInvalidValue;
    if (descriptions[i].location.id != 0) return cudaErrorInvalidDevice;
  }
  return cudaSuccess;  // the one device always reads and writes its own pools
}
inline cudaError_t cudaMemPoolGetAccess(cudaMemAccessFlags* flags, cudaMemPool_t pool,
                                        cudaMemLocation* location) {
  if (flags == nullptr || pool == nullptr || location == nullptr) return cudaErrorInvalidValue;
  if (location->type != cudaMemLocationTypeDevice) return cudaErrorInvalidValue;
  if (location->id != 0) return cudaErrorInvalidDevice;
  *flags = cudaMemAccessFlagsProtReadWrite;
  return cudaSuccess;
}
inline cudaError_t warpsim_allocate_from_pool(void** pointer, std::size_t bytes, cudaMemPool_t pool,
                                              cudaStream_t stream) {
  if (pool == nullptr) return cudaErrorInvalidValue;
  const cudaError_t status = warpsim_allocate_in_stream(pointer, bytes, stream);
  if (status == cudaSuccess && !::warpsim::shim::is_capturing(stream)) {
    ::warpsim::shim::note_pool_free(*pointer);  // noted in the current pool: move it to `pool`
    ::warpsim::shim::note_pool_allocation(pool, *pointer, bytes);
  }
  return status;
}
template <class T>
cudaError_t cudaMallocFromPoolAsync(T** pointer, std::size_t bytes, cudaMemPool_t pool,
                                    cudaStream_t stream) {
  return warpsim_allocate_from_pool(static_cast<void**>(static_cast<void*>(pointer)), bytes, pool,
                                    stream);
}
// cuda_runtime.h's C++ overload: cudaMallocAsync from a pool is cudaMallocFromPoolAsync.
template <class T>
cudaError_t cudaMallocAsync(T** pointer, std::size_t bytes, cudaMemPool_t pool,
                            cudaStream_t stream) {
  return cudaMallocFromPoolAsync(pointer, bytes, pool, stream);
}
// Exporting a pool or its pointers to another process is inter-process memory (declared only:
// a call stops the program, naming it).
extern "C" {
cudaError_t cudaMemPoolExportToShareableHandle(void*, cudaMemPool_t, cudaMemAllocationHandleType,
                                               unsigned int);
cudaError_t cudaMemPoolImportFromShareableHandle(cudaMemPool_t*, void*,
                                                 cudaMemAllocationHandleType, unsigned int);
cudaError_t cudaMemPoolExportPointer(cudaMemPoolPtrExportData*, void*);
cudaError_t cudaMemPoolImportPointer(void**, cudaMemPool_t, cudaMemPoolPtrExportData*);
}

// CUDA 13's forms with a location: all memory is host memory, so there is nothing to move.
inline cudaError_t cudaMemPrefetchAsync(const void*, std::size_t, cudaMemLocation, unsigned,
                                        cudaStream_t stream = nullptr) {
  return static_cast<cudaError_t>(::warpsim::shim::in_stream(
      stream, cudaGraphNodeTypeMemcpy, [](cudaStream_t) { return cudaSuccess; }));
}
inline cudaError_t cudaMemAdvise(const void*, std::size_t, cudaMemoryAdvise, cudaMemLocation) {
  return cudaSuccess;
}
inline cudaError_t cudaMemAdvise_v2(const void*, std::size_t, cudaMemoryAdvise, cudaMemLocation) {
  return cudaSuccess;
}
inline cudaError_t cudaMemPrefetchAsync_v2(const void* pointer, std::size_t bytes,
                                           cudaMemLocation location, unsigned flags,
                                           cudaStream_t stream = nullptr) {
  return cudaMemPrefetchAsync(pointer, bytes, location, flags, stream);
}
// Which of host and device may touch managed memory while the stream runs: both always may here.
inline cudaError_t cudaStreamAttachMemAsync(cudaStream_t, void*, std::size_t = 0,
                                            unsigned = cudaMemAttachSingle) {
  return cudaSuccess;
}
