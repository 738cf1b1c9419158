#include "warpsim/device_abi.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "block_runner.hpp"

// `extern __shared__ T name[];` in kernel files is rewritten to read warpsim_dynamic_shared_base:
// all dynamic shared arrays of a block start at that address, as in CUDA. Per OS thread, since
// blocks of a launch may run on several (block_pool.cpp gives each worker a buffer of its own).
// It points at this buffer unless `warpsim run`'s child moves it in front of a guard page.
extern "C" {
alignas(16) unsigned char warpsim_dynamic_shared[warpsim::device::kDynamicSharedCapacity];
__thread unsigned char* warpsim_dynamic_shared_base = warpsim_dynamic_shared;
}

namespace warpsim::runtime {

BlockRunner& runner_or_abort(const char* what) {
  BlockRunner* r = BlockRunner::current();
  if (r == nullptr) {
    std::fprintf(stderr, "warpsim: %s called outside warpsim::launch (kernel code must run "
                         "through launch())\n", what);
    std::abort();
  }
  return *r;
}

}  // namespace warpsim::runtime

namespace warpsim::device {

using runtime::runner_or_abort;

__thread const LaneEnv* current_env __attribute__((tls_model("initial-exec"))) = nullptr;

int block_barrier(Op op, int predicate, CallSite site) {
  return runner_or_abort("__syncthreads").block_barrier(op, predicate, site);
}

void named_barrier(std::uint32_t id, std::uint32_t count, bool counted, CallSite site) {
  runner_or_abort("__barrier_sync").named_barrier(id, count, counted, site);
}

void grid_barrier(CallSite site) { runner_or_abort("grid_group::sync").grid_barrier(site); }

bool cooperative_launch() { return runner_or_abort("grid_group::is_valid").options().cooperative; }

LaneStack lane_stack() {
  const runtime::BlockRunner* r = runtime::BlockRunner::current();
  const runtime::Lane* lane = r != nullptr ? r->running_lane() : nullptr;
  if (lane == nullptr || lane->stack.top == nullptr) return {};
  return {static_cast<const unsigned char*>(lane->stack.top) - lane->stack.size, lane->stack.size};
}

int vprintf(const char* format, va_list args) {
  // Host code in a file that includes the shim (tests, benchmarks) prints as usual.
  if (runtime::BlockRunner::current() == nullptr) return std::vprintf(format, args);
  va_list copy;
  va_copy(copy, args);
  const int length = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  if (length < 0) return length;
  std::string text(static_cast<std::size_t>(length), '\0');
  std::vsnprintf(text.data(), text.size() + 1, format, args);
  runner_or_abort("printf").lane_printf(std::move(text));
  return length;
}

}  // namespace warpsim::device
