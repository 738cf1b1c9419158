// Building a prepared kernel source into a shared object with the system C++ compiler, through a
// per-user cache: the same source, compiler, flags and shim never compile twice.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "user_headers.hpp"
#include "warpsim/runner.hpp"

namespace warpsim::runner {

struct Toolchain {
  std::vector<std::string> compiler;  // argv prefix: $WARPSIM_CXX split on spaces, or "c++"
  std::string compiler_path;          // the resolved executable of compiler[0]
  std::string shim_dir;               // holds warpsim/cuda_shim.hpp, cuda_runtime.h, ...
  std::string include_dir;            // holds warpsim/*.hpp
  std::string library;                // libwarpsim's shared object, to link the kernel with
  std::string kernel_host;            // warpsim-kernel-host, the process that runs a kernel
  // A CUDA toolkit's include/cccl folder ($CUDA_HOME, $CUDA_PATH, /usr/local/cuda), searched after
  // the system headers so that the shim's cuda/ wrappers read libcu++ from it; empty when none.
  std::string libcudacxx_dir;
  std::string cache_dir;  // $WARPSIM_CACHE_DIR, $XDG_CACHE_HOME/warpsim, ~/.cache/warpsim
  CacheLimits cache_limits;  // pruned to these after each compile that adds to the cache
};

// Finds the compiler, the shim, libwarpsim and the kernel host (a build tree's, or an
// installation's relative to the library; $WARPSIM_KERNEL_HOST names another host) and the cache
// directory (created if missing).
Expected<Toolchain> find_toolchain();

// The architectures a kernel file can be compiled for, as nvcc names them, and the value of
// __CUDA_ARCH__ for each: "sm_70" -> 700, ..., "sm_90" -> 900. The error lists the names.
Expected<int> cuda_arch_number(std::string_view arch);

// The preprocessor definitions of nvcc's device pass for `arch` (cuda_arch_number's value) that
// the shim does not define itself: -D__CUDA_ARCH__=900 -D__CUDA_ARCH_LIST__=900.
std::vector<std::string> arch_definitions(int arch);

struct CompileOptions {
  std::string user_dir;  // -I: the kernel file's folder
  int arch = 900;        // __CUDA_ARCH__
  bool color_diagnostics = false;
  // For the warning about a kernel the preprocessor empties: the kernel file (absolute) and the
  // kernel's name as scan_kernels gives it ("ns::reduce", no template arguments). Either empty:
  // no check.
  std::string file;
  std::string kernel_name;
  std::vector<std::string> user_flags;  // user_compiler_flags: -I and -D from the request
  // Built with -fsanitize=thread for the memory checks: libwarpsim answers the __tsan_* calls,
  // so libtsan is kept out of the link (see instrumentation_flags in kernel_compiler.cpp).
  bool instrument_memory = false;
  // A whole program (`warpsim exec`): an executable with the user's main instead of a shared
  // object.
  bool executable = false;
  // The prepared copies of the user's headers that the source includes (user_sources): written
  // before a compile, when not already in the cache.
  std::vector<PreparedHeader> headers{};
};

struct CompiledKernel {
  std::string shared_object;  // path inside the cache (the executable, for a whole program)
  bool from_cache = false;
  // One line each, for the user: a kernel whose body the preprocessor removed for this
  // architecture (it runs, does nothing and reports 0 steps).
  std::vector<std::string> warnings;
  // The byte never-set locals hold (-ftrivial-auto-var-init=pattern: GCC 12 and later fill with
  // 0xfe), for LaunchOptions::never_set_fill; 0 where the compiler was not asked (clang's pattern
  // differs by type and is not used).
  std::uint8_t never_set_fill = 0;
};

// The text of `file` after the preprocessor (with the shim and `arch`'s definitions, as
// compile_kernel would see it), keeping only what comes from the user's own files (not the
// shim's, not system headers), so that scan_kernels finds kernels that macros declare.
// `__global__` stays in the text.
Expected<std::string> preprocess_for_kernel_scan(const Toolchain& toolchain, const std::string& file,
                                               int arch = 900,
                                               const std::vector<std::string>& user_flags = {});

// The user's file and the user's headers it includes, prepared for compile_kernel: the headers'
// copies go into the kernel cache (user_headers.hpp), searched as the compile will search:
// the file's folder, the shim, warpsim's headers, the user's -I folders in `user_flags`, the
// file's folder again.
UserSources user_sources(const Toolchain& toolchain, std::string_view source,
                         const std::string& absolute_path,
                         const std::vector<std::string>& user_flags);

// Compiles `prepared_source` (see prepare_source) for `options`, or returns the cached object.
// The error of a failed compile is the compiler's own output, unchanged. The architecture is part
// of the cache key: an sm_70 request never gets an sm_90 build.
Expected<CompiledKernel> compile_kernel(const Toolchain& toolchain,
                                      const std::string& prepared_source,
                                      const CompileOptions& options);

// One line for the user after a failed compile whose output shows a CUDA library warpsim does
// not simulate (cuBLAS, cuFFT, cuDNN, NCCL, Thrust, CUTLASS, ...: a missing header, or Thrust
// from the toolkit's CCCL failing under the host compiler); empty otherwise.
std::string unsupported_library_hint(std::string_view compiler_output);

}  // namespace warpsim::runner
