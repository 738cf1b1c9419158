// Building a prepared kernel source into a shared object with the system C++ compiler, through a
// per-user cache: the same source, compiler, flags and shim never compile twice.
#pragma once

#include <string>
#include <vector>

#include "warpsim/runner.hpp"

namespace warpsim::runner {

struct Toolchain {
  std::vector<std::string> compiler;  // argv prefix: $WARPSIM_CXX split on spaces, or "c++"
  std::string compiler_path;          // the resolved executable of compiler[0]
  std::string shim_dir;               // holds warpsim/cuda_shim.hpp, cuda_runtime.h, ...
  std::string include_dir;            // holds warpsim/*.hpp
  std::string library;                // libwarpsim's shared object, to link the kernel with
  std::string cache_dir;  // $WARPSIM_CACHE_DIR, $XDG_CACHE_HOME/warpsim, ~/.cache/warpsim
  CacheLimits cache_limits;  // pruned to these after each compile that adds to the cache
};

// Finds the compiler, the shim and libwarpsim (a build tree's, or an installation's relative to
// the library) and the cache directory (created if missing).
Expected<Toolchain> find_toolchain();

struct CompiledKernel {
  std::string shared_object;  // path inside the cache
  bool from_cache = false;
};

// The text of `file` after the preprocessor (with the shim, as compile_kernel would see it),
// keeping only what comes from the user's own files (not the shim's, not system headers), so
// that scan_kernels finds kernels that macros declare. `__global__` stays in the text.
Expected<std::string> preprocess_for_kernel_scan(const Toolchain& toolchain, const std::string& file);

// Compiles `prepared_source` (see prepare_source) with `-I user_dir`, or returns the cached
// object. The error of a failed compile is the compiler's own output, unchanged.
Expected<CompiledKernel> compile_kernel(const Toolchain& toolchain,
                                      const std::string& prepared_source,
                                      const std::string& user_dir, bool color_diagnostics);

}  // namespace warpsim::runner
