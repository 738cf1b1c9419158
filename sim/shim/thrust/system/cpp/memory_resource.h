// Thrust's CPP system is the simulated device's under warpsim (warpsim/cuda_shim.hpp), so the
// memory its resource gives (what thrust::device_vector allocates from) is the simulated device's
// memory: blocks of cudaMalloc's allocator, which kernels take raw pointers into, cudaMemcpy may
// name (program::check_copy refuses ranges outside device memory, as a GPU does), and the bounds
// checks guard. Thrust's own header of this name makes the same names with operator new.
// Searched before the toolkit's (or the distribution's) Thrust, which provides the rest.
#pragma once

#include <thrust/detail/config.h>

#include <cstddef>
#include <new>

// Thrust's CUDA system, which nvcc builds device_vector with, reads thrust/system/error_code.h
// and with it <iostream>: programs that print with std::cout after including only Thrust's
// headers compile with nvcc (HeCBench's mtf), so they do here too.
#include <thrust/system/error_code.h>
#include <thrust/mr/fancy_pointer_resource.h>
#include <thrust/mr/memory_resource.h>
#include <thrust/system/cpp/pointer.h>

#include "warpsim/program_runtime.hpp"

THRUST_NAMESPACE_BEGIN
namespace system {
namespace cpp {
namespace detail {

class simulated_device_resource final : public thrust::mr::memory_resource<> {
 public:
  void* do_allocate(std::size_t bytes, std::size_t alignment) override {
    // Blocks are 256-byte aligned, as cudaMalloc's; zero bytes still get a block of their own.
    void* block = alignment <= 256 ? ::warpsim::program::allocate(
                                         bytes == 0 ? 1 : bytes,
                                         ::warpsim::program::MemoryKind::device)
                                   : nullptr;
    if (block == nullptr) throw std::bad_alloc();
    return block;
  }
  void do_deallocate(void* block, std::size_t, std::size_t) override {
    ::warpsim::program::release(block);
  }
  bool do_is_equal(const thrust::mr::memory_resource<>& other) const noexcept override {
    return dynamic_cast<const simulated_device_resource*>(&other) != nullptr;
  }
};

using native_resource =
    thrust::mr::fancy_pointer_resource<simulated_device_resource, thrust::cpp::pointer<void>>;
using universal_native_resource =
    thrust::mr::fancy_pointer_resource<simulated_device_resource,
                                       thrust::cpp::universal_pointer<void>>;

}  // namespace detail

using memory_resource = detail::native_resource;
using universal_memory_resource = detail::universal_native_resource;
using universal_host_pinned_memory_resource = universal_memory_resource;

}  // namespace cpp
}  // namespace system
THRUST_NAMESPACE_END
