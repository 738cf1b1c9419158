// Running kernel files of tests/shim/kernels through the runner's C++ API, with a kernel cache of
// the shim suites' own.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "warpsim/kernel_file.hpp"

namespace warpsim::test {

inline void use_shim_test_cache() {
  if (std::getenv("WARPSIM_CACHE_DIR") != nullptr) return;
  const std::filesystem::path dir =
      std::filesystem::path(WARPSIM_BINARY_DIR) / "tests" / "shim" / "kernel-cache";
  std::filesystem::create_directories(dir);
  setenv("WARPSIM_CACHE_DIR", dir.c_str(), 1);
}

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
