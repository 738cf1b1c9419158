// The kernel cache every test shares: one folder of the build tree, so that the precompiled shim
// and a kernel that several suites compile (lessons, exercises, corpus files) are built once per
// test run, not once per suite. Compiled kernels are keyed by their source, flags, compiler and
// shim, and the cache is safe for several processes at once (the grader and `exec --jobs` use it
// so), so sharing it changes no result. A caller's WARPSIM_CACHE_DIR wins.
#pragma once

#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace warpsim::test {

inline std::filesystem::path test_kernel_cache() {
  if (const char* chosen = std::getenv("WARPSIM_CACHE_DIR"); chosen != nullptr && *chosen != '\0') {
    return chosen;
  }
  return std::filesystem::path(WARPSIM_BINARY_DIR) / "tests" / "kernel-cache";
}

// For suites that compile kernels in their own process (run_kernel_file, run_program).
inline void use_test_kernel_cache() {
  const std::filesystem::path dir = test_kernel_cache();
  std::filesystem::create_directories(dir);
  setenv("WARPSIM_CACHE_DIR", dir.c_str(), 1);
}

}  // namespace warpsim::test
