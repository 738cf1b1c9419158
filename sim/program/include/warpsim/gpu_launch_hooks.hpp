// The GPU side of `warpsim exec --gpu`: compiled by nvcc (never by warpsim's own build) into the
// user's program, whose launches warpsim rewrote (rewrite_launches, LaunchTarget::gpu_recorder)
// into
//   ::warpsim::gpu_hooks::launch_kernel("k", __FILE__, __LINE__,
//       ::warpsim::gpu_hooks::launch_shape(grid, block[, shared[, stream]]),
//       [&](const ::warpsim::gpu_hooks::LaunchShape& s, auto&&... a) {
//         k<<<s.grid, s.block, s.shared_bytes, s.stream>>>(a...); })(args...)
// The launch is the program's own (its configuration evaluated once, as written); when
// kLaunchBuffersDirEnv names a folder, the device is then synchronised and every pointer
// argument's allocation (cuMemGetAddressRange) is copied back and recorded
// (warpsim/launch_buffers.hpp), as the simulated program records its own.
//
// A launch made while its stream captures a graph (cudaStreamBeginCapture) does not run then,
// and synchronising the device during a capture is an error that invalidates it: such a launch
// is recorded as one inside a graph (a G line), with no synchronising call and no buffers. The
// graph's runs (cudaGraphLaunch) and kernels launched without <<<>>> (cudaLaunchKernel, kernel
// nodes) are not seen here at all.
//
// A launch written in kernel code (dynamic parallelism, nvcc -rdc=true) is rewritten the same
// way; on the device the hook (launch_kernel, launch_shape, the call) only makes the launch, as
// written, and records nothing: the host records only its own launches.
//
// The synchronisation after each launch serialises streams; a correct program's results do not
// change, but its event timings do.
#pragma once

#if !defined(__CUDACC__)
#error "warpsim/gpu_launch_hooks.hpp is for nvcc builds of a program (warpsim exec --gpu)"
#endif

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "warpsim/launch_buffers.hpp"

namespace warpsim::launch_buffers {
template <>
struct element_name_of<__half, void> {
  static constexpr const char* value = "f16";
};
template <>
struct element_name_of<__nv_bfloat16, void> {
  static constexpr const char* value = "bf16";
};
}  // namespace warpsim::launch_buffers

namespace warpsim::gpu_hooks {

// cuMemGetAddressRange through the runtime (no -lcuda): the allocation holding a device address.
// Its types spelled here, not from <cuda.h>: a program's own -I folders may hold a cuda.h of its
// own (Rodinia's b+tree has util/cuda/cuda.h) that `#include <cuda.h>` would find first.
// CUresult is an enum (an int; CUDA_SUCCESS is 0), CUdeviceptr an unsigned long long.
inline launch_buffers::Extent allocation_holding(const void* pointer) {
  using DevicePointer = unsigned long long;
  using AddressRange = int (*)(DevicePointer*, std::size_t*, DevicePointer);
  constexpr int kSuccess = 0;
  static const AddressRange address_range = [] {
    void* function = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &function, 12000,
                                         cudaEnableDefault, &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
      function = nullptr;
    }
    return reinterpret_cast<AddressRange>(function);
  }();
  launch_buffers::Extent extent;
  DevicePointer base = 0;
  std::size_t bytes = 0;
  if (address_range != nullptr &&
      address_range(&base, &bytes, reinterpret_cast<DevicePointer>(pointer)) == kSuccess) {
    extent.found = true;
    extent.base = reinterpret_cast<const void*>(base);
    extent.bytes = bytes;
  }
  return extent;
}

inline std::uint64_t& launches_made() {
  static std::uint64_t count = 0;
  return count;
}

// A launch's configuration, as <<<grid, block, shared, stream>>> takes it.
struct LaunchShape {
  dim3 grid;
  dim3 block;
  std::size_t shared_bytes;
  cudaStream_t stream;
};
// Host and device code: a launch written in kernel code (dynamic parallelism) is wrapped too.
__host__ __device__ inline LaunchShape launch_shape(dim3 grid, dim3 block,
                                                    std::size_t shared_bytes = 0,
                                                    cudaStream_t stream = 0) {
  return {grid, block, shared_bytes, stream};
}

// Whether work issued to `stream` now is captured into a graph rather than run. A stream whose
// capture an error invalidated counts as capturing (its work does not run either). When the
// query itself fails, false: the launch is handled as before captures were known.
inline bool stream_is_capturing(cudaStream_t stream) {
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  return cudaStreamIsCapturing(stream, &capture) == cudaSuccess &&
         capture != cudaStreamCaptureStatusNone;
}

template <class Call>
struct KernelLaunch {
  const char* kernel;
  const char* file;
  unsigned line;
  LaunchShape shape;
  Call call;

  // A launch in kernel code (dynamic parallelism) is made as written: the device has no
  // recorder, and the host records only its own launches. A host launch's call is a host lambda
  // that the device branch never calls; without the pragma nvcc warns of it (#20013-D, its
  // operator() being constexpr) at every host launch.
#if defined(__NVCC__)
#pragma nv_exec_check_disable
#endif
  template <class... Args>
  __host__ __device__ void operator()(Args&&... args) {
#if defined(__CUDA_ARCH__)
    call(shape, static_cast<Args&&>(args)...);
#else
    host_launch(static_cast<Args&&>(args)...);
#endif
  }

  template <class... Args>
  void host_launch(Args&&... args) {
    // The arguments are evaluated once, here, and passed on as the kernel's parameters.
    std::tuple<std::decay_t<Args>...> values(std::forward<Args>(args)...);
    const std::uint64_t index = launches_made()++;
    std::apply([this](auto&... v) { call(shape, v...); }, values);
    launch_buffers::Recorder& recorder = launch_buffers::Recorder::instance();
    if (!recorder.enabled()) return;
    // Peek: the program's own cudaGetLastError still sees the launch's error.
    cudaError_t status = cudaPeekAtLastError();
    if (status == cudaSuccess && stream_is_capturing(shape.stream)) {
      // Captured: it runs when its graph is launched. No synchronising call (it would end the
      // capture with an error), no buffers.
      recorder.launch(index, kernel, 0, launch_buffers::LaunchKind::in_graph);
      return;
    }
    if (status == cudaSuccess) status = cudaDeviceSynchronize();
    recorder.launch(index, kernel, static_cast<int>(status));
    if (status != cudaSuccess) return;
    recorder.pointer_args(index, values, allocation_holding,
                          [](void* host, const void* base, std::size_t bytes) {
                            return cudaMemcpy(host, base, bytes, cudaMemcpyDefault) == cudaSuccess;
                          });
  }
};

template <class Call>
__host__ __device__ KernelLaunch<Call> launch_kernel(const char* kernel, const char* file,
                                                     unsigned line, LaunchShape shape,
                                                     Call call) {
  return {kernel, file, line, shape, static_cast<Call&&>(call)};
}

}  // namespace warpsim::gpu_hooks
