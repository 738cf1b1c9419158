// Running kernel files of tests/shim/kernels through the runner's C++ API, with the tests' shared
// kernel cache (support/kernel_cache.hpp).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "warpsim/kernel_file.hpp"

#include "support/kernel_cache.hpp"

namespace warpsim::test {

inline void use_shim_test_cache() { use_test_kernel_cache(); }

// Runs `kernel` of tests/shim/kernels/`file` on one block of `threads`, compiled for `arch`.
inline KernelFileResult run_shim_kernel(const std::string& file, const std::string& kernel,
                                        std::vector<KernelArg> args, unsigned threads = 32,
                                        const std::string& arch = "sm_90") {
  use_shim_test_cache();
  KernelFileRequest request;
  request.file = std::string(WARPSIM_SOURCE_DIR) + "/tests/shim/kernels/" + file;
  request.kernel = kernel;
  request.grid = {1};
  request.block = {threads};
  request.args = std::move(args);
  request.arch = arch;
  return run_kernel_file(request);
}

}  // namespace warpsim::test
