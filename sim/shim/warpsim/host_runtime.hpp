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

#include "warpsim/launch_buffers.hpp"
#include "warpsim/program_runtime.hpp"

// ---- handles and properties

struct CUstream_st {
  int id;
};
struct CUevent_st {
  double seconds;  // when it was recorded (program::now_seconds); negative: never recorded
};

inline constexpr unsigned cudaStreamDefault = 0;
inline constexpr unsigned cudaStreamNonBlocking = 1;
inline constexpr unsigned cudaEventDefault = 0;
inline constexpr unsigned cudaEventBlockingSync = 1;
inline constexpr unsigned cudaEventDisableTiming = 2;
inline constexpr unsigned cudaHostAllocDefault = 0;
inline constexpr unsigned cudaHostAllocPortable = 1;
inline constexpr unsigned cudaHostAllocMapped = 2;
inline constexpr unsigned cudaHostAllocWriteCombined = 4;
inline constexpr unsigned cudaMemAttachGlobal = 1;
inline constexpr unsigned cudaMemAttachHost = 2;
#define cudaStreamLegacy (reinterpret_cast<cudaStream_t>(0x1))
#define cudaStreamPerThread (reinterpret_cast<cudaStream_t>(0x2))

// The fields of CUDA 13's cudaDeviceProp that programs read, with the simulated device's values
// (cudaGetDeviceProperties): an H100's limits, the compute capability of the architecture the
// file is compiled for (warpsim exec --arch), warp size 32.
struct cudaDeviceProp {
  char name[256];
  char uuid[16];
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
  int multiProcessorCount;
  int integrated;
  int canMapHostMemory;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  std::size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int concurrentManagedAccess;
  int pageableMemoryAccess;
  int cooperativeLaunch;
  std::size_t sharedMemPerBlockOptin;
  int maxBlocksPerMultiProcessor;
  std::size_t reservedSharedMemPerBlock;
  int clusterLaunch;
};

enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
};

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};

inline cudaDeviceProp warpsim_simulated_device_properties() {
  cudaDeviceProp p{};
  std::snprintf(p.name, sizeof p.name, "warpsim (simulated sm_%d)", __CUDA_ARCH__ / 10);
  p.totalGlobalMem = std::size_t{80} << 30;
  p.sharedMemPerBlock = 48 * 1024;
  p.regsPerBlock = 65536;
  p.warpSize = 32;
  p.memPitch = 2147483647;
  p.maxThreadsPerBlock = 1024;
  p.maxThreadsDim[0] = 1024;
  p.maxThreadsDim[1] = 1024;
  p.maxThreadsDim[2] = 64;
  p.maxGridSize[0] = 2147483647;
  p.maxGridSize[1] = 65535;
  p.maxGridSize[2] = 65535;
  p.totalConstMem = 65536;
  p.major = __CUDA_ARCH__ / 100;
  p.minor = __CUDA_ARCH__ / 10 % 10;
  p.textureAlignment = 512;
  p.multiProcessorCount = 132;
  p.canMapHostMemory = 1;
  p.concurrentKernels = 1;
  p.asyncEngineCount = 3;
  p.unifiedAddressing = 1;
  p.memoryBusWidth = 5120;
  p.l2CacheSize = 50 * 1024 * 1024;
  p.maxThreadsPerMultiProcessor = 2048;
  p.globalL1CacheSupported = 1;
  p.localL1CacheSupported = 1;
  p.sharedMemPerMultiprocessor = 228 * 1024;
  p.regsPerMultiprocessor = 65536;
  p.managedMemory = 1;
  p.concurrentManagedAccess = 1;
  p.cooperativeLaunch = 1;
  p.sharedMemPerBlockOptin = 227 * 1024;
  p.maxBlocksPerMultiProcessor = 32;
  p.reservedSharedMemPerBlock = 1024;
  p.clusterLaunch = __CUDA_ARCH__ >= 900 ? 1 : 0;
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
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (prop == nullptr) return cudaErrorInvalidValue;
  if (device != 0) return cudaErrorInvalidDevice;
  *prop = warpsim_simulated_device_properties();
  return cudaSuccess;
}
inline cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  if (value == nullptr) return cudaErrorInvalidValue;
  if (device != 0) return cudaErrorInvalidDevice;
  const cudaDeviceProp p = warpsim_simulated_device_properties();
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock:
      *value = p.maxThreadsPerBlock;
      break;
    case cudaDevAttrMaxBlockDimX:
      *value = p.maxThreadsDim[0];
      break;
    case cudaDevAttrMaxBlockDimY:
      *value = p.maxThreadsDim[1];
      break;
    case cudaDevAttrMaxBlockDimZ:
      *value = p.maxThreadsDim[2];
      break;
    case cudaDevAttrMaxGridDimX:
      *value = p.maxGridSize[0];
      break;
    case cudaDevAttrMaxGridDimY:
      *value = p.maxGridSize[1];
      break;
    case cudaDevAttrMaxGridDimZ:
      *value = p.maxGridSize[2];
      break;
    case cudaDevAttrMaxSharedMemoryPerBlock:
      *value = static_cast<int>(p.sharedMemPerBlock);
      break;
    case cudaDevAttrWarpSize:
      *value = p.warpSize;
      break;
    case cudaDevAttrMultiProcessorCount:
      *value = p.multiProcessorCount;
      break;
    case cudaDevAttrComputeCapabilityMajor:
      *value = p.major;
      break;
    case cudaDevAttrComputeCapabilityMinor:
      *value = p.minor;
      break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin:
      *value = static_cast<int>(p.sharedMemPerBlockOptin);
      break;
    default:
      return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}
inline cudaError_t cudaDriverGetVersion(int* version) {
  if (version == nullptr) return cudaErrorInvalidValue;
  *version = CUDART_VERSION;
  return cudaSuccess;
}
inline cudaError_t cudaRuntimeGetVersion(int* version) { return cudaDriverGetVersion(version); }
// Launches have run when they return: there is never anything left to wait for.
inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
inline cudaError_t cudaThreadSynchronize() { return cudaSuccess; }
inline cudaError_t cudaDeviceReset() { return cudaSuccess; }
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

inline cudaError_t warpsim_allocate(void** pointer, std::size_t bytes) {
  if (pointer == nullptr) return cudaErrorInvalidValue;
  *pointer = ::warpsim::program::allocate(bytes);
  return *pointer != nullptr || bytes == 0 ? cudaSuccess : cudaErrorMemoryAllocation;
}
template <class T>
cudaError_t cudaMalloc(T** pointer, std::size_t bytes) {
  return warpsim_allocate(reinterpret_cast<void**>(pointer), bytes);
}
template <class T>
cudaError_t cudaMallocManaged(T** pointer, std::size_t bytes, unsigned = cudaMemAttachGlobal) {
  return warpsim_allocate(reinterpret_cast<void**>(pointer), bytes);
}
template <class T>
cudaError_t cudaMallocHost(T** pointer, std::size_t bytes) {
  return warpsim_allocate(reinterpret_cast<void**>(pointer), bytes);
}
template <class T>
cudaError_t cudaHostAlloc(T** pointer, std::size_t bytes, unsigned) {
  return warpsim_allocate(reinterpret_cast<void**>(pointer), bytes);
}
template <class T>
cudaError_t cudaHostGetDevicePointer(T** device_pointer, void* host_pointer, unsigned) {
  if (device_pointer == nullptr) return cudaErrorInvalidValue;
  *device_pointer = static_cast<T*>(host_pointer);
  return cudaSuccess;
}
inline cudaError_t cudaFree(void* pointer) {
  return ::warpsim::program::release(pointer) ? cudaSuccess : cudaErrorInvalidValue;
}
inline cudaError_t cudaFreeHost(void* pointer) {
  return ::warpsim::program::release(pointer) ? cudaSuccess : cudaErrorInvalidValue;
}
inline cudaError_t cudaMemcpy(void* destination, const void* source, std::size_t bytes,
                              cudaMemcpyKind kind) {
  if (static_cast<int>(kind) < 0 || static_cast<int>(kind) > 4) {
    return cudaErrorInvalidMemcpyDirection;
  }
  if (bytes != 0 && (destination == nullptr || source == nullptr)) return cudaErrorInvalidValue;
  if (bytes != 0) std::memmove(destination, source, bytes);
  return cudaSuccess;
}
inline cudaError_t cudaMemcpyAsync(void* destination, const void* source, std::size_t bytes,
                                   cudaMemcpyKind kind, cudaStream_t = nullptr) {
  return cudaMemcpy(destination, source, bytes, kind);
}
inline cudaError_t cudaMemset(void* destination, int value, std::size_t bytes) {
  if (bytes != 0 && destination == nullptr) return cudaErrorInvalidValue;
  if (bytes != 0) std::memset(destination, value, bytes);
  return cudaSuccess;
}
inline cudaError_t cudaMemsetAsync(void* destination, int value, std::size_t bytes,
                                   cudaStream_t = nullptr) {
  return cudaMemset(destination, value, bytes);
}
inline cudaError_t cudaMemPrefetchAsync(const void*, std::size_t, int, cudaStream_t = nullptr) {
  return cudaSuccess;
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
                                    cudaStream_t = nullptr) {
  return cudaMemcpyToSymbol(symbol, source, bytes, offset, kind);
}
template <class T>
cudaError_t cudaMemcpyFromSymbolAsync(void* destination, const T& symbol, std::size_t bytes,
                                      std::size_t offset, cudaMemcpyKind kind,
                                      cudaStream_t = nullptr) {
  return cudaMemcpyFromSymbol(destination, symbol, bytes, offset, kind);
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
  *stream = new CUstream_st{1};
  return cudaSuccess;
}
inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned) {
  return cudaStreamCreate(stream);
}
inline cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned, int) {
  return cudaStreamCreate(stream);
}
inline cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  if (stream == cudaStreamLegacy || stream == cudaStreamPerThread) return cudaErrorInvalidValue;
  delete stream;
  return cudaSuccess;
}
inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
inline cudaError_t cudaStreamQuery(cudaStream_t) { return cudaSuccess; }
inline cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned = 0) {
  return cudaSuccess;
}

// ---- events: they time the simulator on this machine, not a GPU

inline cudaError_t cudaEventCreate(cudaEvent_t* event) {
  if (event == nullptr) return cudaErrorInvalidValue;
  *event = new CUevent_st{-1.0};
  return cudaSuccess;
}
inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned) {
  return cudaEventCreate(event);
}
inline cudaError_t cudaEventDestroy(cudaEvent_t event) {
  delete event;
  return cudaSuccess;
}
inline cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t = nullptr) {
  if (event == nullptr) return cudaErrorInvalidResourceHandle;
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
};

inline LaunchConfig launch_config(dim3 grid, dim3 block, std::size_t shared_bytes = 0,
                                  cudaStream_t stream = nullptr) {
  return {grid, block, shared_bytes, stream};
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
template <class Values, std::size_t... I>
std::uint64_t host_pointers(const Values& values, std::index_sequence<I...>) {
  return ((static_cast<std::uint64_t>(I < 64 && is_host_pointer(std::get<I>(values))) << (I % 64)) |
          ... | std::uint64_t{0});
}

template <class Call>
struct KernelLaunch {
  const char* kernel;
  const char* file;
  unsigned line;
  LaunchConfig config;
  Call call;

  template <class... Args>
  void operator()(Args&&... args) {
    using Values = std::tuple<std::decay_t<Args>...>;
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
    request.host_pointer_args = host_pointers(values, std::index_sequence_for<Args...>{});
    const int status = ::warpsim::program::launch_kernel(
        request,
        [](void* opaque) {
          auto* c = static_cast<Context*>(opaque);
          std::apply(*c->call, *c->values);
        },
        &context);
    record_buffers(status, values);
  }

  // Under `warpsim exec --gpu`: the launch's buffers, for the comparison with the GPU's.
  template <class Values>
  void record_buffers(int status, const Values& values) {
    namespace lb = ::warpsim::launch_buffers;
    lb::Recorder& recorder = lb::Recorder::instance();
    if (!recorder.enabled()) return;
    const std::uint64_t index = ::warpsim::program::launch_count() - 1;
    recorder.launch(index, kernel, status);
    if (status != 0) return;
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
  return {kernel, file, line, config, std::move(call)};
}

}  // namespace warpsim::shim

// ---- what `warpsim exec` does not simulate: a call fails to compile, naming it

struct CUgraph_st;
struct CUgraphExec_st;
struct cudaArray;
using cudaGraph_t = CUgraph_st*;
using cudaGraphExec_t = CUgraphExec_st*;
using cudaArray_t = cudaArray*;
using cudaTextureObject_t = unsigned long long;
using cudaSurfaceObject_t = unsigned long long;

#define WARPSIM_HOST_NOT_SIMULATED(NAME, WHY) WARPSIM_NOT_SIMULATED(cudaError_t, NAME, WHY)
WARPSIM_HOST_NOT_SIMULATED(
    cudaGraphCreate, "warpsim exec runs each launch when it is made; CUDA graphs are not simulated")
WARPSIM_HOST_NOT_SIMULATED(
    cudaStreamBeginCapture,
    "warpsim exec runs each launch when it is made; stream capture (CUDA graphs) is not simulated")
WARPSIM_HOST_NOT_SIMULATED(cudaStreamEndCapture, "stream capture (CUDA graphs) is not simulated")
WARPSIM_HOST_NOT_SIMULATED(cudaGraphInstantiate, "CUDA graphs are not simulated")
WARPSIM_HOST_NOT_SIMULATED(cudaGraphLaunch, "CUDA graphs are not simulated")
WARPSIM_HOST_NOT_SIMULATED(cudaLaunchKernel,
                           "launch kernels with <<<...>>> (warpsim exec rewrites those)")
WARPSIM_HOST_NOT_SIMULATED(cudaLaunchKernelEx,
                           "launch kernels with <<<...>>> (warpsim exec rewrites those)")
WARPSIM_HOST_NOT_SIMULATED(
    cudaLaunchCooperativeKernel,
    "cooperative (grid-wide) launches are not simulated: blocks run one at a time")
WARPSIM_HOST_NOT_SIMULATED(cudaCreateTextureObject, "textures are not simulated")
WARPSIM_HOST_NOT_SIMULATED(cudaCreateSurfaceObject, "surfaces are not simulated")
WARPSIM_HOST_NOT_SIMULATED(cudaMallocArray, "CUDA arrays (textures) are not simulated")
WARPSIM_HOST_NOT_SIMULATED(cudaMemcpy2D,
                           "2D copies are not simulated; copy row by row with cudaMemcpy")
WARPSIM_HOST_NOT_SIMULATED(cudaMallocPitch, "pitched allocations are not simulated; use cudaMalloc")
WARPSIM_HOST_NOT_SIMULATED(cudaMemcpyPeer,
                           "the simulator has one device: multi-GPU is not simulated")
WARPSIM_HOST_NOT_SIMULATED(cudaDeviceEnablePeerAccess,
                           "the simulator has one device: multi-GPU is not simulated")
WARPSIM_HOST_NOT_SIMULATED(cudaIpcGetMemHandle, "inter-process memory is not simulated")
WARPSIM_HOST_NOT_SIMULATED(cudaOccupancyMaxActiveBlocksPerMultiprocessor,
                           "occupancy is not simulated")
WARPSIM_HOST_NOT_SIMULATED(cudaOccupancyMaxPotentialBlockSize, "occupancy is not simulated")
#undef WARPSIM_HOST_NOT_SIMULATED
