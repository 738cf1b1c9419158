// The CUDA runtime's host API for whole programs (`warpsim exec`): memory, copies, launches,
// streams, events, device properties, symbols. Each call does at once, on the host, what the GPU
// would have done by the next synchronization: launches run in the simulator when they are made
// (warpsim/program_runtime.hpp), every stream runs in issue order, device, managed and pinned
// memory are all host memory, events time the simulator (not a GPU).
//
// `kernel<<<grid, block, shared, stream>>>(args...)` is rewritten by warpsim before compiling
// (rewrite_launches in warpsim/runner.hpp) into
//   ::warpsim::shim::launch_kernel("kernel", __FILE__, __LINE__,
//       ::warpsim::shim::launch_config(grid, block, shared, stream),
//       [&](auto&&... a) { kernel(a...); })(args...)
// so the arguments are evaluated once, in the caller, as CUDA evaluates them.
#pragma once

#include <cstddef>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

#include "warpsim/device_attributes.hpp"
#include "warpsim/launch_buffers.hpp"
#include "warpsim/program_runtime.hpp"

// ---- handles and properties

#include "warpsim/stream_capture.hpp"

inline constexpr unsigned cudaStreamDefault = 0;
inline constexpr unsigned cudaStreamNonBlocking = 1;
inline constexpr unsigned cudaEventDefault = 0;
inline constexpr unsigned cudaEventBlockingSync = 1;
inline constexpr unsigned cudaEventDisableTiming = 2;
inline constexpr unsigned cudaEventInterprocess = 4;
// cudaSetDeviceFlags' flags (how the host waits, mapped host memory): accepted, nothing to do.
inline constexpr unsigned cudaDeviceScheduleAuto = 0x00;
inline constexpr unsigned cudaDeviceScheduleSpin = 0x01;
inline constexpr unsigned cudaDeviceScheduleYield = 0x02;
inline constexpr unsigned cudaDeviceScheduleBlockingSync = 0x04;
inline constexpr unsigned cudaDeviceBlockingSync = 0x04;
inline constexpr unsigned cudaDeviceScheduleMask = 0x07;
inline constexpr unsigned cudaDeviceMapHost = 0x08;
inline constexpr unsigned cudaDeviceLmemResizeToMax = 0x10;
inline constexpr unsigned cudaDeviceSyncMemops = 0x80;
inline constexpr unsigned cudaHostAllocDefault = 0;
inline constexpr unsigned cudaHostAllocPortable = 1;
inline constexpr unsigned cudaHostAllocMapped = 2;
inline constexpr unsigned cudaHostAllocWriteCombined = 4;
inline constexpr unsigned cudaMemAttachGlobal = 1;
inline constexpr unsigned cudaMemAttachHost = 2;
inline constexpr unsigned cudaMemAttachSingle = 4;
#define cudaStreamLegacy (reinterpret_cast<cudaStream_t>(0x1))
#define cudaStreamPerThread (reinterpret_cast<cudaStream_t>(0x2))
// Device code's own streams (dynamic parallelism): a child launched into cudaStreamTailLaunch runs
// after its parent grid has completed; one in cudaStreamFireAndForget at any time.
#define cudaStreamTailLaunch (reinterpret_cast<cudaStream_t>(0x3))
#define cudaStreamFireAndForget (reinterpret_cast<cudaStream_t>(0x4))

// CUDA 13's cudaDeviceProp, every field, filled by cudaGetDeviceProperties from the simulated
// device's attributes (device_attributes.hpp): an H100's, with the compute capability of the
// architecture the file is compiled for (warpsim exec --arch) and the name "warpsim (simulated
// sm_XX)".
struct CUuuid_st {
  char bytes[16];
};
using cudaUUID_t = CUuuid_st;
struct cudaDeviceProp {
  char name[256];
  cudaUUID_t uuid;
  char luid[8];
  unsigned int luidDeviceNodeMask;
  std::size_t totalGlobalMem;
  std::size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  std::size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  std::size_t totalConstMem;
  int major;
  int minor;
  std::size_t textureAlignment;
  std::size_t texturePitchAlignment;
  int multiProcessorCount;
  int integrated;
  int canMapHostMemory;
  int maxTexture1D;
  int maxTexture1DMipmap;
  int maxTexture2D[2];
  int maxTexture2DMipmap[2];
  int maxTexture2DLinear[3];
  int maxTexture2DGather[2];
  int maxTexture3D[3];
  int maxTexture3DAlt[3];
  int maxTextureCubemap;
  int maxTexture1DLayered[2];
  int maxTexture2DLayered[3];
  int maxTextureCubemapLayered[2];
  int maxSurface1D;
  int maxSurface2D[2];
  int maxSurface3D[3];
  int maxSurface1DLayered[2];
  int maxSurface2DLayered[3];
  int maxSurfaceCubemap;
  int maxSurfaceCubemapLayered[2];
  std::size_t surfaceAlignment;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  std::size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int hostNativeAtomicSupported;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  std::size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  std::size_t reservedSharedMemPerBlock;
  int hostRegisterSupported;
  int sparseCudaArraySupported;
  int hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported;
  int memoryPoolsSupported;
  int gpuDirectRDMASupported;
  unsigned int gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned int memoryPoolSupportedHandleTypes;
  int deferredMappingCudaArraySupported;
  int ipcEventSupported;
  int clusterLaunch;
  int unifiedFunctionPointers;
  int deviceNumaConfig;
  int deviceNumaId;
  int mpsEnabled;
  int hostNumaId;
  unsigned int gpuPciDeviceID;
  unsigned int gpuPciSubsystemID;
  int hostNumaMultinodeIpcSupported;
  int reserved[56];
  // Fields CUDA 13's header removed (CUDA 12 had them; nvcc 13 refuses a program that reads
  // them), kept so that older programs (Rodinia's gaussian, huffman) run; answered as an H100,
  // from the same attributes.
  int clockRate;                       // kHz
  int memoryClockRate;                 // kHz
  int deviceOverlap;                   // copies overlap kernels
  int kernelExecTimeoutEnabled;
  int computeMode;                     // cudaComputeModeDefault
  int maxTexture1DLinear;
  int singleToDoublePrecisionPerfRatio;
  int cooperativeMultiDeviceLaunch;
};

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
  cudaFuncAttributeClusterDimMustBeSet = 10,
  cudaFuncAttributeRequiredClusterWidth = 11,
  cudaFuncAttributeRequiredClusterHeight = 12,
  cudaFuncAttributeRequiredClusterDepth = 13,
  cudaFuncAttributeNonPortableClusterSizeAllowed = 14,
  cudaFuncAttributeClusterSchedulingPolicyPreference = 15,
  cudaFuncAttributeMax
};
enum cudaFuncCache {
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3
};
enum cudaSharedMemConfig {
  cudaSharedMemBankSizeDefault = 0,
  cudaSharedMemBankSizeFourByte = 1,
  cudaSharedMemBankSizeEightByte = 2
};
enum cudaComputeMode {
  cudaComputeModeDefault = 0,
  cudaComputeModeExclusive = 1,
  cudaComputeModeProhibited = 2,
  cudaComputeModeExclusiveProcess = 3
};
enum cudaLimit {
  cudaLimitStackSize = 0x00,
  cudaLimitPrintfFifoSize = 0x01,
  cudaLimitMallocHeapSize = 0x02,
  cudaLimitDevRuntimeSyncDepth = 0x03,
  cudaLimitDevRuntimePendingLaunchCount = 0x04,
  cudaLimitMaxL2FetchGranularity = 0x05,
  cudaLimitPersistingL2CacheSize = 0x06
};

inline cudaDeviceProp warpsim_simulated_device_properties() {
  cudaDeviceProp p{};
  bool known = false;
  const auto a = [&known](cudaDeviceAttr attribute) {
    return warpsim_device_attribute(attribute, known);
  };
  std::snprintf(p.name, sizeof p.name, "warpsim (simulated sm_%d)", __CUDA_ARCH__ / 10);
  p.totalGlobalMem = std::size_t{80} << 30;
  p.sharedMemPerBlock = static_cast<std::size_t>(a(cudaDevAttrMaxSharedMemoryPerBlock));
  p.regsPerBlock = a(cudaDevAttrMaxRegistersPerBlock);
  p.warpSize = a(cudaDevAttrWarpSize);
  p.memPitch = static_cast<std::size_t>(a(cudaDevAttrMaxPitch));
  p.maxThreadsPerBlock = a(cudaDevAttrMaxThreadsPerBlock);
  p.maxThreadsDim[0] = a(cudaDevAttrMaxBlockDimX);
  p.maxThreadsDim[1] = a(cudaDevAttrMaxBlockDimY);
  p.maxThreadsDim[2] = a(cudaDevAttrMaxBlockDimZ);
  p.maxGridSize[0] = a(cudaDevAttrMaxGridDimX);
  p.maxGridSize[1] = a(cudaDevAttrMaxGridDimY);
  p.maxGridSize[2] = a(cudaDevAttrMaxGridDimZ);
  p.totalConstMem = static_cast<std::size_t>(a(cudaDevAttrTotalConstantMemory));
  p.major = a(cudaDevAttrComputeCapabilityMajor);
  p.minor = a(cudaDevAttrComputeCapabilityMinor);
  p.textureAlignment = static_cast<std::size_t>(a(cudaDevAttrTextureAlignment));
  p.texturePitchAlignment = static_cast<std::size_t>(a(cudaDevAttrTexturePitchAlignment));
  p.multiProcessorCount = a(cudaDevAttrMultiProcessorCount);
  p.integrated = a(cudaDevAttrIntegrated);
  p.canMapHostMemory = a(cudaDevAttrCanMapHostMemory);
  p.maxTexture1D = a(cudaDevAttrMaxTexture1DWidth);
  p.maxTexture1DMipmap = a(cudaDevAttrMaxTexture1DMipmappedWidth);
  p.maxTexture2D[0] = a(cudaDevAttrMaxTexture2DWidth);
  p.maxTexture2D[1] = a(cudaDevAttrMaxTexture2DHeight);
  p.maxTexture2DMipmap[0] = a(cudaDevAttrMaxTexture2DMipmappedWidth);
  p.maxTexture2DMipmap[1] = a(cudaDevAttrMaxTexture2DMipmappedHeight);
  p.maxTexture2DLinear[0] = a(cudaDevAttrMaxTexture2DLinearWidth);
  p.maxTexture2DLinear[1] = a(cudaDevAttrMaxTexture2DLinearHeight);
  p.maxTexture2DLinear[2] = a(cudaDevAttrMaxTexture2DLinearPitch);
  p.maxTexture2DGather[0] = a(cudaDevAttrMaxTexture2DGatherWidth);
  p.maxTexture2DGather[1] = a(cudaDevAttrMaxTexture2DGatherHeight);
  p.maxTexture3D[0] = a(cudaDevAttrMaxTexture3DWidth);
  p.maxTexture3D[1] = a(cudaDevAttrMaxTexture3DHeight);
  p.maxTexture3D[2] = a(cudaDevAttrMaxTexture3DDepth);
  p.maxTexture3DAlt[0] = a(cudaDevAttrMaxTexture3DWidthAlt);
  p.maxTexture3DAlt[1] = a(cudaDevAttrMaxTexture3DHeightAlt);
  p.maxTexture3DAlt[2] = a(cudaDevAttrMaxTexture3DDepthAlt);
  p.maxTextureCubemap = a(cudaDevAttrMaxTextureCubemapWidth);
  p.maxTexture1DLayered[0] = a(cudaDevAttrMaxTexture1DLayeredWidth);
  p.maxTexture1DLayered[1] = a(cudaDevAttrMaxTexture1DLayeredLayers);
  p.maxTexture2DLayered[0] = a(cudaDevAttrMaxTexture2DLayeredWidth);
  p.maxTexture2DLayered[1] = a(cudaDevAttrMaxTexture2DLayeredHeight);
  p.maxTexture2DLayered[2] = a(cudaDevAttrMaxTexture2DLayeredLayers);
  p.maxTextureCubemapLayered[0] = a(cudaDevAttrMaxTextureCubemapLayeredWidth);
  p.maxTextureCubemapLayered[1] = a(cudaDevAttrMaxTextureCubemapLayeredLayers);
  p.maxSurface1D = a(cudaDevAttrMaxSurface1DWidth);
  p.maxSurface2D[0] = a(cudaDevAttrMaxSurface2DWidth);
  p.maxSurface2D[1] = a(cudaDevAttrMaxSurface2DHeight);
  p.maxSurface3D[0] = a(cudaDevAttrMaxSurface3DWidth);
  p.maxSurface3D[1] = a(cudaDevAttrMaxSurface3DHeight);
  p.maxSurface3D[2] = a(cudaDevAttrMaxSurface3DDepth);
  p.maxSurface1DLayered[0] = a(cudaDevAttrMaxSurface1DLayeredWidth);
  p.maxSurface1DLayered[1] = a(cudaDevAttrMaxSurface1DLayeredLayers);
  p.maxSurface2DLayered[0] = a(cudaDevAttrMaxSurface2DLayeredWidth);
  p.maxSurface2DLayered[1] = a(cudaDevAttrMaxSurface2DLayeredHeight);
  p.maxSurface2DLayered[2] = a(cudaDevAttrMaxSurface2DLayeredLayers);
  p.maxSurfaceCubemap = a(cudaDevAttrMaxSurfaceCubemapWidth);
  p.maxSurfaceCubemapLayered[0] = a(cudaDevAttrMaxSurfaceCubemapLayeredWidth);
  p.maxSurfaceCubemapLayered[1] = a(cudaDevAttrMaxSurfaceCubemapLayeredLayers);
  p.surfaceAlignment = static_cast<std::size_t>(a(cudaDevAttrSurfaceAlignment));
  p.concurrentKernels = a(cudaDevAttrConcurrentKernels);
  p.ECCEnabled = a(cudaDevAttrEccEnabled);
  p.pciBusID = a(cudaDevAttrPciBusId);
  p.pciDeviceID = a(cudaDevAttrPciDeviceId);
  p.pciDomainID = a(cudaDevAttrPciDomainId);
  p.tccDriver = a(cudaDevAttrTccDriver);
  p.asyncEngineCount = a(cudaDevAttrAsyncEngineCount);
  p.unifiedAddressing = a(cudaDevAttrUnifiedAddressing);
  p.memoryBusWidth = a(cudaDevAttrGlobalMemoryBusWidth);
  p.l2CacheSize = a(cudaDevAttrL2CacheSize);
  p.persistingL2CacheMaxSize = a(cudaDevAttrMaxPersistingL2CacheSize);
  p.maxThreadsPerMultiProcessor = a(cudaDevAttrMaxThreadsPerMultiProcessor);
  p.streamPrioritiesSupported = a(cudaDevAttrStreamPrioritiesSupported);
  p.globalL1CacheSupported = a(cudaDevAttrGlobalL1CacheSupported);
  p.localL1CacheSupported = a(cudaDevAttrLocalL1CacheSupported);
  p.sharedMemPerMultiprocessor =
      static_cast<std::size_t>(a(cudaDevAttrMaxSharedMemoryPerMultiprocessor));
  p.regsPerMultiprocessor = a(cudaDevAttrMaxRegistersPerMultiprocessor);
  p.managedMemory = a(cudaDevAttrManagedMemory);
  p.isMultiGpuBoard = a(cudaDevAttrIsMultiGpuBoard);
  p.multiGpuBoardGroupID = a(cudaDevAttrMultiGpuBoardGroupID);
  p.hostNativeAtomicSupported = a(cudaDevAttrHostNativeAtomicSupported);
  p.pageableMemoryAccess = a(cudaDevAttrPageableMemoryAccess);
  p.concurrentManagedAccess = a(cudaDevAttrConcurrentManagedAccess);
  p.computePreemptionSupported = a(cudaDevAttrComputePreemptionSupported);
  p.canUseHostPointerForRegisteredMem = a(cudaDevAttrCanUseHostPointerForRegisteredMem);
  p.cooperativeLaunch = a(cudaDevAttrCooperativeLaunch);
  p.sharedMemPerBlockOptin = static_cast<std::size_t>(a(cudaDevAttrMaxSharedMemoryPerBlockOptin));
  p.pageableMemoryAccessUsesHostPageTables = a(cudaDevAttrPageableMemoryAccessUsesHostPageTables);
  p.directManagedMemAccessFromHost = a(cudaDevAttrDirectManagedMemAccessFromHost);
  p.maxBlocksPerMultiProcessor = a(cudaDevAttrMaxBlocksPerMultiprocessor);
  p.accessPolicyMaxWindowSize = a(cudaDevAttrMaxAccessPolicyWindowSize);
  p.reservedSharedMemPerBlock = static_cast<std::size_t>(a(cudaDevAttrReservedSharedMemoryPerBlock));
  p.hostRegisterSupported = a(cudaDevAttrHostRegisterSupported);
  p.sparseCudaArraySupported = a(cudaDevAttrSparseCudaArraySupported);
  p.hostRegisterReadOnlySupported = a(cudaDevAttrHostRegisterReadOnlySupported);
  p.timelineSemaphoreInteropSupported = a(cudaDevAttrTimelineSemaphoreInteropSupported);
  p.memoryPoolsSupported = a(cudaDevAttrMemoryPoolsSupported);
  p.gpuDirectRDMASupported = a(cudaDevAttrGPUDirectRDMASupported);
  p.gpuDirectRDMAFlushWritesOptions =
      static_cast<unsigned>(a(cudaDevAttrGPUDirectRDMAFlushWritesOptions));
  p.gpuDirectRDMAWritesOrdering = a(cudaDevAttrGPUDirectRDMAWritesOrdering);
  p.memoryPoolSupportedHandleTypes =
      static_cast<unsigned>(a(cudaDevAttrMemoryPoolSupportedHandleTypes));
  p.deferredMappingCudaArraySupported = a(cudaDevAttrDeferredMappingCudaArraySupported);
  p.ipcEventSupported = a(cudaDevAttrIpcEventSupport);
  p.clusterLaunch = a(cudaDevAttrClusterLaunch);
  p.unifiedFunctionPointers = 1;
  p.deviceNumaConfig = a(cudaDevAttrNumaConfig);
  p.deviceNumaId = a(cudaDevAttrNumaId);
  p.mpsEnabled = a(cudaDevAttrMpsEnabled);
  p.hostNumaId = a(cudaDevAttrHostNumaId);
  p.gpuPciDeviceID = static_cast<unsigned>(a(cudaDevAttrGpuPciDeviceId));
  p.gpuPciSubsystemID = static_cast<unsigned>(a(cudaDevAttrGpuPciSubsystemId));
  p.hostNumaMultinodeIpcSupported = a(cudaDevAttrHostNumaMultinodeIpcSupported);
  p.clockRate = a(cudaDevAttrClockRate);
  p.memoryClockRate = a(cudaDevAttrMemoryClockRate);
  p.deviceOverlap = a(cudaDevAttrGpuOverlap);
  p.kernelExecTimeoutEnabled = a(cudaDevAttrKernelExecTimeout);
  p.computeMode = a(cudaDevAttrComputeMode);
  p.maxTexture1DLinear = a(cudaDevAttrMaxTexture1DLinearWidth);
  p.singleToDoublePrecisionPerfRatio = a(cudaDevAttrSingleToDoublePrecisionPerfRatio);
  p.cooperativeMultiDeviceLaunch = 0;  // one device
  return p;
}

// ---- device management: one device, number 0

inline cudaError_t cudaGetDeviceCount(int* count) {
  if (count == nullptr) return cudaErrorInvalidValue;
  *count = 1;
  return cudaSuccess;
}
inline cudaError_t cudaGetDevice(int* device) {
  if (device == nullptr) return cudaErrorInvalidValue;
  *device = 0;
  return cudaSuccess;
}
inline cudaError_t cudaSetDevice(int device) {
  return device == 0 ? cudaSuccess : cudaErrorInvalidDevice;
}
inline cudaError_t cudaInitDevice(int device, unsigned = 0, unsigned = 0) {
  return cudaSetDevice(device);
}
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (prop == nullptr) return cudaErrorInvalidValue;
  if (device != 0) return cudaErrorInvalidDevice;
  *prop = warpsim_simulated_device_properties();
  return cudaSuccess;
}
inline cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  if (value == nullptr) return cudaErrorInvalidValue;
  if (device != 0) return cudaErrorInvalidDevice;
  bool known = false;
  const int answer = warpsim_device_attribute(attr, known);
  if (!known) return cudaErrorInvalidValue;
  *value = answer;
  return cudaSuccess;
}
// The one device is the best for any properties.
inline cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp* prop) {
  if (device == nullptr || prop == nullptr) return cudaErrorInvalidValue;
  *device = 0;
  return cudaSuccess;
}
inline cudaError_t cudaSetDeviceFlags(unsigned) { return cudaSuccess; }
// Peer attributes between two devices: the simulator has one, so no pair of devices exists.
enum cudaDeviceP2PAttr {
  cudaDevP2PAttrPerformanceRank = 1,
  cudaDevP2PAttrAccessSupported = 2,
  cudaDevP2PAttrNativeAtomicSupported = 3,
  cudaDevP2PAttrCudaArrayAccessSupported = 4
};
inline cudaError_t cudaDeviceGetP2PAttribute(int* value, cudaDeviceP2PAttr, int src, int dst) {
  if (value == nullptr || src != 0 || dst != 0 || src == dst) return cudaErrorInvalidDevice;
  return cudaSuccess;
}
inline cudaError_t cudaGetDeviceFlags(unsigned* flags) {
  if (flags == nullptr) return cudaErrorInvalidValue;
  *flags = 0;
  return cudaSuccess;
}
inline cudaError_t cudaSetValidDevices(int*, int) { return cudaSuccess; }
// One device: no peer to reach.
inline cudaError_t cudaDeviceCanAccessPeer(int* can, int device, int peer) {
  if (can == nullptr) return cudaErrorInvalidValue;
  if (device != 0 || peer != 0) return cudaErrorInvalidDevice;
  *can = 0;
  return cudaSuccess;
}
inline cudaError_t cudaDeviceGetPCIBusId(char* id, int length, int device) {
  if (id == nullptr || length <= 0) return cudaErrorInvalidValue;
  if (device != 0) return cudaErrorInvalidDevice;
  std::snprintf(id, static_cast<std::size_t>(length), "0000:00:00.0");
  return cudaSuccess;
}
inline cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
  // An H100's range: 0 (lowest) to -5 (highest); streams run in issue order here whatever it is.
  if (least != nullptr) *least = 0;
  if (greatest != nullptr) *greatest = -5;
  return cudaSuccess;
}
inline cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return cudaSuccess; }
inline cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* config) {
  if (config == nullptr) return cudaErrorInvalidValue;
  *config = cudaFuncCachePreferNone;
  return cudaSuccess;
}
inline cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig) { return cudaSuccess; }
inline cudaError_t cudaDeviceSetLimit(cudaLimit, std::size_t) { return cudaSuccess; }
inline cudaError_t cudaDeviceGetLimit(std::size_t* value, cudaLimit limit) {
  if (value == nullptr) return cudaErrorInvalidValue;
  // An H100's defaults (CUDA 13).
  switch (limit) {
    case cudaLimitStackSize: *value = 1024; break;
    case cudaLimitPrintfFifoSize: *value = 1 << 20; break;
    case cudaLimitMallocHeapSize: *value = 8 << 20; break;
    case cudaLimitDevRuntimeSyncDepth: *value = 2; break;
    case cudaLimitDevRuntimePendingLaunchCount: *value = 2048; break;
    case cudaLimitMaxL2FetchGranularity: *value = 64; break;
    case cudaLimitPersistingL2CacheSize: *value = 0; break;
    default: return cudaErrorUnsupportedLimit;
  }
  return cudaSuccess;
}
// Profiling ranges: nothing to profile.
inline cudaError_t cudaProfilerStart() { return cudaSuccess; }
inline cudaError_t cudaProfilerStop() { return cudaSuccess; }
inline cudaError_t cudaDriverGetVersion(int* version) {
  if (version == nullptr) return cudaErrorInvalidValue;
  *version = CUDART_VERSION;
  return cudaSuccess;
}
inline cudaError_t cudaRuntimeGetVersion(int* version) { return cudaDriverGetVersion(version); }
// Launches have run when they return: there is never anything left to wait for. In kernel code
// (CUDA 5-11's dynamic parallelism) it would wait for the thread's child grids, which run only
// after the parent grid here; CUDA 12 removed it from device code (sm_90 cannot load it), so a
// kernel that calls it stops, naming the line (noinline: the return address is the caller's).
__attribute__((noinline)) inline cudaError_t cudaDeviceSynchronize() {
  if (::warpsim::device::current_env != nullptr) {
    warpsim_not_simulated(
        "waiting for child grids in kernel code (removed from device code in CUDA 12's dynamic "
        "parallelism)",
        "cudaDeviceSynchronize", __builtin_return_address(0));
  }
  return static_cast<cudaError_t>(::warpsim::program::sticky_error());
}
inline cudaError_t cudaThreadSynchronize() { return cudaDeviceSynchronize(); }
inline cudaError_t cudaDeviceReset() { return cudaSuccess; }
// CUDA 9's names (removed since; older programs call them, Rodinia's huffman).
inline cudaError_t cudaThreadExit() { return cudaDeviceReset(); }
template <class F>
cudaError_t cudaFuncSetAttribute(F*, cudaFuncAttribute, int) {
  return cudaSuccess;
}
inline cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes) {
  if (free_bytes == nullptr || total_bytes == nullptr) return cudaErrorInvalidValue;
  *total_bytes = warpsim_simulated_device_properties().totalGlobalMem;
  *free_bytes = *total_bytes;
  return cudaSuccess;
}

// ---- memory: all of it host memory

inline cudaError_t warpsim_allocate(
    void** pointer, std::size_t bytes,
    ::warpsim::program::MemoryKind kind = ::warpsim::program::MemoryKind::device) {
  if (pointer == nullptr) return cudaErrorInvalidValue;
  *pointer = ::warpsim::program::allocate(bytes, kind);
  return *pointer != nullptr || bytes == 0 ? cudaSuccess : cudaErrorMemoryAllocation;
}
template <class T>
cudaError_t cudaMalloc(T** pointer, std::size_t bytes) {
  return warpsim_allocate(static_cast<void**>(static_cast<void*>(pointer)), bytes);
}
template <class T>
cudaError_t cudaMallocManaged(T** pointer, std::size_t bytes, unsigned = cudaMemAttachGlobal) {
  return warpsim_allocate(static_cast<void**>(static_cast<void*>(pointer)), bytes,
                          ::warpsim::program::MemoryKind::host_visible);
}
// The C API's form, which a function pointer of its type names (thrust's memory_resource.h takes
// cudaMallocHost as cudaError_t (*)(void**, std::size_t)).
inline cudaError_t cudaMallocHost(void** pointer, std::size_t bytes) {
  return warpsim_allocate(pointer, bytes,
                          ::warpsim::program::MemoryKind::host_visible);
}
// The C++ API's form takes cudaHostAlloc's flags (llm.c passes cudaHostAllocDefault).
template <class T>
cudaError_t cudaMallocHost(T** pointer, std::size_t bytes, unsigned = 0) {
  return warpsim_allocate(static_cast<void**>(static_cast<void*>(pointer)), bytes,
                          ::warpsim::program::MemoryKind::host_visible);
}
template <class T>
cudaError_t cudaHostAlloc(T** pointer, std::size_t bytes, unsigned) {
  return warpsim_allocate(static_cast<void**>(static_cast<void*>(pointer)), bytes,
                          ::warpsim::program::MemoryKind::host_visible);
}
template <class T>
cudaError_t cudaHostGetDevicePointer(T** device_pointer, void* host_pointer, unsigned) {
  if (device_pointer == nullptr) return cudaErrorInvalidValue;
  *device_pointer = static_cast<T*>(host_pointer);
  return cudaSuccess;
}
namespace warpsim::shim {
// Memory pools' bookkeeping (warpsim/memory_pools.hpp).
inline void note_pool_free(const void* pointer);
inline void note_current_pool_allocation(void* pointer, std::size_t bytes);
// cudaFree, cudaMemcpy and cudaMemset (and the Async forms) with the caller's return address,
// which names the call when the pointer or range is refused, as a GPU's runtime refuses it
// (program::release_checked, check_copy, check_memset).
inline cudaError_t free_memory(void* pointer, const void* caller) {
  // In kernel code: the device heap's blocks, which device-side cudaMalloc gave.
  if (::warpsim::device::current_env != nullptr)
    return ::warpsim::program::release(pointer) ? cudaSuccess : cudaErrorInvalidValue;
  if (free_graph_memory(pointer)) return cudaSuccess;
  note_pool_free(pointer);
  return static_cast<cudaError_t>(
      ::warpsim::program::release_checked("cudaFree", pointer, caller));
}
inline cudaError_t copy(void* destination, const void* source, std::size_t bytes,
                        cudaMemcpyKind kind, const char* api, const void* caller) {
  if (static_cast<int>(kind) < 0 || static_cast<int>(kind) > 4) {
    return cudaErrorInvalidMemcpyDirection;
  }
  if (const int refused = ::warpsim::program::check_copy(api, destination, source, bytes,
                                                         static_cast<int>(kind), caller)) {
    return static_cast<cudaError_t>(refused);
  }
  if (bytes != 0) std::memmove(destination, source, bytes);
  return cudaSuccess;
}
inline cudaError_t set(void* destination, int value, std::size_t bytes, const char* api,
                       const void* caller) {
  if (const int refused = ::warpsim::program::check_memset(api, destination, bytes, caller)) {
    return static_cast<cudaError_t>(refused);
  }
  if (bytes != 0) std::memset(destination, value, bytes);
  return cudaSuccess;
}
// The Async forms: the same, in the stream's order (or as a node of the graph it captures).
inline cudaError_t copy_async(void* destination, const void* source, std::size_t bytes,
                              cudaMemcpyKind kind, cudaStream_t stream, const void* caller) {
  return static_cast<cudaError_t>(in_stream(stream, cudaGraphNodeTypeMemcpy, [=](cudaStream_t) {
    return copy(destination, source, bytes, kind, "cudaMemcpyAsync", caller);
  }));
}
inline cudaError_t set_async(void* destination, int value, std::size_t bytes,
                             cudaStream_t stream, const void* caller) {
  return static_cast<cudaError_t>(in_stream(stream, cudaGraphNodeTypeMemset, [=](cudaStream_t) {
    return set(destination, value, bytes, "cudaMemsetAsync", caller);
  }));
}
}  // namespace warpsim::shim
// noinline, each: the return address is the caller's line.
__attribute__((noinline)) inline cudaError_t cudaFree(void* pointer) {
  return ::warpsim::shim::free_memory(pointer, __builtin_return_address(0));
}
__attribute__((noinline)) inline cudaError_t cudaFreeHost(void* pointer) {
  return static_cast<cudaError_t>(
      ::warpsim::program::release_checked("cudaFreeHost", pointer, __builtin_return_address(0)));
}
__attribute__((noinline)) inline cudaError_t cudaMemcpy(void* destination, const void* source,
                                                        std::size_t bytes, cudaMemcpyKind kind) {
  return ::warpsim::shim::copy(destination, source, bytes, kind, "cudaMemcpy",
                               __builtin_return_address(0));
}
__attribute__((noinline)) inline cudaError_t cudaMemcpyAsync(void* destination,
                                                             const void* source,
                                                             std::size_t bytes,
                                                             cudaMemcpyKind kind,
                                                             cudaStream_t stream = nullptr) {
  return ::warpsim::shim::copy_async(destination, source, bytes, kind, stream,
                                     __builtin_return_address(0));
}
__attribute__((noinline)) inline cudaError_t cudaMemset(void* destination, int value,
                                                        std::size_t bytes) {
  return ::warpsim::shim::set(destination, value, bytes, "cudaMemset",
                              __builtin_return_address(0));
}
__attribute__((noinline)) inline cudaError_t cudaMemsetAsync(void* destination, int value,
                                                             std::size_t bytes,
                                                             cudaStream_t stream = nullptr) {
  return ::warpsim::shim::set_async(destination, value, bytes, stream,
                                    __builtin_return_address(0));
}
inline cudaError_t cudaMemPrefetchAsync(const void*, std::size_t, int,
                                        cudaStream_t stream = nullptr) {
  return static_cast<cudaError_t>(::warpsim::shim::in_stream(
      stream, cudaGraphNodeTypeMemcpy, [](cudaStream_t) { return cudaSuccess; }));
}
// Advice on where managed memory should live: all of it is host memory, so nothing to do.
enum cudaMemoryAdvise {
  cudaMemAdviseSetReadMostly = 1,
  cudaMemAdviseUnsetReadMostly = 2,
  cudaMemAdviseSetPreferredLocation = 3,
  cudaMemAdviseUnsetPreferredLocation = 4,
  cudaMemAdviseSetAccessedBy = 5,
  cudaMemAdviseUnsetAccessedBy = 6
};
#define cudaCpuDeviceId ((int)-1)
#define cudaInvalidDeviceId ((int)-2)
inline cudaError_t cudaMemAdvise(const void*, std::size_t, int, int) { return cudaSuccess; }
// Stream-ordered allocation: every stream runs in issue order, so it is allocation now; on a
// capturing stream, an allocation node of the graph (its address is fixed now) or a free node.
inline cudaError_t warpsim_allocate_in_stream(void** pointer, std::size_t bytes,
                                              cudaStream_t stream) {
  if (pointer == nullptr) return cudaErrorInvalidValue;
  if (!::warpsim::shim::is_capturing(stream)) {
    const cudaError_t status = warpsim_allocate(pointer, bytes);
    if (status == cudaSuccess) ::warpsim::shim::note_current_pool_allocation(*pointer, bytes);
    return status;
  }
  auto hold = ::warpsim::shim::new_graph_allocation(bytes);
  if (hold == nullptr) return cudaErrorMemoryAllocation;
  CUgraphNode_st* node = ::warpsim::shim::capture_node(stream, cudaGraphNodeTypeMemAlloc);
  node->allocation = hold;
  *pointer = hold->address;
  return cudaSuccess;
}
template <class T>
cudaError_t cudaMallocAsync(T** pointer, std::size_t bytes, cudaStream_t stream = nullptr) {
  return warpsim_allocate_in_stream(static_cast<void**>(static_cast<void*>(pointer)), bytes,
                                    stream);
}
inline cudaError_t cudaFreeAsync(void* pointer, cudaStream_t stream = nullptr) {
  if (!::warpsim::shim::is_capturing(stream)) return cudaFree(pointer);
  ::warpsim::shim::capture_node(stream, cudaGraphNodeTypeMemFree)->freed = pointer;
  return cudaSuccess;
}
// Registered host memory is device memory from then on (all memory is host memory here).
inline constexpr unsigned cudaHostRegisterDefault = 0;
inline constexpr unsigned cudaHostRegisterPortable = 1;
inline constexpr unsigned cudaHostRegisterMapped = 2;
inline constexpr unsigned cudaHostRegisterIoMemory = 4;
inline constexpr unsigned cudaHostRegisterReadOnly = 8;
inline cudaError_t cudaHostRegister(void* pointer, std::size_t bytes, unsigned) {
  if (pointer == nullptr || bytes == 0) return cudaErrorInvalidValue;
  ::warpsim::program::register_symbol(pointer, bytes);
  return cudaSuccess;
}
inline cudaError_t cudaHostUnregister(void* pointer) {
  return pointer == nullptr ? cudaErrorInvalidValue : cudaSuccess;
}

// __constant__ and __device__ variables are ordinary variables of the program.
template <class T>
cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* source, std::size_t bytes,
                               std::size_t offset = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  if (offset > sizeof(T) || bytes > sizeof(T) - offset) return cudaErrorInvalidValue;
  if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
      kind != cudaMemcpyDefault) {
    return cudaErrorInvalidMemcpyDirection;
  }
  std::memmove(reinterpret_cast<char*>(const_cast<T*>(&symbol)) + offset, source, bytes);
  return cudaSuccess;
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void* destination, const T& symbol, std::size_t bytes,
                                 std::size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  if (offset > sizeof(T) || bytes > sizeof(T) - offset) return cudaErrorInvalidValue;
  if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
      kind != cudaMemcpyDefault) {
    return cudaErrorInvalidMemcpyDirection;
  }
  std::memmove(destination, reinterpret_cast<const char*>(&symbol) + offset, bytes);
  return cudaSuccess;
}
template <class T>
cudaError_t cudaMemcpyToSymbolAsync(const T& symbol, const void* source, std::size_t bytes,
                                    std::size_t offset, cudaMemcpyKind kind,
                                    cudaStream_t stream = nullptr) {
  return static_cast<cudaError_t>(
      ::warpsim::shim::in_stream(stream, cudaGraphNodeTypeMemcpy, [=, &symbol](cudaStream_t) {
        return cudaMemcpyToSymbol(symbol, source, bytes, offset, kind);
      }));
}
template <class T>
cudaError_t cudaMemcpyFromSymbolAsync(void* destination, const T& symbol, std::size_t bytes,
                                      std::size_t offset, cudaMemcpyKind kind,
                                      cudaStream_t stream = nullptr) {
  return static_cast<cudaError_t>(
      ::warpsim::shim::in_stream(stream, cudaGraphNodeTypeMemcpy, [=, &symbol](cudaStream_t) {
        return cudaMemcpyFromSymbol(destination, symbol, bytes, offset, kind);
      }));
}
template <class T>
cudaError_t cudaGetSymbolAddress(void** pointer, const T& symbol) {
  if (pointer == nullptr) return cudaErrorInvalidValue;
  *pointer = const_cast<T*>(&symbol);
  ::warpsim::program::register_symbol(*pointer, sizeof(T));
  return cudaSuccess;
}
template <class T>
cudaError_t cudaGetSymbolSize(std::size_t* size, const T&) {
  if (size == nullptr) return cudaErrorInvalidValue;
  *size = sizeof(T);
  return cudaSuccess;
}

// ---- streams: each runs in issue order, as all work runs when it is issued

inline cudaError_t cudaStreamCreate(cudaStream_t* stream) {
  if (stream == nullptr) return cudaErrorInvalidValue;
  *stream = new CUstream_st{};
  return cudaSuccess;
}
// In kernel code only non-blocking streams exist (CUDA refuses other flags there); a device
// stream only names the order of its launches, which all run after the parent grid.
inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags) {
  if (::warpsim::device::current_env != nullptr && flags != cudaStreamNonBlocking)
    return cudaErrorInvalidValue;
  return cudaStreamCreate(stream);
}
inline cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned, int) {
  return cudaStreamCreate(stream);
}
inline cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  if (stream == cudaStreamLegacy || stream == cudaStreamPerThread) return cudaErrorInvalidValue;
  if (::warpsim::shim::is_capturing(stream)) {
    auto& members = stream->capture->streams;
    members.erase(std::remove(members.begin(), members.end(), stream), members.end());
    if (stream->capture->origin == stream) stream->capture->origin = nullptr;
  }
  delete stream;
  return cudaSuccess;
}
// Waiting for a capturing stream is an error in CUDA (nothing of it has run).
inline cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  if (::warpsim::shim::is_capturing(stream)) return cudaErrorStreamCaptureUnsupported;
  return cudaDeviceSynchronize();
}
inline cudaError_t cudaStreamQuery(cudaStream_t stream) {
  if (::warpsim::shim::is_capturing(stream)) return cudaErrorStreamCaptureUnsupported;
  return cudaSuccess;
}
// Work runs when issued, so a wait is already satisfied; in a capture, the waiting stream's next
// node depends on the event's nodes (and a stream not yet capturing joins the capture).
inline cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned = 0) {
  if (event == nullptr) return cudaErrorInvalidResourceHandle;
  if (event->capture == nullptr || event->capture->ended) return cudaSuccess;
  if (stream == nullptr || reinterpret_cast<std::uintptr_t>(stream) <= 2)
    return cudaErrorStreamCaptureImplicit;
  if (stream->capture == nullptr) {
    stream->capture = event->capture;
    stream->capture->streams.push_back(stream);
    stream->capture_tips = event->capture_tips;
    return cudaSuccess;
  }
  if (stream->capture != event->capture) return cudaErrorStreamCaptureMerge;
  for (CUgraphNode_st* tip : event->capture_tips) {
    if (std::find(stream->capture_tips.begin(), stream->capture_tips.end(), tip) ==
        stream->capture_tips.end())
      stream->capture_tips.push_back(tip);
  }
  return cudaSuccess;
}

// ---- events: they time the simulator on this machine, not a GPU

inline cudaError_t cudaEventCreate(cudaEvent_t* event) {
  if (event == nullptr) return cudaErrorInvalidValue;
  *event = new CUevent_st{};
  return cudaSuccess;
}
inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned) {
  return cudaEventCreate(event);
}
// cuda_runtime.h's C++ overload (simpleIPC calls it).
inline cudaError_t cudaEventCreate(cudaEvent_t* event, unsigned flags) {
  return cudaEventCreateWithFlags(event, flags);
}
inline cudaError_t cudaEventDestroy(cudaEvent_t event) {
  delete event;
  return cudaSuccess;
}
inline cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr) {
  if (event == nullptr) return cudaErrorInvalidResourceHandle;
  if (::warpsim::shim::is_capturing(stream)) {
    event->capture = stream->capture;
    event->capture_tips = stream->capture_tips;
    return cudaSuccess;
  }
  event->capture = nullptr;
  event->capture_tips.clear();
  event->seconds = ::warpsim::program::now_seconds();
  return cudaSuccess;
}
inline cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  return event == nullptr ? cudaErrorInvalidResourceHandle : cudaSuccess;
}
inline cudaError_t cudaEventQuery(cudaEvent_t event) {
  return event == nullptr ? cudaErrorInvalidResourceHandle : cudaSuccess;
}
inline cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (ms == nullptr) return cudaErrorInvalidValue;
  if (start == nullptr || end == nullptr) return cudaErrorInvalidResourceHandle;
  if (start->seconds < 0 || end->seconds < 0) return cudaErrorNotReady;
  *ms = static_cast<float>((end->seconds - start->seconds) * 1000.0);
  return cudaSuccess;
}

// ---- launches (see the top of this file)

namespace warpsim::shim {

struct LaunchConfig {
  dim3 grid, block;
  std::size_t shared_bytes = 0;
  cudaStream_t stream = nullptr;
  bool cooperative = false;  // cudaLaunchCooperativeKernel's: every block resident at once
  // Made through a runtime function (cudaLaunchKernel, ...), not <<<>>>, or by a <<<>>> inside a
  // library's header (cub's, through Thrust's triple_chevron): exec --gpu's GPU side does not see
  // it (warpsim/launch_buffers.hpp).
  bool without_chevrons = false;
  bool from_library = false;  // library_launch_config's: listed at LibraryCallSite's line if any
};

// Where the user's code called a library that launches kernels in its headers: the runner wraps
// such calls (runner::mark_library_calls) in a comma expression with one of these, which lives
// until the call returns, so the launches made inside are listed at the user's line, not the
// header's. Calls nest: the innermost is the one in force.
class LibraryCallSite {
 public:
  struct Site {
    const char* file = nullptr;
    unsigned line = 0;
  };
  LibraryCallSite(const char* file, unsigned line) : outer_(current()) { current() = {file, line}; }
  LibraryCallSite(const LibraryCallSite&) = delete;
  LibraryCallSite& operator=(const LibraryCallSite&) = delete;
  ~LibraryCallSite() { current() = outer_; }
  static Site& current() {
    static thread_local Site site;
    return site;
  }

 private:
  Site outer_;
};

inline LaunchConfig launch_config(dim3 grid, dim3 block, std::size_t shared_bytes = 0,
                                  cudaStream_t stream = nullptr) {
  return {grid, block, shared_bytes, stream};
}
// A <<<>>> launch in a CUDA library's header, which the runner rewrites there
// (toolkit_headers.hpp) but which the GPU side of exec --gpu does not rewrite, so does not see.
inline LaunchConfig library_launch_config(dim3 grid, dim3 block, std::size_t shared_bytes = 0,
                                          cudaStream_t stream = nullptr) {
  LaunchConfig config = launch_config(grid, block, shared_bytes, stream);
  config.without_chevrons = true;
  config.from_library = true;
  return config;
}
// A launch made by a runtime function (cudaLaunchKernel, cudaLaunchCooperativeKernel,
// cudaLaunchKernelEx, a kernel node) rather than <<<>>>.
inline LaunchConfig runtime_launch_config(dim3 grid, dim3 block, std::size_t shared_bytes,
                                          cudaStream_t stream, bool cooperative = false) {
  LaunchConfig config = launch_config(grid, block, shared_bytes, stream);
  config.cooperative = cooperative;
  config.without_chevrons = true;
  return config;
}

// `call` calls the kernel with the arguments; operator() takes them, keeps a copy of each (the
// kernel's parameters, evaluated once) and runs the launch.
// Bit i set: argument i is a non-null pointer that no allocation of the program holds.
template <class Value>
bool is_host_pointer(const Value& value) {
  if constexpr (std::is_pointer_v<Value> && !std::is_function_v<std::remove_pointer_t<Value>>) {
    const volatile void* address = value;
    return value != nullptr &&
           !::warpsim::program::is_device_address(const_cast<const void*>(address));
  } else {
    return false;
  }
}
template <class Value>
const void* pointer_value(const Value& value) {
  if constexpr (std::is_pointer_v<Value> && !std::is_function_v<std::remove_pointer_t<Value>>) {
    const volatile void* address = value;
    return const_cast<const void*>(address);
  } else {
    return nullptr;
  }
}
// sizeof what a pointer argument points to; 1 for void and incomplete types (then elements are
// bytes). Kernel files are C++17: no concepts here.
template <class T, class = void>
struct complete_size {
  static constexpr std::size_t value = 1;
};
template <class T>
struct complete_size<T, std::void_t<decltype(sizeof(T))>> {
  static constexpr std::size_t value = sizeof(T);
};
template <class Value>
constexpr std::size_t pointee_size() {
  if constexpr (std::is_pointer_v<Value> && !std::is_function_v<std::remove_pointer_t<Value>>) {
    return complete_size<std::remove_cv_t<std::remove_pointer_t<Value>>>::value;
  } else {
    return 1;
  }
}
template <class Values, std::size_t... I>
void pointer_args(const Values& values, const void** pointers, std::size_t* sizes,
                  std::index_sequence<I...>) {
  ((pointers[I] = pointer_value(std::get<I>(values)),
    sizes[I] = pointee_size<std::tuple_element_t<I, Values>>()),
   ...);
}
template <class Values, std::size_t... I>
std::uint64_t host_pointers(const Values& values, std::index_sequence<I...>) {
  return ((static_cast<std::uint64_t>(I < 64 && is_host_pointer(std::get<I>(values))) << (I % 64)) |
          ... | std::uint64_t{0});
}

// A launch argument written as a bare `0` or `NULL` (rewrite_launches puts this in its place):
// it becomes whatever the kernel's parameter is, a null pointer included, as nvcc converts it
// (Rodinia's huffman passes 0 for an unsigned int*).
struct ZeroLiteral {
  template <class T>
  constexpr operator T() const noexcept {
    return T{};
  }
};

template <class Call>
struct KernelLaunch {
  const char* kernel;
  const char* file;
  unsigned line;
  LaunchConfig config;
  Call call;

  // The launch's status: 0, or the cudaError_t of a shape CUDA refuses (also the last error).
  template <class... Args>
  int operator()(Args&&... args) {
    using Values = std::tuple<std::decay_t<Args>...>;
    if (::warpsim::device::current_env != nullptr) {
      return launch_from_device(Values(std::forward<Args>(args)...),
                                std::index_sequence_for<Args...>{});
    }
    if (is_capturing(config.stream)) {
      // A kernel node: the arguments are copied now, as CUDA copies them; each launch of the
      // graph runs the kernel with them on the graph's stream.
      capture_node(config.stream, cudaGraphNodeTypeKernel)->work =
          [launch = *this, values = Values(std::forward<Args>(args)...)](
              cudaStream_t stream) mutable {
            launch.config.stream = stream;
            return std::apply([&launch](auto&... v) { return launch(v...); }, values);
          };
      return 0;
    }
    Values values(std::forward<Args>(args)...);
    struct Context {
      Call* call;
      Values* values;
    } context{&call, &values};
    ::warpsim::program::KernelLaunchRequest request;
    request.kernel = kernel;
    request.file = file;
    request.line = line;
    request.grid[0] = config.grid.x;
    request.grid[1] = config.grid.y;
    request.grid[2] = config.grid.z;
    request.block[0] = config.block.x;
    request.block[1] = config.block.y;
    request.block[2] = config.block.z;
    request.shared_bytes = config.shared_bytes;
    request.stream = config.stream;
    request.cooperative = config.cooperative;
    request.host_pointer_args = host_pointers(values, std::index_sequence_for<Args...>{});
    const void* pointers[sizeof...(Args) + 1] = {};
    std::size_t element_sizes[sizeof...(Args) + 1] = {};
    pointer_args(values, pointers, element_sizes, std::index_sequence_for<Args...>{});
    request.arg_pointers = pointers;
    request.arg_element_sizes = element_sizes;
    request.arg_count = sizeof...(Args);
    const int status = ::warpsim::program::launch_kernel(
        request,
        [](void* opaque) {
          auto* c = static_cast<Context*>(opaque);
          std::apply(*c->call, *c->values);
        },
        &context);
    record_buffers(status, values);
    return status;
  }

  // A launch from kernel code (dynamic parallelism): the call and a copy of the arguments, taken
  // now as CUDA takes them, run when the runtime runs the child (program_runtime.hpp).
  template <class Values, std::size_t... I>
  int launch_from_device(Values values, std::index_sequence<I...> indexes) {
    struct Child {
      Call call;
      Values values;
    };
    auto* child = new Child{call, std::move(values)};
    ::warpsim::program::KernelLaunchRequest request;
    request.kernel = kernel;
    request.file = file;
    request.line = line;
    request.grid[0] = config.grid.x;
    request.grid[1] = config.grid.y;
    request.grid[2] = config.grid.z;
    request.block[0] = config.block.x;
    request.block[1] = config.block.y;
    request.block[2] = config.block.z;
    request.shared_bytes = config.shared_bytes;
    request.stream = config.stream;
    request.host_pointer_args = host_pointers(child->values, indexes);
    const void* pointers[sizeof...(I) + 1] = {};
    std::size_t element_sizes[sizeof...(I) + 1] = {};
    pointer_args(child->values, pointers, element_sizes, indexes);
    request.arg_pointers = pointers;
    request.arg_element_sizes = element_sizes;
    request.arg_count = sizeof...(I);
    return ::warpsim::program::queue_device_launch(
        request,
        [](void* opaque) {
          auto* c = static_cast<Child*>(opaque);
          std::apply(c->call, c->values);
        },
        child, [](void* opaque) { delete static_cast<Child*>(opaque); });
  }

  // Under `warpsim exec --gpu`: the launch's buffers, for the comparison with the GPU's.
  template <class Values>
  void record_buffers(int status, const Values& values) {
    namespace lb = ::warpsim::launch_buffers;
    lb::Recorder& recorder = lb::Recorder::instance();
    if (!recorder.enabled()) return;
    // Host launches only, numbered as the GPU's host-side hooks number them.
    const std::uint64_t index = ::warpsim::program::host_launch_count() - 1;
    // A graph's kernel: the GPU side records its capture, not its runs; a launch without <<<>>>:
    // the GPU side does not see it. Nothing to pair with.
    const bool in_graph = graph_runs_in_progress() != 0;
    recorder.launch(index, kernel, status,
                    in_graph                        ? lb::LaunchKind::in_graph
                    : config.without_chevrons ? lb::LaunchKind::without_chevrons
                                                    : lb::LaunchKind::made);
    if (status != 0 || in_graph || config.without_chevrons) return;
    recorder.pointer_args(
        index, values,
        [](const void* pointer) {
          lb::Extent extent;
          extent.found = ::warpsim::program::allocation_holding(pointer, &extent.base, &extent.bytes);
          return extent;
        },
        [](void* host, const void* base, std::size_t bytes) {
          std::memcpy(host, base, bytes);
          return true;
        });
  }
};

template <class Call>
KernelLaunch<Call> launch_kernel(const char* kernel, const char* file, unsigned line,
                                 LaunchConfig config, Call call) {
  if (const LibraryCallSite::Site site = LibraryCallSite::current();
      config.from_library && site.file != nullptr) {
    file = site.file;
    line = site.line;
  }
  return {kernel, file, line, config, std::move(call)};
}

}  // namespace warpsim::shim

// ---- pitched memory, launches without <<<>>>, occupancy, and what is declared only

#include "warpsim/pitched_memory.hpp"
#include "warpsim/function_names.hpp"
#include "warpsim/kernel_addresses.hpp"
#include "warpsim/launch_api.hpp"
#include "warpsim/texture_types.hpp"
#include "warpsim/cuda_arrays.hpp"
#include "warpsim/texture_objects.hpp"
#include "warpsim/surface_objects.hpp"
#include "warpsim/texture_references.hpp"
#include "warpsim/memory_pools.hpp"
#include "warpsim/graph_api.hpp"
#include "warpsim/not_simulated_api.hpp"
