// CUDA's device-side assert (the shim's <assert.h> routes assert() here in CUDA C++ files): a lane
// whose assertion fails prints what the GPU prints ("FILE:LINE: FUNCTION: block: [x,y,z], thread:
// [x,y,z] Assertion `EXPRESSION` failed.") and stops its launch; the program goes on, and from
// then on cudaDeviceSynchronize, cudaGetLastError and the other calls that report errors answer
// cudaErrorAssert, as a GPU's context does after a device assert (the sticky error). Outside a
// kernel, assert is the C library's.
#pragma once

#include <assert.h>
#include <cstdio>

#include "warpsim/device_abi.hpp"
#include "warpsim/launch_stop.hpp"
#include "warpsim/program_runtime.hpp"

// The C library's (glibc's <assert.h> declares it only without NDEBUG).
extern "C" void __assert_fail(const char* assertion, const char* file, unsigned int line,
                              const char* function) noexcept __attribute__((__noreturn__));

namespace warpsim::shim {

[[noreturn]] inline void assert_failed(const char* expression, const char* file, unsigned line,
                                       const char* function) {
  const device::LaneEnv* lane = device::current_env;
  if (lane == nullptr) __assert_fail(expression, file, line, function);
  std::fprintf(stderr, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n",
               file, line, function, lane->block_idx.x, lane->block_idx.y, lane->block_idx.z,
               lane->thread_idx.x, lane->thread_idx.y, lane->thread_idx.z, expression);
  ::warpsim::program::note_device_assert();
  stop_launch("%s:%u: device-side assert failed: %s", file, line, expression);
}

}  // namespace warpsim::shim

#define WARPSIM_DEVICE_ASSERT 1
