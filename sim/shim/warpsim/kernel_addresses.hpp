// Kernels by address, for the APIs that take a kernel as `const void*` with its arguments as an
// array of pointers (cudaKernelNodeParams::func, cudaLaunchKernel's C form): the simulator calls
// a kernel through its C++ type, which the cast to void* loses. warpsim registers every
// non-template kernel a user's file defines (the runner appends a register_kernel call after its
// body: runner.hpp, register_defined_kernels), so that such a pointer finds its typed launcher
// again. A kernel not registered (a template's instantiation) stops the program where it is
// passed, naming the call.
#pragma once

#include <cstddef>
#include <mutex>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace warpsim::shim {

// The work of launching `kernel` (a registered kernel's address) with `args` read now (CUDA
// copies a launch's and a kernel node's arguments when they are given); `cooperative`: as
// cudaLaunchCooperativeKernel launches it.
using KernelBinder = NodeWork (*)(const void* kernel, const char* name, dim3 grid, dim3 block,
                                  std::size_t shared_bytes, bool cooperative, void** args,
                                  const char* file, unsigned line);

struct RegisteredKernel {
  const void* address;
  const char* name;
  KernelBinder bind;
};

struct KernelAddresses {
  std::mutex mutex;
  std::vector<RegisteredKernel> kernels;

  static KernelAddresses& instance() {
    static KernelAddresses addresses;  // one per program
    return addresses;
  }
  // Null when `address` is no registered kernel.
  const RegisteredKernel* find(const void* address) {
    std::lock_guard<std::mutex> lock(mutex);
    for (const RegisteredKernel& k : kernels)
      if (k.address == address) return &k;
    return nullptr;
  }
};

// The registered kernel at `address`; one warpsim did not see defined stops the program at the
// call (`api` at file:line), saying `what` it was.
inline const RegisteredKernel& registered_kernel_at(const void* address, const char* what,
                                                    const char* api, const char* file,
                                                    unsigned line) {
  const RegisteredKernel* kernel = KernelAddresses::instance().find(address);
  if (kernel == nullptr) warpsim_not_simulated_at(what, api, file, line);
  return *kernel;
}

template <class... Params, std::size_t... I>
NodeWork bind_kernel_arguments(void (*kernel)(Params...), const char* name, dim3 grid, dim3 block,
                               std::size_t shared_bytes, bool cooperative, void** args,
                               const char* file, unsigned line, std::index_sequence<I...>) {
  using Values = std::tuple<std::remove_cv_t<std::remove_reference_t<Params>>...>;
  Values values(*static_cast<std::remove_cv_t<std::remove_reference_t<Params>>*>(args[I])...);
  return [=](CUstream_st* stream) {
    Values copy = values;
    return std::apply(
        [&](auto&... v) {
          return launch_kernel(name, file, line,
                               runtime_launch_config(grid, block, shared_bytes, stream, cooperative),
                               [kernel](auto&&... a) { kernel(a...); })(v...);
        },
        copy);
  };
}

template <class... Params>
NodeWork bind_kernel(const void* address, const char* name, dim3 grid, dim3 block,
                     std::size_t shared_bytes, bool cooperative, void** args, const char* file,
                     unsigned line) {
  if (sizeof...(Params) != 0 && args == nullptr) return {};
  auto* kernel = reinterpret_cast<void (*)(Params...)>(const_cast<void*>(address));
  return bind_kernel_arguments(kernel, name, grid, block, shared_bytes, cooperative, args, file, line,
                               std::index_sequence_for<Params...>{});
}

// Called once per kernel definition and translation unit, before main (a static initialiser).
template <class... Params>
bool register_kernel(void (*kernel)(Params...), const char* name) {
  const void* address = reinterpret_cast<const void*>(kernel);
  KernelAddresses& addresses = KernelAddresses::instance();
  std::lock_guard<std::mutex> lock(addresses.mutex);
  for (const RegisteredKernel& k : addresses.kernels)
    if (k.address == address) return true;
  addresses.kernels.push_back({address, name, &bind_kernel<Params...>});
  return true;
}

}  // namespace warpsim::shim

// What the runner writes after a kernel's body (register_defined_kernels). A kernel file run one
// kernel at a time (`warpsim run`: WARPSIM_KERNEL_FILE) never runs its host code, so nothing looks
// a kernel up by address there, and the registration (a launcher instantiated per kernel, about a
// third of such a file's compile) is left out.
// The kernel's parameters, as its definition lists them, pick it among overloads of its name (a
// header's prototype with other parameters, never defined, is one).
// WARPSIM_REGISTER_ONLY_KERNEL: a kernel whose parameter list holds preprocessor lines (#if), which
// cannot be copied into a macro's argument; its name alone picks it (it has no overload).
#if defined(WARPSIM_KERNEL_FILE)
#define WARPSIM_REGISTER_KERNEL(kernel, qualified_name, ...)
#define WARPSIM_REGISTER_ONLY_KERNEL(kernel, qualified_name)
#else
#define WARPSIM_REGISTER_KERNEL(kernel, qualified_name, ...)                       \
  static const bool warpsim_kernel_registration_##kernel =                         \
      ::warpsim::shim::register_kernel(static_cast<void (*) __VA_ARGS__>(&kernel), \
                                       qualified_name);
#define WARPSIM_REGISTER_ONLY_KERNEL(kernel, qualified_name) \
  static const bool warpsim_kernel_registration_##kernel =   \
      ::warpsim::shim::register_kernel(&kernel, qualified_name);
#endif
