// The CUDA driver API, loaded at run time. Binaries that link warpsim::gpu never depend on
// libcuda: the first call here dlopen()s libcuda.so.1 and resolves the few functions used.
// Without a driver or a device, every entry point returns a Error of kind no_device whose
// message starts "no CUDA device: " and says why, in one line.
//
//   auto gpu = Gpu::open();                       // primary context of device 0
//   if (!gpu) return fail(gpu.error());
//   auto buffer = gpu->allocate(1024);            // freed when `buffer` goes
//   buffer->upload(std::as_bytes(std::span(host)));
//   LaunchShape shape;
//   shape.grid_x = 8;
//   shape.block_x = 32;
//   gpu->launch(kernel, shape, args);
//   gpu->synchronize(std::chrono::seconds(60));   // fails instead of hanging forever
//
// All objects share the device context: it is released once the Gpu and every buffer, module
// and kernel made from it are gone. Each call makes the context current for its own duration
// (push/pop), so these objects may be used from any thread, one call at a time.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "warpsim/expected.hpp"

namespace warpsim::gpu {

struct DeviceInfo {
  int ordinal = 0;
  std::string name;         // e.g. "NVIDIA H100 80GB HBM3"
  int sm = 0;               // compute capability major*10 + minor, e.g. 90
  int driver_version = 0;   // cuDriverGetVersion, e.g. 13000 for CUDA 13.0
  int multiprocessors = 0;
};

// Loads the driver, initialises it and describes device `ordinal`.
Expected<DeviceInfo> probe_device(int ordinal = 0);

using DevicePtr = std::uint64_t;  // CUdeviceptr

namespace detail {
struct Session;      // driver function table + retained primary context
struct ModuleState;  // a loaded module
}  // namespace detail

// Device memory, freed on destruction.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer();

  DevicePtr address() const { return address_; }
  std::size_t size() const { return size_; }

  // Copies host bytes to [offset, offset + bytes.size()) of this buffer; fails when out of range.
  Expected<void> upload(std::span<const std::byte> bytes, std::size_t offset = 0);
  // Copies [offset, offset + bytes.size()) of this buffer to host memory.
  Expected<void> download(std::span<std::byte> bytes, std::size_t offset = 0) const;

 private:
  friend class Gpu;
  void release();
  std::shared_ptr<detail::Session> session_;
  DevicePtr address_ = 0;
  std::size_t size_ = 0;
};

// A __global__ function of a loaded module (keeps the module loaded).
class Kernel {
 public:
  const std::string& name() const { return name_; }

 private:
  friend class Module;
  friend class Gpu;
  std::shared_ptr<detail::ModuleState> module_;
  void* function_ = nullptr;  // CUfunction
  std::string name_;
};

// A __device__ variable of a loaded module.
struct DeviceGlobal {
  DevicePtr address = 0;
  std::size_t size = 0;
};

// A loaded cubin/PTX/fatbin image, unloaded once it and its kernels are gone.
class Module {
 public:
  Expected<Kernel> kernel(const std::string& name) const;  // extern "C" or lowered name
  Expected<DeviceGlobal> global(const std::string& name) const;

 private:
  friend class Gpu;
  std::shared_ptr<detail::ModuleState> state_;
};

struct LaunchShape {
  unsigned grid_x = 1, grid_y = 1, grid_z = 1;
  unsigned block_x = 1, block_y = 1, block_z = 1;
  unsigned shared_bytes = 0;  // dynamic shared memory
};

// One device with its primary context retained.
class Gpu {
 public:
  static Expected<Gpu> open(int ordinal = 0);

  const DeviceInfo& device() const;

  Expected<DeviceBuffer> allocate(std::size_t bytes);
  Expected<Module> load_module(std::span<const char> image);
  // Copies to / from a __device__ variable of a loaded module; the sizes must match exactly.
  Expected<void> write_global(const DeviceGlobal& global, std::span<const std::byte> bytes);
  Expected<void> read_global(const DeviceGlobal& global, std::span<std::byte> bytes);
  // `args` holds one pointer per kernel parameter, pointing at the parameter's value.
  Expected<void> launch(const Kernel& kernel, const LaunchShape& shape, std::span<void*> args);
  // Lets `kernel` launch with `bytes` of dynamic shared memory (above 48 KiB needs this opt-in);
  // invalid_argument, naming the limits, when the kernel's static plus `bytes` exceed the device's.
  Expected<void> allow_dynamic_shared(const Kernel& kernel, std::size_t bytes);
  // The size in bytes of each of the kernel's parameters, in order (cuFuncGetParamInfo); nullopt
  // when the driver is older than CUDA 12.4 and cannot say.
  Expected<std::optional<std::vector<std::size_t>>> parameter_sizes(const Kernel& kernel);
  // Waits for all launched work. Past `timeout` (a deadlocked warp never finishes) the context
  // is abandoned: later calls fail and nothing is freed, since the device is still busy.
  Expected<void> synchronize(std::chrono::milliseconds timeout);

 private:
  std::shared_ptr<detail::Session> session_;
};

}  // namespace warpsim::gpu
