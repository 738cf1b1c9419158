// The simulated device's attributes: every cudaDeviceAttr of CUDA 13.0 (names and values as the
// runtime API documents them), each answered as an NVIDIA H100 SXM5 80GB answers it, except the
// compute capability (that of the architecture the program is compiled for: warpsim exec --arch)
// and the PCI location (0). cudaGetDeviceProperties fills cudaDeviceProp from the same answers,
// so each fact is written once, here.
#pragma once

enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxPitch = 11,
  cudaDevAttrMaxRegistersPerBlock = 12,
  cudaDevAttrClockRate = 13,
  cudaDevAttrTextureAlignment = 14,
  cudaDevAttrGpuOverlap = 15,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrKernelExecTimeout = 17,
  cudaDevAttrIntegrated = 18,
  cudaDevAttrCanMapHostMemory = 19,
  cudaDevAttrComputeMode = 20,
  cudaDevAttrMaxTexture1DWidth = 21,
  cudaDevAttrMaxTexture2DWidth = 22,
  cudaDevAttrMaxTexture2DHeight = 23,
  cudaDevAttrMaxTexture3DWidth = 24,
  cudaDevAttrMaxTexture3DHeight = 25,
  cudaDevAttrMaxTexture3DDepth = 26,
  cudaDevAttrMaxTexture2DLayeredWidth = 27,
  cudaDevAttrMaxTexture2DLayeredHeight = 28,
  cudaDevAttrMaxTexture2DLayeredLayers = 29,
  cudaDevAttrSurfaceAlignment = 30,
  cudaDevAttrConcurrentKernels = 31,
  cudaDevAttrEccEnabled = 32,
  cudaDevAttrPciBusId = 33,
  cudaDevAttrPciDeviceId = 34,
  cudaDevAttrTccDriver = 35,
  cudaDevAttrMemoryClockRate = 36,
  cudaDevAttrGlobalMemoryBusWidth = 37,
  cudaDevAttrL2CacheSize = 38,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrAsyncEngineCount = 40,
  cudaDevAttrUnifiedAddressing = 41,
  cudaDevAttrMaxTexture1DLayeredWidth = 42,
  cudaDevAttrMaxTexture1DLayeredLayers = 43,
  cudaDevAttrMaxTexture2DGatherWidth = 45,
  cudaDevAttrMaxTexture2DGatherHeight = 46,
  cudaDevAttrMaxTexture3DWidthAlt = 47,
  cudaDevAttrMaxTexture3DHeightAlt = 48,
  cudaDevAttrMaxTexture3DDepthAlt = 49,
  cudaDevAttrPciDomainId = 50,
  cudaDevAttrTexturePitchAlignment = 51,
  cudaDevAttrMaxTextureCubemapWidth = 52,
  cudaDevAttrMaxTextureCubemapLayeredWidth = 53,
  cudaDevAttrMaxTextureCubemapLayeredLayers = 54,
  cudaDevAttrMaxSurface1DWidth = 55,
  cudaDevAttrMaxSurface2DWidth = 56,
  cudaDevAttrMaxSurface2DHeight = 57,
  cudaDevAttrMaxSurface3DWidth = 58,
  cudaDevAttrMaxSurface3DHeight = 59,
  cudaDevAttrMaxSurface3DDepth = 60,
  cudaDevAttrMaxSurface1DLayeredWidth = 61,
  cudaDevAttrMaxSurface1DLayeredLayers = 62,
  cudaDevAttrMaxSurface2DLayeredWidth = 63,
  cudaDevAttrMaxSurface2DLayeredHeight = 64,
  cudaDevAttrMaxSurface2DLayeredLayers = 65,
  cudaDevAttrMaxSurfaceCubemapWidth = 66,
  cudaDevAttrMaxSurfaceCubemapLayeredWidth = 67,
  cudaDevAttrMaxSurfaceCubemapLayeredLayers = 68,
  cudaDevAttrMaxTexture1DLinearWidth = 69,
  cudaDevAttrMaxTexture2DLinearWidth = 70,
  cudaDevAttrMaxTexture2DLinearHeight = 71,
  cudaDevAttrMaxTexture2DLinearPitch = 72,
  cudaDevAttrMaxTexture2DMipmappedWidth = 73,
  cudaDevAttrMaxTexture2DMipmappedHeight = 74,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxTexture1DMipmappedWidth = 77,
  cudaDevAttrStreamPrioritiesSupported = 78,
  cudaDevAttrGlobalL1CacheSupported = 79,
  cudaDevAttrLocalL1CacheSupported = 80,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxRegistersPerMultiprocessor = 82,
  cudaDevAttrManagedMemory = 83,
  cudaDevAttrIsMultiGpuBoard = 84,
  cudaDevAttrMultiGpuBoardGroupID = 85,
  cudaDevAttrHostNativeAtomicSupported = 86,
  cudaDevAttrSingleToDoublePrecisionPerfRatio = 87,
  cudaDevAttrPageableMemoryAccess = 88,
  cudaDevAttrConcurrentManagedAccess = 89,
  cudaDevAttrComputePreemptionSupported = 90,
  cudaDevAttrCanUseHostPointerForRegisteredMem = 91,
  cudaDevAttrReserved92 = 92,
  cudaDevAttrReserved93 = 93,
  cudaDevAttrReserved94 = 94,
  cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrReserved96 = 96,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
  cudaDevAttrCanFlushRemoteWrites = 98,
  cudaDevAttrHostRegisterSupported = 99,
  cudaDevAttrPageableMemoryAccessUsesHostPageTables = 100,
  cudaDevAttrDirectManagedMemAccessFromHost = 101,
  cudaDevAttrMaxBlocksPerMultiprocessor = 106,
  cudaDevAttrMaxPersistingL2CacheSize = 108,
  cudaDevAttrMaxAccessPolicyWindowSize = 109,
  cudaDevAttrReservedSharedMemoryPerBlock = 111,
  cudaDevAttrSparseCudaArraySupported = 112,
  cudaDevAttrHostRegisterReadOnlySupported = 113,
  cudaDevAttrTimelineSemaphoreInteropSupported = 114,
  cudaDevAttrMemoryPoolsSupported = 115,
  cudaDevAttrGPUDirectRDMASupported = 116,
  cudaDevAttrGPUDirectRDMAFlushWritesOptions = 117,
  cudaDevAttrGPUDirectRDMAWritesOrdering = 118,
  cudaDevAttrMemoryPoolSupportedHandleTypes = 119,
  cudaDevAttrClusterLaunch = 120,
  cudaDevAttrDeferredMappingCudaArraySupported = 121,
  cudaDevAttrReserved122 = 122,
  cudaDevAttrReserved123 = 123,
  cudaDevAttrReserved124 = 124,
  cudaDevAttrIpcEventSupport = 125,
  cudaDevAttrMemSyncDomainCount = 126,
  cudaDevAttrReserved127 = 127,
  cudaDevAttrReserved128 = 128,
  cudaDevAttrReserved129 = 129,
  cudaDevAttrNumaConfig = 130,
  cudaDevAttrNumaId = 131,
  cudaDevAttrReserved132 = 132,
  cudaDevAttrMpsEnabled = 133,
  cudaDevAttrHostNumaId = 134,
  cudaDevAttrD3D12CigSupported = 135,
  cudaDevAttrVulkanCigSupported = 138,
  cudaDevAttrGpuPciDeviceId = 139,
  cudaDevAttrGpuPciSubsystemId = 140,
  cudaDevAttrReserved141 = 141,
  cudaDevAttrHostNumaMemoryPoolsSupported = 142,
  cudaDevAttrHostNumaMultinodeIpcSupported = 143,
  cudaDevAttrHostMemoryPoolsSupported = 144,
  cudaDevAttrReserved145 = 145,
  cudaDevAttrOnlyPartialHostNativeAtomicSupported = 147,
  cudaDevAttrMax
};

// What cudaDeviceGetAttribute answers; `known` false for a value that is no attribute (CUDA
// answers cudaErrorInvalidValue). The reserved attributes answer 0.
inline int warpsim_device_attribute(cudaDeviceAttr attribute, bool& known) {
  known = true;
  switch (attribute) {
    case cudaDevAttrMaxThreadsPerBlock: return 1024;
    case cudaDevAttrMaxBlockDimX: return 1024;
    case cudaDevAttrMaxBlockDimY: return 1024;
    case cudaDevAttrMaxBlockDimZ: return 64;
    case cudaDevAttrMaxGridDimX: return 2147483647;
    case cudaDevAttrMaxGridDimY: return 65535;
    case cudaDevAttrMaxGridDimZ: return 65535;
    case cudaDevAttrMaxSharedMemoryPerBlock: return 49152;
    case cudaDevAttrTotalConstantMemory: return 65536;
    case cudaDevAttrWarpSize: return 32;
    case cudaDevAttrMaxPitch: return 2147483647;
    case cudaDevAttrMaxRegistersPerBlock: return 65536;
    case cudaDevAttrClockRate: return 1980000;
    case cudaDevAttrTextureAlignment: return 512;
    case cudaDevAttrGpuOverlap: return 1;
    case cudaDevAttrMultiProcessorCount: return 132;
    case cudaDevAttrKernelExecTimeout: return 0;
    case cudaDevAttrIntegrated: return 0;
    case cudaDevAttrCanMapHostMemory: return 1;
    case cudaDevAttrComputeMode: return 0;
    case cudaDevAttrMaxTexture1DWidth: return 131072;
    case cudaDevAttrMaxTexture2DWidth: return 131072;
    case cudaDevAttrMaxTexture2DHeight: return 65536;
    case cudaDevAttrMaxTexture3DWidth: return 16384;
    case cudaDevAttrMaxTexture3DHeight: return 16384;
    case cudaDevAttrMaxTexture3DDepth: return 16384;
    case cudaDevAttrMaxTexture2DLayeredWidth: return 32768;
    case cudaDevAttrMaxTexture2DLayeredHeight: return 32768;
    case cudaDevAttrMaxTexture2DLayeredLayers: return 2048;
    case cudaDevAttrSurfaceAlignment: return 512;
    case cudaDevAttrConcurrentKernels: return 1;
    case cudaDevAttrEccEnabled: return 1;
    case cudaDevAttrPciBusId: return 0;
    case cudaDevAttrPciDeviceId: return 0;
    case cudaDevAttrTccDriver: return 0;
    case cudaDevAttrMemoryClockRate: return 2619000;
    case cudaDevAttrGlobalMemoryBusWidth: return 5120;
    case cudaDevAttrL2CacheSize: return 52428800;
    case cudaDevAttrMaxThreadsPerMultiProcessor: return 2048;
    case cudaDevAttrAsyncEngineCount: return 3;
    case cudaDevAttrUnifiedAddressing: return 1;
    case cudaDevAttrMaxTexture1DLayeredWidth: return 32768;
    case cudaDevAttrMaxTexture1DLayeredLayers: return 2048;
    case cudaDevAttrMaxTexture2DGatherWidth: return 32768;
    case cudaDevAttrMaxTexture2DGatherHeight: return 32768;
    case cudaDevAttrMaxTexture3DWidthAlt: return 8192;
    case cudaDevAttrMaxTexture3DHeightAlt: return 8192;
    case cudaDevAttrMaxTexture3DDepthAlt: return 32768;
    case cudaDevAttrPciDomainId: return 0;
    case cudaDevAttrTexturePitchAlignment: return 32;
    case cudaDevAttrMaxTextureCubemapWidth: return 32768;
    case cudaDevAttrMaxTextureCubemapLayeredWidth: return 32768;
    case cudaDevAttrMaxTextureCubemapLayeredLayers: return 2046;
    case cudaDevAttrMaxSurface1DWidth: return 32768;
    case cudaDevAttrMaxSurface2DWidth: return 131072;
    case cudaDevAttrMaxSurface2DHeight: return 65536;
    case cudaDevAttrMaxSurface3DWidth: return 16384;
    case cudaDevAttrMaxSurface3DHeight: return 16384;
    case cudaDevAttrMaxSurface3DDepth: return 16384;
    case cudaDevAttrMaxSurface1DLayeredWidth: return 32768;
    case cudaDevAttrMaxSurface1DLayeredLayers: return 2048;
    case cudaDevAttrMaxSurface2DLayeredWidth: return 32768;
    case cudaDevAttrMaxSurface2DLayeredHeight: return 32768;
    case cudaDevAttrMaxSurface2DLayeredLayers: return 2048;
    case cudaDevAttrMaxSurfaceCubemapWidth: return 32768;
    case cudaDevAttrMaxSurfaceCubemapLayeredWidth: return 32768;
    case cudaDevAttrMaxSurfaceCubemapLayeredLayers: return 2046;
    case cudaDevAttrMaxTexture1DLinearWidth: return 268435456;
    case cudaDevAttrMaxTexture2DLinearWidth: return 131072;
    case cudaDevAttrMaxTexture2DLinearHeight: return 65000;
    case cudaDevAttrMaxTexture2DLinearPitch: return 2097120;
    case cudaDevAttrMaxTexture2DMipmappedWidth: return 32768;
    case cudaDevAttrMaxTexture2DMipmappedHeight: return 32768;
    case cudaDevAttrComputeCapabilityMajor: return __CUDA_ARCH__ / 100;
    case cudaDevAttrComputeCapabilityMinor: return __CUDA_ARCH__ / 10 % 10;
    case cudaDevAttrMaxTexture1DMipmappedWidth: return 32768;
    case cudaDevAttrStreamPrioritiesSupported: return 1;
    case cudaDevAttrGlobalL1CacheSupported: return 1;
    case cudaDevAttrLocalL1CacheSupported: return 1;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: return 233472;
    case cudaDevAttrMaxRegistersPerMultiprocessor: return 65536;
    case cudaDevAttrManagedMemory: return 1;
    case cudaDevAttrIsMultiGpuBoard: return 0;
    case cudaDevAttrMultiGpuBoardGroupID: return 0;
    case cudaDevAttrHostNativeAtomicSupported: return 0;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio: return 2;
    case cudaDevAttrPageableMemoryAccess: return 0;
    case cudaDevAttrConcurrentManagedAccess: return 1;
    case cudaDevAttrComputePreemptionSupported: return 1;
    case cudaDevAttrCanUseHostPointerForRegisteredMem: return 1;
    case cudaDevAttrCooperativeLaunch: return 1;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: return 232448;
    case cudaDevAttrCanFlushRemoteWrites: return 0;
    case cudaDevAttrHostRegisterSupported: return 1;
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables: return 0;
    case cudaDevAttrDirectManagedMemAccessFromHost: return 0;
    case cudaDevAttrMaxBlocksPerMultiprocessor: return 32;
    case cudaDevAttrMaxPersistingL2CacheSize: return 32505856;
    case cudaDevAttrMaxAccessPolicyWindowSize: return 134213632;
    case cudaDevAttrReservedSharedMemoryPerBlock: return 1024;
    case cudaDevAttrSparseCudaArraySupported: return 1;
    case cudaDevAttrHostRegisterReadOnlySupported: return 1;
    case cudaDevAttrTimelineSemaphoreInteropSupported: return 1;
    case cudaDevAttrMemoryPoolsSupported: return 1;
    case cudaDevAttrGPUDirectRDMASupported: return 1;
    case cudaDevAttrGPUDirectRDMAFlushWritesOptions: return 1;
    case cudaDevAttrGPUDirectRDMAWritesOrdering: return 100;
    case cudaDevAttrMemoryPoolSupportedHandleTypes: return 1;
    case cudaDevAttrClusterLaunch: return __CUDA_ARCH__ >= 900 ? 1 : 0;
    case cudaDevAttrDeferredMappingCudaArraySupported: return 1;
    case cudaDevAttrIpcEventSupport: return 1;
    case cudaDevAttrMemSyncDomainCount: return 4;
    case cudaDevAttrNumaConfig: return 0;
    case cudaDevAttrNumaId: return -1;
    case cudaDevAttrMpsEnabled: return 0;
    case cudaDevAttrHostNumaId: return -1;
    case cudaDevAttrD3D12CigSupported: return 0;
    case cudaDevAttrVulkanCigSupported: return 0;
    case cudaDevAttrGpuPciDeviceId: return 0;
    case cudaDevAttrGpuPciSubsystemId: return 0;
    case cudaDevAttrHostNumaMemoryPoolsSupported: return 0;
    case cudaDevAttrHostNumaMultinodeIpcSupported: return 0;
    case cudaDevAttrHostMemoryPoolsSupported: return 0;
    case cudaDevAttrOnlyPartialHostNativeAtomicSupported: return 0;
    case cudaDevAttrReserved92:
    case cudaDevAttrReserved93:
    case cudaDevAttrReserved94:
    case cudaDevAttrReserved96:
    case cudaDevAttrReserved122:
    case cudaDevAttrReserved123:
    case cudaDevAttrReserved124:
    case cudaDevAttrReserved127:
    case cudaDevAttrReserved128:
    case cudaDevAttrReserved129:
    case cudaDevAttrReserved132:
    case cudaDevAttrReserved141:
    case cudaDevAttrReserved145:
      return 0;
    case cudaDevAttrMax:
      break;
  }
  known = false;
  return 0;
}
