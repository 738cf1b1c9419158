// Launches without <<<>>> (cudaLaunchKernel, cudaLaunchCooperativeKernel, cudaLaunchKernelEx),
// a kernel's attributes and the occupancy queries, for whole programs (`warpsim exec`).
//
// A typed kernel (`cudaLaunchKernel(kernel, grid, block, args)`, the C++ overload) launches as
// `kernel<<<grid, block, shared, stream>>>` would: each parameter is read from args[i] as the
// kernel's parameter type. A kernel passed as `(void*)kernel` has lost its parameter types, which
// the simulator needs to call it: that launch stops the program, naming the call's line.
//
// Occupancy answers as an H100 would by CUDA's documented formula (64 warps, 2048 threads, 32
// blocks, 65536 registers and 228 KiB of shared memory per multiprocessor, 1 KiB reserved per
// block), with these assumptions, since no GPU compile says otherwise: every kernel uses 32
// registers per thread (then registers never limit a block of up to 1024 threads) and no static
// shared memory, and takes blocks of up to 1024 threads (__launch_bounds__ is not seen).
// Cooperative launches (cudaLaunchCooperativeKernel, cudaLaunchKernelEx with
// cudaLaunchAttributeCooperative) keep every block resident at once, so that grid.sync() holds
// them (sim/runtime/resident_grid.hpp); a grid larger than an H100 holds at once is refused as
// CUDA refuses it (cudaErrorCooperativeLaunchTooLarge).
#pragma once

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <utility>

// ---- launch configuration (cudaLaunchKernelEx)

enum cudaLaunchAttributeID {
  cudaLaunchAttributeIgnore = 0,
  cudaLaunchAttributeAccessPolicyWindow = 1,
  cudaLaunchAttributeCooperative = 2,
  cudaLaunchAttributeSynchronizationPolicy = 3,
  cudaLaunchAttributeClusterDimension = 4,
  cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
  cudaLaunchAttributeProgrammaticStreamSerialization = 6,
  cudaLaunchAttributeProgrammaticEvent = 7,
  cudaLaunchAttributePriority = 8,
  cudaLaunchAttributeMemSyncDomainMap = 9,
  cudaLaunchAttributeMemSyncDomain = 10,
  cudaLaunchAttributePreferredClusterDimension = 11,
  cudaLaunchAttributeLaunchCompletionEvent = 12,
  cudaLaunchAttributeDeviceUpdatableKernelNode = 13,
  cudaLaunchAttributePreferredSharedMemoryCarveout = 14,
};
enum cudaAccessProperty {
  cudaAccessPropertyNormal = 0,
  cudaAccessPropertyStreaming = 1,
  cudaAccessPropertyPersisting = 2
};
struct cudaAccessPolicyWindow {
  void* base_ptr;
  std::size_t num_bytes;
  float hitRatio;
  cudaAccessProperty hitProp;
  cudaAccessProperty missProp;
};
enum cudaSynchronizationPolicy {
  cudaSyncPolicyAuto = 1,
  cudaSyncPolicySpin = 2,
  cudaSyncPolicyYield = 3,
  cudaSyncPolicyBlockingSync = 4
};
enum cudaClusterSchedulingPolicy {
  cudaClusterSchedulingPolicyDefault = 0,
  cudaClusterSchedulingPolicySpread = 1,
  cudaClusterSchedulingPolicyLoadBalancing = 2
};
union cudaLaunchAttributeValue {
  char pad[64];
  cudaAccessPolicyWindow accessPolicyWindow;
  int cooperative;
  cudaSynchronizationPolicy syncPolicy;
  struct {
    unsigned int x, y, z;
  } clusterDim;
  cudaClusterSchedulingPolicy clusterSchedulingPolicyPreference;
  int programmaticStreamSerializationAllowed;
  struct {
    cudaEvent_t event;
    int flags;
    int triggerAtBlockStart;
  } programmaticEvent;
  int priority;
  struct {
    cudaEvent_t event;
    int flags;
  } launchCompletionEvent;
  unsigned int sharedMemCarveout;
};
struct cudaLaunchAttribute_st {
  cudaLaunchAttributeID id;
  char pad[8 - sizeof(cudaLaunchAttributeID)];
  cudaLaunchAttributeValue val;
};
using cudaLaunchAttribute = cudaLaunchAttribute_st;
// A stream's attributes are launch attributes under other names (CUDA's driver_types.h does the
// same).
using cudaStreamAttrID = cudaLaunchAttributeID;
using cudaStreamAttrValue = cudaLaunchAttributeValue;
using cudaKernelNodeAttrID = cudaLaunchAttributeID;
using cudaKernelNodeAttrValue = cudaLaunchAttributeValue;
inline constexpr cudaLaunchAttributeID cudaStreamAttributeAccessPolicyWindow =
    cudaLaunchAttributeAccessPolicyWindow;
// Members named gridDim and blockDim, as CUDA names them: the shim's built-in variables are
// macros (keywords.hpp), set aside for the declaration. Host code that names them
// (`config.gridDim = n;`, as flashinfer's launchers write) is renamed by the runner to
// warpsim_host_gridDim (runner.hpp: rename_host_builtins), the other name of the same member.
#pragma push_macro("gridDim")
#pragma push_macro("blockDim")
#undef gridDim
#undef blockDim
struct cudaLaunchConfig_st {
  union {
    dim3 gridDim;
    dim3 warpsim_host_gridDim;
  };
  union {
    dim3 blockDim;
    dim3 warpsim_host_blockDim;
  };
  std::size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute* attrs;
  unsigned int numAttrs;
  // The unions take a constructor the aggregate had: every field in order, as `= {}` and
  // `= {grid, block, bytes, stream}` initialise CUDA's struct.
  cudaLaunchConfig_st(dim3 grid = dim3(), dim3 block = dim3(), std::size_t bytes = 0,
                      cudaStream_t on = nullptr, cudaLaunchAttribute* attributes = nullptr,
                      unsigned int count = 0)
      : gridDim(grid), blockDim(block), dynamicSmemBytes(bytes), stream(on), attrs(attributes),
        numAttrs(count) {}
};
using cudaLaunchConfig_t = cudaLaunchConfig_st;
#pragma pop_macro("gridDim")
#pragma pop_macro("blockDim")

// ---- a kernel's attributes

struct cudaFuncAttributes {
  std::size_t sharedSizeBytes;
  std::size_t constSizeBytes;
  std::size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
  int clusterDimMustBeSet;
  int requiredClusterWidth;
  int requiredClusterHeight;
  int requiredClusterDepth;
  int clusterSchedulingPolicyPreference;
  int nonPortableClusterSizeAllowed;
  int reserved[16];
};

inline constexpr unsigned cudaOccupancyDefault = 0;
inline constexpr unsigned cudaOccupancyDisableCachingOverride = 1;

namespace warpsim::shim {

// The assumptions above, in one place.
inline constexpr int kAssumedRegistersPerThread = 32;
inline constexpr int kAssumedMaxThreadsPerBlock = 1024;

// Blocks of `block_size` threads with `dynamic_shared` bytes that one H100 multiprocessor holds
// at once: the least of the warp, block, register and shared-memory limits.
inline int occupancy_blocks_per_sm(int block_size, std::size_t dynamic_shared) {
  if (block_size <= 0 || block_size > kAssumedMaxThreadsPerBlock) return 0;
  bool known = false;
  const int warps_per_sm = warpsim_device_attribute(cudaDevAttrMaxThreadsPerMultiProcessor, known) / 32;
  const int blocks_per_sm = warpsim_device_attribute(cudaDevAttrMaxBlocksPerMultiprocessor, known);
  const int registers = warpsim_device_attribute(cudaDevAttrMaxRegistersPerMultiprocessor, known);
  const std::size_t shared_per_sm = static_cast<std::size_t>(
      warpsim_device_attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor, known));
  const std::size_t reserved = static_cast<std::size_t>(
      warpsim_device_attribute(cudaDevAttrReservedSharedMemoryPerBlock, known));
  const std::size_t optin = static_cast<std::size_t>(
      warpsim_device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, known));
  if (dynamic_shared > optin) return 0;
  const int warps = (block_size + 31) / 32;
  int blocks = std::min(blocks_per_sm, warps_per_sm / warps);
  // Registers are allocated per warp in units of 256.
  const int registers_per_warp = (kAssumedRegistersPerThread * 32 + 255) / 256 * 256;
  blocks = std::min(blocks, registers / registers_per_warp / warps);
  // Shared memory is allocated per block in units of 128 bytes, plus the reserved 1 KiB.
  const std::size_t shared = (dynamic_shared + 127) / 128 * 128 + reserved;
  blocks = std::min<int>(blocks, static_cast<int>(shared_per_sm / shared));
  return blocks;
}

// The block size (a multiple of 32, at most `limit` or 1024) giving the most resident warps per
// multiprocessor, the largest such on a tie, as CUDA's cudaOccupancyMaxPotentialBlockSize picks;
// `shared_of(block_size)` is the dynamic shared memory a block of that size takes.
template <class SharedOf>
std::pair<int, int> best_block_size(SharedOf shared_of, int limit) {
  const int most = limit > 0 && limit < kAssumedMaxThreadsPerBlock ? limit : kAssumedMaxThreadsPerBlock;
  int best_size = 0, best_blocks = 0, best_warps = -1;
  for (int size = (most + 31) / 32 * 32; size > 0; size -= 32) {
    const int threads = std::min(size, most);
    const int blocks = occupancy_blocks_per_sm(threads, static_cast<std::size_t>(shared_of(threads)));
    const int warps = blocks * ((threads + 31) / 32);
    if (warps > best_warps) {
      best_warps = warps;
      best_size = threads;
      best_blocks = blocks;
    }
  }
  return {best_size, best_blocks};
}

// cudaLaunchKernelEx's configuration with the line of the call (a converting constructor's
// default arguments are those of the caller's expression).
struct ConfigAt {
  const cudaLaunchConfig_t* config;
  const char* file;
  unsigned line;
  ConfigAt(const cudaLaunchConfig_t* c, const char* f = __builtin_FILE(),
           unsigned l = __builtin_LINE())
      : config(c), file(f), line(l) {}
};

// A kernel's name as the program wrote its definition (the kernels warpsim registers: every
// non-template kernel of the program's files), else `fallback`: how launches without <<<>>> are
// listed in exec's report and recordings.
template <class... Params>
const char* kernel_name_or(void (*kernel)(Params...), const char* fallback) {
  const RegisteredKernel* found =
      KernelAddresses::instance().find(reinterpret_cast<const void*>(kernel));
  return found != nullptr ? found->name : fallback;
}

template <class... Params, std::size_t... I>
int launch_from_argument_array(const char* api, void (*kernel)(Params...), dim3 grid, dim3 block,
                               std::size_t shared, cudaStream_t stream, void** args,
                               const char* file, unsigned line, std::index_sequence<I...>,
                               bool cooperative = false) {
  if (sizeof...(Params) != 0 && args == nullptr) return cudaErrorInvalidValue;
  return launch_kernel(kernel_name_or(kernel, api), file, line,
                       runtime_launch_config(grid, block, shared, stream, cooperative),
                       [kernel](auto&&... a) { kernel(a...); })(
      *static_cast<std::remove_cv_t<std::remove_reference_t<Params>>*>(args[I])...);
}

}  // namespace warpsim::shim

// The C++ overloads: the kernel's type gives its parameters. `file` and `line` name the call in
// the report (as the launch's line).
template <class... Params>
cudaError_t cudaLaunchKernel(void (*kernel)(Params...), dim3 grid, dim3 block, void** args,
                             std::size_t shared = 0, cudaStream_t stream = nullptr,
                             const char* file = __builtin_FILE(), unsigned line = __builtin_LINE()) {
  if (kernel == nullptr) return cudaErrorInvalidDeviceFunction;
  return static_cast<cudaError_t>(::warpsim::shim::launch_from_argument_array(
      "cudaLaunchKernel", kernel, grid, block, shared, stream, args, file, line,
      std::index_sequence_for<Params...>{}));
}

namespace warpsim::shim {
// Every block of a cooperative launch must be resident at once on a GPU: a larger grid is
// refused there (occupancy as an H100 answers it).
inline bool cooperative_grid_fits(dim3 grid, dim3 block, std::size_t shared) {
  const int per_sm = occupancy_blocks_per_sm(static_cast<int>(block.x * block.y * block.z), shared);
  bool known = false;
  const unsigned long long most =
      1ull * static_cast<unsigned>(per_sm) *
      static_cast<unsigned>(warpsim_device_attribute(cudaDevAttrMultiProcessorCount, known));
  return per_sm <= 0 || 1ull * grid.x * grid.y * grid.z <= most;
}
}  // namespace warpsim::shim

template <class... Params>
cudaError_t cudaLaunchCooperativeKernel(void (*kernel)(Params...), dim3 grid, dim3 block,
                                        void** args, std::size_t shared = 0,
                                        cudaStream_t stream = nullptr,
                                        const char* file = __builtin_FILE(),
                                        unsigned line = __builtin_LINE()) {
  if (kernel == nullptr) return cudaErrorInvalidDeviceFunction;
  if (!::warpsim::shim::cooperative_grid_fits(grid, block, shared))
    return cudaErrorCooperativeLaunchTooLarge;
  return static_cast<cudaError_t>(::warpsim::shim::launch_from_argument_array(
      "cudaLaunchCooperativeKernel", kernel, grid, block, shared, stream, args, file, line,
      std::index_sequence_for<Params...>{}, true));
}

// cudaLaunchKernelEx's C++ form: the arguments as values, converted to the kernel's parameter
// types. Cluster dimensions other than 1x1x1 stop the program (clusters are not simulated); the
// other attributes change nothing when every launch runs in issue order.
#pragma push_macro("gridDim")
#pragma push_macro("blockDim")
#undef gridDim
#undef blockDim
template <class... Params, class... Args>
cudaError_t cudaLaunchKernelEx(::warpsim::shim::ConfigAt at, void (*kernel)(Params...),
                               Args&&... args) {
  const cudaLaunchConfig_t* config = at.config;
  if (config == nullptr) return cudaErrorInvalidValue;
  if (kernel == nullptr) return cudaErrorInvalidDeviceFunction;
  static_assert(sizeof...(Params) == sizeof...(Args),
                "cudaLaunchKernelEx: the kernel takes a different number of arguments");
  bool cooperative = false;
  for (unsigned i = 0; i < config->numAttrs && config->attrs != nullptr; ++i) {
    const cudaLaunchAttribute& attribute = config->attrs[i];
    if (attribute.id == cudaLaunchAttributeCooperative) cooperative = attribute.val.cooperative != 0;
    if ((attribute.id == cudaLaunchAttributeClusterDimension ||
         attribute.id == cudaLaunchAttributePreferredClusterDimension) &&
        attribute.val.clusterDim.x * attribute.val.clusterDim.y * attribute.val.clusterDim.z > 1) {
      warpsim_not_simulated_at("a thread block cluster", "cudaLaunchKernelEx", at.file, at.line);
    }
  }
  if (cooperative && !::warpsim::shim::cooperative_grid_fits(config->gridDim, config->blockDim,
                                                             config->dynamicSmemBytes)) {
    return cudaErrorCooperativeLaunchTooLarge;
  }
  return static_cast<cudaError_t>(::warpsim::shim::launch_kernel(
      ::warpsim::shim::kernel_name_or(kernel, "cudaLaunchKernelEx"), at.file, at.line,
      ::warpsim::shim::runtime_launch_config(config->gridDim, config->blockDim,
                                             config->dynamicSmemBytes, config->stream, cooperative),
      [kernel](auto&&... a) { kernel(a...); })(static_cast<Params>(std::forward<Args>(args))...));
}
#pragma pop_macro("gridDim")
#pragma pop_macro("blockDim")

// The C forms take the kernel as `const void*`: its parameter types are lost, and the simulator
// cannot call it. Each stops the program where it is called.
// Stream attributes are hints to the GPU's caches and scheduler (an L2 access-policy window, a
// priority): they change no result, so they are kept as given and do nothing.
inline cudaError_t cudaStreamSetAttribute(cudaStream_t, cudaStreamAttrID,
                                          const cudaStreamAttrValue* value) {
  return value == nullptr ? cudaErrorInvalidValue : cudaSuccess;
}
inline cudaError_t cudaStreamGetAttribute(cudaStream_t, cudaStreamAttrID,
                                          cudaStreamAttrValue* value) {
  if (value == nullptr) return cudaErrorInvalidValue;
  *value = cudaStreamAttrValue{};
  return cudaSuccess;
}
inline cudaError_t cudaCtxResetPersistingL2Cache() { return cudaSuccess; }

// A kernel as `const void*`: found again among the kernels the program defines
// (warpsim/kernel_addresses.hpp); one warpsim did not see defined stops the program there.
namespace warpsim::shim {
inline cudaError_t launch_registered(const RegisteredKernel& found, const void* kernel, dim3 grid,
                                     dim3 block, void** args, std::size_t shared,
                                     cudaStream_t stream, const char* file, unsigned line,
                                     bool cooperative = false) {
  const auto work =
      found.bind(kernel, found.name, grid, block, shared, cooperative, args, file, line);
  return work ? static_cast<cudaError_t>(work(stream)) : cudaErrorInvalidValue;
}
inline constexpr const char* kUnregisteredLaunch =
    "a launch of a kernel cast to void* that warpsim did not see defined (a template's "
    "instantiation: pass the kernel itself)";
}  // namespace warpsim::shim
inline cudaError_t cudaLaunchKernel(const void* kernel, dim3 grid, dim3 block, void** args,
                                    std::size_t shared = 0, cudaStream_t stream = nullptr,
                                    const char* file = __builtin_FILE(),
                                    unsigned line = __builtin_LINE()) {
  if (kernel == nullptr) return cudaErrorInvalidDeviceFunction;
  const auto& found = ::warpsim::shim::registered_kernel_at(
      kernel, ::warpsim::shim::kUnregisteredLaunch, "cudaLaunchKernel", file, line);
  return ::warpsim::shim::launch_registered(found, kernel, grid, block, args, shared, stream, file,
                                            line);
}
inline cudaError_t cudaLaunchCooperativeKernel(const void* kernel, dim3 grid, dim3 block,
                                               void** args, std::size_t shared = 0,
                                               cudaStream_t stream = nullptr,
                                               const char* file = __builtin_FILE(),
                                               unsigned line = __builtin_LINE()) {
  if (kernel == nullptr) return cudaErrorInvalidDeviceFunction;
  const auto& found = ::warpsim::shim::registered_kernel_at(
      kernel, ::warpsim::shim::kUnregisteredLaunch, "cudaLaunchCooperativeKernel", file, line);
  if (!::warpsim::shim::cooperative_grid_fits(grid, block, shared))
    return cudaErrorCooperativeLaunchTooLarge;
  return ::warpsim::shim::launch_registered(found, kernel, grid, block, args, shared, stream, file,
                                            line, true);
}
extern "C" cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* kernel,
                                           void** args);

// Programmatic dependent launch: launches run in issue order, each complete before the next
// begins, so the dependency always holds.
inline void cudaGridDependencySynchronize() {}
inline void cudaTriggerProgrammaticLaunchCompletion() {}

// ---- attributes and occupancy

template <class Kernel>
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, Kernel* kernel) {
  if (attributes == nullptr) return cudaErrorInvalidValue;
  if (kernel == nullptr) return cudaErrorInvalidDeviceFunction;
  *attributes = cudaFuncAttributes{};
  attributes->maxThreadsPerBlock = ::warpsim::shim::kAssumedMaxThreadsPerBlock;
  attributes->numRegs = ::warpsim::shim::kAssumedRegistersPerThread;
  attributes->ptxVersion = __CUDA_ARCH__ / 10;
  attributes->binaryVersion = __CUDA_ARCH__ / 10;
  attributes->maxDynamicSharedSizeBytes = 48 * 1024;
  attributes->preferredShmemCarveout = -1;
  return cudaSuccess;
}
template <class Kernel>
cudaError_t cudaFuncSetCacheConfig(Kernel*, cudaFuncCache) {
  return cudaSuccess;
}
template <class Kernel>
cudaError_t cudaFuncSetSharedMemConfig(Kernel*, cudaSharedMemConfig) {
  return cudaSuccess;
}

template <class Kernel>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, Kernel kernel,
                                                          int block_size,
                                                          std::size_t dynamic_shared) {
  if (blocks == nullptr) return cudaErrorInvalidValue;
  if (kernel == nullptr) return cudaErrorInvalidDeviceFunction;
  *blocks = ::warpsim::shim::occupancy_blocks_per_sm(block_size, dynamic_shared);
  return cudaSuccess;
}
template <class Kernel>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, Kernel kernel,
                                                                   int block_size,
                                                                   std::size_t dynamic_shared,
                                                                   unsigned) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, kernel, block_size, dynamic_shared);
}
template <class UnaryFunction, class Kernel>
cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(int* min_grid_size, int* block_size,
                                                           Kernel kernel,
                                                           UnaryFunction shared_of,
                                                           int block_size_limit = 0) {
  if (min_grid_size == nullptr || block_size == nullptr) return cudaErrorInvalidValue;
  if (kernel == nullptr) return cudaErrorInvalidDeviceFunction;
  const auto [size, blocks] = ::warpsim::shim::best_block_size(shared_of, block_size_limit);
  bool known = false;
  *block_size = size;
  *min_grid_size = blocks * warpsim_device_attribute(cudaDevAttrMultiProcessorCount, known);
  return cudaSuccess;
}
template <class UnaryFunction, class Kernel>
cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
    int* min_grid_size, int* block_size, Kernel kernel, UnaryFunction shared_of,
    int block_size_limit = 0, unsigned = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMem(min_grid_size, block_size, kernel,
                                                        shared_of, block_size_limit);
}
template <class Kernel>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid_size, int* block_size, Kernel kernel,
                                               std::size_t dynamic_shared = 0,
                                               int block_size_limit = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMem(
      min_grid_size, block_size, kernel, [dynamic_shared](int) { return dynamic_shared; },
      block_size_limit);
}
template <class Kernel>
cudaError_t cudaOccupancyMaxPotentialBlockSizeWithFlags(int* min_grid_size, int* block_size,
                                                        Kernel kernel,
                                                        std::size_t dynamic_shared = 0,
                                                        int block_size_limit = 0, unsigned = 0) {
  return cudaOccupancyMaxPotentialBlockSize(min_grid_size, block_size, kernel, dynamic_shared,
                                            block_size_limit);
}
// Thread-block clusters are not simulated: the simulated device's largest cluster is one block,
// and no cluster of several is active (code that asks, as flashinfer's launchers do, then takes
// its one-block path).
template <class Kernel>
cudaError_t cudaOccupancyMaxPotentialClusterSize(int* cluster_size, Kernel kernel,
                                                 const cudaLaunchConfig_t* config) {
  if (cluster_size == nullptr || config == nullptr) return cudaErrorInvalidValue;
  if (kernel == nullptr) return cudaErrorInvalidDeviceFunction;
  *cluster_size = 1;
  return cudaSuccess;
}
template <class Kernel>
cudaError_t cudaOccupancyMaxActiveClusters(int* clusters, Kernel kernel,
                                           const cudaLaunchConfig_t* config) {
  if (clusters == nullptr || config == nullptr) return cudaErrorInvalidValue;
  if (kernel == nullptr) return cudaErrorInvalidDeviceFunction;
  *clusters = 0;
  return cudaSuccess;
}
template <class Kernel>
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(std::size_t* bytes, Kernel kernel,
                                                      int blocks, int block_size) {
  if (bytes == nullptr) return cudaErrorInvalidValue;
  if (kernel == nullptr) return cudaErrorInvalidDeviceFunction;
  if (blocks <= 0 || ::warpsim::shim::occupancy_blocks_per_sm(block_size, 0) < blocks) {
    *bytes = 0;
    return cudaSuccess;
  }
  bool known = false;
  const std::size_t per_sm = static_cast<std::size_t>(
      warpsim_device_attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor, known));
  const std::size_t reserved = static_cast<std::size_t>(
      warpsim_device_attribute(cudaDevAttrReservedSharedMemoryPerBlock, known));
  const std::size_t optin = static_cast<std::size_t>(
      warpsim_device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, known));
  *bytes = std::min(optin, (per_sm / static_cast<std::size_t>(blocks) - reserved) / 128 * 128);
  return cudaSuccess;
}
