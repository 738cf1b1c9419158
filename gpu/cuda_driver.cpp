// The driver API through dlopen. cuda.h supplies types and prototypes only: nothing here links
// against libcuda, so a binary built with the toolkit still starts on a machine without a driver.
//
// Symbol names: cuda.h maps several API names to versioned entry points with macros (CUDA 13:
// cuMemAlloc -> cuMemAlloc_v2, cuCtxCreate -> cuCtxCreate_v4, ...). dlsym needs the exported
// name, so the table below spells every versioned name out and takes its type from the same
// versioned declaration. Contexts: the device's primary context (retain/release) rather than
// cuCtxCreate_v4, which exists only in drivers from CUDA 12.5 on and would not share state with
// the runtime API if a program also used it.
#include "cuda_driver.hpp"

#include <cuda.h>
#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <thread>
#include <type_traits>
#include <utility>

namespace warpsim::gpu {

static_assert(sizeof(DevicePtr) == sizeof(CUdeviceptr));

namespace {

constexpr const char* kDriverLibrary = "libcuda.so.1";

struct DriverApi {
  decltype(&::cuInit) init = nullptr;
  decltype(&::cuDriverGetVersion) driver_get_version = nullptr;
  decltype(&::cuGetErrorName) get_error_name = nullptr;
  decltype(&::cuGetErrorString) get_error_string = nullptr;
  decltype(&::cuDeviceGetCount) device_get_count = nullptr;
  decltype(&::cuDeviceGet) device_get = nullptr;
  decltype(&::cuDeviceGetName) device_get_name = nullptr;
  decltype(&::cuDeviceGetAttribute) device_get_attribute = nullptr;
  decltype(&::cuDevicePrimaryCtxRetain) primary_ctx_retain = nullptr;
  decltype(&::cuDevicePrimaryCtxRelease_v2) primary_ctx_release = nullptr;
  decltype(&::cuCtxPushCurrent_v2) ctx_push_current = nullptr;
  decltype(&::cuCtxPopCurrent_v2) ctx_pop_current = nullptr;
  decltype(&::cuCtxSynchronize) ctx_synchronize = nullptr;
  decltype(&::cuStreamQuery) stream_query = nullptr;
  decltype(&::cuModuleLoadData) module_load_data = nullptr;
  decltype(&::cuModuleUnload) module_unload = nullptr;
  decltype(&::cuModuleGetFunction) module_get_function = nullptr;
  decltype(&::cuModuleGetGlobal_v2) module_get_global = nullptr;
  decltype(&::cuMemAlloc_v2) mem_alloc = nullptr;
  decltype(&::cuMemFree_v2) mem_free = nullptr;
  decltype(&::cuMemcpyHtoD_v2) memcpy_htod = nullptr;
  decltype(&::cuMemcpyDtoH_v2) memcpy_dtoh = nullptr;
  decltype(&::cuLaunchKernel) launch_kernel = nullptr;
  decltype(&::cuFuncGetAttribute) func_get_attribute = nullptr;
  decltype(&::cuFuncSetAttribute) func_set_attribute = nullptr;
  decltype(&::cuFuncGetParamInfo) func_get_param_info = nullptr;  // optional: drivers from CUDA 12.4 on
};

Error no_device(std::string why) {
  return Error{ErrorKind::no_device, "no CUDA device: " + std::move(why), {}};
}

// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)"
std::string describe(const DriverApi& api, CUresult result) {
  const char* name = nullptr;
  const char* text = nullptr;
  if (api.get_error_name == nullptr || api.get_error_name(result, &name) != CUDA_SUCCESS || name == nullptr) {
    return "CUresult " + std::to_string(static_cast<int>(result));
  }
  std::string out = name;
  if (api.get_error_string != nullptr && api.get_error_string(result, &text) == CUDA_SUCCESS && text != nullptr) {
    out += " (";
    out += text;
    out += ")";
  }
  return out;
}

Error driver_error(const DriverApi& api, CUresult result, const std::string& call) {
  return Error{ErrorKind::driver, "CUDA driver: " + call + " failed: " + describe(api, result), {}};
}

template <class Fn>
bool resolve(void* library, const char* symbol, Fn& out) {
  static_assert(std::is_pointer_v<Fn> && sizeof(Fn) == sizeof(void*));
  void* address = dlsym(library, symbol);
  if (address == nullptr) return false;
  std::memcpy(&out, &address, sizeof out);  // object pointer -> function pointer, as POSIX allows
  return true;
}

// Opens libcuda.so.1 and calls cuInit. The library is never dlclose()d: the driver keeps
// process-wide threads and exit handlers, and unloading it under them is unsafe. dlopen of an
// already loaded library only bumps a reference count, so calling this repeatedly is cheap.
Expected<DriverApi> load_driver() {
  dlerror();
  void* library = dlopen(kDriverLibrary, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* reason = dlerror();
    std::string why = reason != nullptr ? reason : "";
    if (why.empty() || why.find("No such file") != std::string::npos) {
      return no_device("libcuda.so.1 not found (this machine has no NVIDIA driver)");
    }
    std::replace(why.begin(), why.end(), '\n', ' ');
    return no_device("cannot load libcuda.so.1: " + why);
  }

  DriverApi api;
  const std::pair<const char*, bool> symbols[] = {
      {"cuInit", resolve(library, "cuInit", api.init)},
      {"cuDriverGetVersion", resolve(library, "cuDriverGetVersion", api.driver_get_version)},
      {"cuGetErrorName", resolve(library, "cuGetErrorName", api.get_error_name)},
      {"cuGetErrorString", resolve(library, "cuGetErrorString", api.get_error_string)},
      {"cuDeviceGetCount", resolve(library, "cuDeviceGetCount", api.device_get_count)},
      {"cuDeviceGet", resolve(library, "cuDeviceGet", api.device_get)},
      {"cuDeviceGetName", resolve(library, "cuDeviceGetName", api.device_get_name)},
      {"cuDeviceGetAttribute", resolve(library, "cuDeviceGetAttribute", api.device_get_attribute)},
      {"cuDevicePrimaryCtxRetain", resolve(library, "cuDevicePrimaryCtxRetain", api.primary_ctx_retain)},
      {"cuDevicePrimaryCtxRelease_v2", resolve(library, "cuDevicePrimaryCtxRelease_v2", api.primary_ctx_release)},
      {"cuCtxPushCurrent_v2", resolve(library, "cuCtxPushCurrent_v2", api.ctx_push_current)},
      {"cuCtxPopCurrent_v2", resolve(library, "cuCtxPopCurrent_v2", api.ctx_pop_current)},
      {"cuCtxSynchronize", resolve(library, "cuCtxSynchronize", api.ctx_synchronize)},
      {"cuStreamQuery", resolve(library, "cuStreamQuery", api.stream_query)},
      {"cuModuleLoadData", resolve(library, "cuModuleLoadData", api.module_load_data)},
      {"cuModuleUnload", resolve(library, "cuModuleUnload", api.module_unload)},
      {"cuModuleGetFunction", resolve(library, "cuModuleGetFunction", api.module_get_function)},
      {"cuModuleGetGlobal_v2", resolve(library, "cuModuleGetGlobal_v2", api.module_get_global)},
      {"cuMemAlloc_v2", resolve(library, "cuMemAlloc_v2", api.mem_alloc)},
      {"cuMemFree_v2", resolve(library, "cuMemFree_v2", api.mem_free)},
      {"cuMemcpyHtoD_v2", resolve(library, "cuMemcpyHtoD_v2", api.memcpy_htod)},
      {"cuMemcpyDtoH_v2", resolve(library, "cuMemcpyDtoH_v2", api.memcpy_dtoh)},
      {"cuLaunchKernel", resolve(library, "cuLaunchKernel", api.launch_kernel)},
      {"cuFuncGetAttribute", resolve(library, "cuFuncGetAttribute", api.func_get_attribute)},
      {"cuFuncSetAttribute", resolve(library, "cuFuncSetAttribute", api.func_set_attribute)},
  };
  for (const auto& [symbol, found] : symbols) {
    if (!found) return no_device(std::string("libcuda.so.1 has no ") + symbol + " (the NVIDIA driver is too old)");
  }
  resolve(library, "cuFuncGetParamInfo", api.func_get_param_info);  // absent before CUDA 12.4: checks skipped

  const CUresult init = api.init(0);
  if (init != CUDA_SUCCESS) return no_device("cuInit failed: " + describe(api, init));
  return api;
}

Expected<DeviceInfo> describe_device(const DriverApi& api, int ordinal, CUdevice& device) {
  int count = 0;
  if (const CUresult r = api.device_get_count(&count); r != CUDA_SUCCESS) {
    return no_device("cuDeviceGetCount failed: " + describe(api, r));
  }
  if (count == 0) return no_device("the NVIDIA driver reports no devices");
  if (ordinal < 0 || ordinal >= count) {
    return no_device("device " + std::to_string(ordinal) + " asked for, but only " + std::to_string(count) +
                     (count == 1 ? " is" : " are") + " present");
  }
  if (const CUresult r = api.device_get(&device, ordinal); r != CUDA_SUCCESS) {
    return driver_error(api, r, "cuDeviceGet(" + std::to_string(ordinal) + ")");
  }

  DeviceInfo info;
  info.ordinal = ordinal;
  std::array<char, 256> name{};
  if (const CUresult r = api.device_get_name(name.data(), static_cast<int>(name.size()), device); r != CUDA_SUCCESS) {
    return driver_error(api, r, "cuDeviceGetName");
  }
  info.name = name.data();

  int major = 0, minor = 0;
  const std::pair<CUdevice_attribute, int*> attributes[] = {
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &major},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &minor},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &info.multiprocessors},
  };
  for (const auto& [attribute, out] : attributes) {
    if (const CUresult r = api.device_get_attribute(out, attribute, device); r != CUDA_SUCCESS) {
      return driver_error(api, r, "cuDeviceGetAttribute(" + std::to_string(static_cast<int>(attribute)) + ")");
    }
  }
  info.sm = major * 10 + minor;
  if (const CUresult r = api.driver_get_version(&info.driver_version); r != CUDA_SUCCESS) {
    return driver_error(api, r, "cuDriverGetVersion");
  }
  return info;
}

}  // namespace

namespace detail {

struct Session {
  DriverApi api;
  DeviceInfo info;
  CUdevice device = 0;
  CUcontext context = nullptr;
  bool abandoned = false;  // set after a synchronize timeout: the device is still busy

  Session() = default;
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  ~Session() {
    if (context != nullptr && !abandoned) api.primary_ctx_release(device);
  }
};

struct ModuleState {
  std::shared_ptr<Session> session;
  CUmodule module = nullptr;

  ModuleState() = default;
  ModuleState(const ModuleState&) = delete;
  ModuleState& operator=(const ModuleState&) = delete;
  ~ModuleState();
};

}  // namespace detail

namespace {

// Makes the session's context current on this thread for one call.
class ContextScope {
 public:
  explicit ContextScope(detail::Session& session) : session_(session) {
    if (session.abandoned) return;
    status_ = session.api.ctx_push_current(session.context);
    pushed_ = status_ == CUDA_SUCCESS;
  }
  ContextScope(const ContextScope&) = delete;
  ContextScope& operator=(const ContextScope&) = delete;
  ~ContextScope() {
    if (pushed_) {
      CUcontext popped = nullptr;
      session_.api.ctx_pop_current(&popped);
    }
  }

  // Success when the context is current and usable.
  Expected<void> check() const {
    if (session_.abandoned) {
      return Error{ErrorKind::driver, "CUDA driver: the context was abandoned after an earlier timeout", {}};
    }
    if (!pushed_) return driver_error(session_.api, status_, "cuCtxPushCurrent");
    return {};
  }

 private:
  detail::Session& session_;
  CUresult status_ = CUDA_ERROR_NOT_INITIALIZED;
  bool pushed_ = false;
};

}  // namespace

detail::ModuleState::~ModuleState() {
  if (module == nullptr || session == nullptr || session->abandoned) return;
  ContextScope scope(*session);
  if (scope.check()) session->api.module_unload(module);
}

Expected<DeviceInfo> probe_device(int ordinal) {
  auto api = load_driver();
  if (!api) return api.error();
  CUdevice device = 0;
  return describe_device(*api, ordinal, device);
}

// ---- DeviceBuffer ----

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : session_(std::move(other.session_)),
      address_(std::exchange(other.address_, 0)),
      size_(std::exchange(other.size_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  if (this != &other) {
    release();
    session_ = std::move(other.session_);
    address_ = std::exchange(other.address_, 0);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

DeviceBuffer::~DeviceBuffer() { release(); }

void DeviceBuffer::release() {
  if (session_ != nullptr && address_ != 0 && !session_->abandoned) {
    ContextScope scope(*session_);
    if (scope.check()) session_->api.mem_free(address_);
  }
  session_.reset();
  address_ = 0;
  size_ = 0;
}

namespace {

Expected<void> check_range(std::size_t buffer_size, std::size_t offset, std::size_t bytes, const char* what) {
  if (offset > buffer_size || bytes > buffer_size - offset) {
    return Error{ErrorKind::bad_input,
                    std::string(what) + " of " + std::to_string(bytes) + " bytes at offset " + std::to_string(offset) +
                        " overruns a device buffer of " + std::to_string(buffer_size) + " bytes",
                    {}};
  }
  return {};
}

}  // namespace

Expected<void> DeviceBuffer::upload(std::span<const std::byte> bytes, std::size_t offset) {
  if (auto range = check_range(size_, offset, bytes.size(), "upload"); !range) return range;
  if (bytes.empty()) return {};
  ContextScope scope(*session_);
  if (auto current = scope.check(); !current) return current;
  const CUresult r = session_->api.memcpy_htod(address_ + offset, bytes.data(), bytes.size());
  if (r != CUDA_SUCCESS) return driver_error(session_->api, r, "cuMemcpyHtoD(" + std::to_string(bytes.size()) + " bytes)");
  return {};
}

Expected<void> DeviceBuffer::download(std::span<std::byte> bytes, std::size_t offset) const {
  if (auto range = check_range(size_, offset, bytes.size(), "download"); !range) return range;
  if (bytes.empty()) return {};
  ContextScope scope(*session_);
  if (auto current = scope.check(); !current) return current;
  const CUresult r = session_->api.memcpy_dtoh(bytes.data(), address_ + offset, bytes.size());
  if (r != CUDA_SUCCESS) return driver_error(session_->api, r, "cuMemcpyDtoH(" + std::to_string(bytes.size()) + " bytes)");
  return {};
}

// ---- Module ----

Expected<Kernel> Module::kernel(const std::string& name) const {
  detail::Session& session = *state_->session;
  ContextScope scope(session);
  if (auto current = scope.check(); !current) return current.error();
  CUfunction function = nullptr;
  const CUresult r = session.api.module_get_function(&function, state_->module, name.c_str());
  if (r != CUDA_SUCCESS) return driver_error(session.api, r, "cuModuleGetFunction(\"" + name + "\")");
  Kernel kernel;
  kernel.module_ = state_;
  kernel.function_ = function;
  kernel.name_ = name;
  return kernel;
}

Expected<DeviceGlobal> Module::global(const std::string& name) const {
  detail::Session& session = *state_->session;
  ContextScope scope(session);
  if (auto current = scope.check(); !current) return current.error();
  CUdeviceptr address = 0;
  std::size_t size = 0;
  const CUresult r = session.api.module_get_global(&address, &size, state_->module, name.c_str());
  if (r != CUDA_SUCCESS) return driver_error(session.api, r, "cuModuleGetGlobal(\"" + name + "\")");
  return DeviceGlobal{address, size};
}

// ---- Gpu ----

Expected<Gpu> Gpu::open(int ordinal) {
  auto api = load_driver();
  if (!api) return api.error();
  auto session = std::make_shared<detail::Session>();
  session->api = *api;
  auto info = describe_device(session->api, ordinal, session->device);
  if (!info) return info.error();
  session->info = std::move(*info);
  if (const CUresult r = session->api.primary_ctx_retain(&session->context, session->device); r != CUDA_SUCCESS) {
    session->context = nullptr;
    return driver_error(session->api, r, "cuDevicePrimaryCtxRetain(device " + std::to_string(ordinal) + ")");
  }
  Gpu gpu;
  gpu.session_ = std::move(session);
  return gpu;
}

const DeviceInfo& Gpu::device() const { return session_->info; }

Expected<DeviceBuffer> Gpu::allocate(std::size_t bytes) {
  DeviceBuffer buffer;
  buffer.session_ = session_;
  if (bytes == 0) return buffer;
  ContextScope scope(*session_);
  if (auto current = scope.check(); !current) return current.error();
  CUdeviceptr address = 0;
  const CUresult r = session_->api.mem_alloc(&address, bytes);
  if (r != CUDA_SUCCESS) return driver_error(session_->api, r, "cuMemAlloc(" + std::to_string(bytes) + " bytes)");
  buffer.address_ = address;
  buffer.size_ = bytes;
  return buffer;
}

Expected<Module> Gpu::load_module(std::span<const char> image) {
  if (image.empty()) return Error{ErrorKind::bad_input, "cannot load an empty module image", {}};
  ContextScope scope(*session_);
  if (auto current = scope.check(); !current) return current.error();
  auto state = std::make_shared<detail::ModuleState>();
  state->session = session_;
  const CUresult r = session_->api.module_load_data(&state->module, image.data());
  if (r != CUDA_SUCCESS) {
    state->module = nullptr;
    return driver_error(session_->api, r, "cuModuleLoadData (" + std::to_string(image.size()) + "-byte image)");
  }
  Module module;
  module.state_ = std::move(state);
  return module;
}

namespace {

Expected<void> check_global_size(const DeviceGlobal& global, std::size_t bytes) {
  if (global.address == 0 || global.size != bytes) {
    return Error{ErrorKind::bad_input,
                    "a copy of " + std::to_string(bytes) + " bytes does not fit a __device__ variable of " +
                        std::to_string(global.size) + " bytes",
                    {}};
  }
  return {};
}

}  // namespace

Expected<void> Gpu::write_global(const DeviceGlobal& global, std::span<const std::byte> bytes) {
  if (auto size = check_global_size(global, bytes.size()); !size) return size;
  ContextScope scope(*session_);
  if (auto current = scope.check(); !current) return current;
  const CUresult r = session_->api.memcpy_htod(global.address, bytes.data(), bytes.size());
  if (r != CUDA_SUCCESS) return driver_error(session_->api, r, "cuMemcpyHtoD(__device__ variable)");
  return {};
}

Expected<void> Gpu::read_global(const DeviceGlobal& global, std::span<std::byte> bytes) {
  if (auto size = check_global_size(global, bytes.size()); !size) return size;
  ContextScope scope(*session_);
  if (auto current = scope.check(); !current) return current;
  const CUresult r = session_->api.memcpy_dtoh(bytes.data(), global.address, bytes.size());
  if (r != CUDA_SUCCESS) return driver_error(session_->api, r, "cuMemcpyDtoH(__device__ variable)");
  return {};
}

Expected<void> Gpu::launch(const Kernel& kernel, const LaunchShape& shape, std::span<void*> args) {
  if (kernel.module_ == nullptr || kernel.module_->session != session_) {
    return Error{ErrorKind::bad_input, "kernel was not loaded through this Gpu", {}};
  }
  ContextScope scope(*session_);
  if (auto current = scope.check(); !current) return current;
  const CUresult r = session_->api.launch_kernel(static_cast<CUfunction>(kernel.function_), shape.grid_x, shape.grid_y,
                                                 shape.grid_z, shape.block_x, shape.block_y, shape.block_z,
                                                 shape.shared_bytes, nullptr, args.data(), nullptr);
  if (r != CUDA_SUCCESS) {
    return driver_error(session_->api, r,
                        "cuLaunchKernel(" + kernel.name_ + ", grid " + std::to_string(shape.grid_x) + "x" +
                            std::to_string(shape.grid_y) + "x" + std::to_string(shape.grid_z) + ", block " +
                            std::to_string(shape.block_x) + "x" + std::to_string(shape.block_y) + "x" +
                            std::to_string(shape.block_z) + ")");
  }
  return {};
}

Expected<void> Gpu::allow_dynamic_shared(const Kernel& kernel, std::size_t bytes) {
  if (kernel.module_ == nullptr || kernel.module_->session != session_) {
    return Error{ErrorKind::bad_input, "kernel was not loaded through this Gpu", {}};
  }
  ContextScope scope(*session_);
  if (auto current = scope.check(); !current) return current;
  const DriverApi& api = session_->api;
  const auto function = static_cast<CUfunction>(kernel.function_);
  int static_bytes = 0, optin_bytes = 0;
  if (const CUresult r = api.func_get_attribute(&static_bytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, function);
      r != CUDA_SUCCESS) {
    return driver_error(api, r, "cuFuncGetAttribute(" + kernel.name_ + ", static shared size)");
  }
  if (const CUresult r = api.device_get_attribute(&optin_bytes, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                                                  session_->device);
      r != CUDA_SUCCESS) {
    return driver_error(api, r, "cuDeviceGetAttribute(max shared memory per block, opt-in)");
  }
  const auto limit = static_cast<std::size_t>(std::max(0, optin_bytes - static_bytes));
  if (bytes > limit) {
    return Error{ErrorKind::bad_input,
                    std::to_string(bytes) + " bytes of dynamic shared memory do not fit " + session_->info.name +
                        ": the kernel has " + std::to_string(static_bytes) + " bytes of static shared memory and a block may use " +
                        std::to_string(optin_bytes) + " in all",
                    {}};
  }
  if (const CUresult r = api.func_set_attribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                static_cast<int>(bytes));
      r != CUDA_SUCCESS) {
    return driver_error(api, r, "cuFuncSetAttribute(" + kernel.name_ + ", max dynamic shared " + std::to_string(bytes) + ")");
  }
  return {};
}

Expected<std::optional<std::vector<std::size_t>>> Gpu::parameter_sizes(const Kernel& kernel) {
  if (kernel.module_ == nullptr || kernel.module_->session != session_) {
    return Error{ErrorKind::bad_input, "kernel was not loaded through this Gpu", {}};
  }
  const DriverApi& api = session_->api;
  if (api.func_get_param_info == nullptr) return std::optional<std::vector<std::size_t>>{};
  ContextScope scope(*session_);
  if (auto current = scope.check(); !current) return current.error();
  std::vector<std::size_t> sizes;
  constexpr std::size_t kMostParameters = 4096;  // CUDA allows 32 KiB of parameters
  for (std::size_t index = 0; index < kMostParameters; ++index) {
    std::size_t offset = 0, size = 0;
    const CUresult r = api.func_get_param_info(static_cast<CUfunction>(kernel.function_), index, &offset, &size);
    if (r == CUDA_ERROR_INVALID_VALUE) break;  // past the last parameter
    if (r != CUDA_SUCCESS) return driver_error(api, r, "cuFuncGetParamInfo(" + kernel.name_ + ")");
    sizes.push_back(size);
  }
  return std::optional<std::vector<std::size_t>>(std::move(sizes));
}

Expected<void> Gpu::synchronize(std::chrono::milliseconds timeout) {
  ContextScope scope(*session_);
  if (auto current = scope.check(); !current) return current;
  const auto start = std::chrono::steady_clock::now();
  auto pause = std::chrono::microseconds(50);
  for (;;) {
    // The legacy default stream (0) is where launch() puts all work.
    const CUresult r = session_->api.stream_query(nullptr);
    if (r == CUDA_SUCCESS) break;
    if (r != CUDA_ERROR_NOT_READY) return driver_error(session_->api, r, "kernel execution (cuStreamQuery)");
    if (std::chrono::steady_clock::now() - start > timeout) {
      session_->abandoned = true;
      return Error{ErrorKind::driver,
                      "CUDA driver: GPU work did not finish within " + std::to_string(timeout.count()) +
                          " ms (a warp waiting on lanes that never arrive hangs); the context was abandoned",
                      {}};
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(5000));
  }
  if (const CUresult r = session_->api.ctx_synchronize(); r != CUDA_SUCCESS) {
    return driver_error(session_->api, r, "cuCtxSynchronize");
  }
  return {};
}

}  // namespace warpsim::gpu
