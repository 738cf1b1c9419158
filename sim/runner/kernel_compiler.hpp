// Building a prepared kernel source into a shared object with the system C++ compiler, through a
// per-user cache: the same source, compiler, flags and shim never compile twice.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "user_headers.hpp"
#include "warpsim/runner.hpp"
#include "warpsim/sandbox.hpp"

namespace warpsim::runner {

// ".tmp.PID.THREAD": the suffix of a file or folder that this process and thread write before
// renaming it into the cache. One process may build several programs at once, on several threads
// (a test that runs programs in parallel), and they share the cache's toolkit headers and shim.
std::string temporary_suffix();

// Writes `contents` to `path` through a temporary name (temporary_suffix) in the same directory,
// so a reader sees the old file or the whole new one; false when it could not.
bool write_file_atomically(const std::string& path, std::string_view contents);

struct Toolchain {
  std::vector<std::string> compiler;  // argv prefix: $WARPSIM_CXX split on spaces, or "c++"
  std::string compiler_path;          // the resolved executable of compiler[0]
  std::string shim_dir;               // holds warpsim/cuda_shim.hpp, cuda_runtime.h, ...
  std::string include_dir;            // holds warpsim/*.hpp
  // The folders that include_dir's symbolic links point into (a build tree links each header to
  // its source): a sandbox that hides or replaces them (a private /tmp) binds them back.
  std::vector<std::string> header_sources;
  std::string library;                // libwarpsim's shared object, to link the kernel with
  std::string kernel_host;            // warpsim-kernel-host, the process that runs a kernel
  // A CUDA toolkit's include/cccl folder ($CUDA_HOME, $CUDA_PATH, /usr/local/cuda), searched after
  // the system headers so that the shim's cuda/ wrappers read libcu++ from it; empty when none.
  std::string libcudacxx_dir;
  // The toolkit's include folder, searched last: the headers of CUDA's libraries (cuBLAS, cuFFT,
  // ...) compile, and their functions stop the program if called (library_stubs.hpp).
  std::string toolkit_include_dir;
  std::string cache_dir;  // $WARPSIM_CACHE_DIR, $XDG_CACHE_HOME/warpsim, ~/.cache/warpsim
  // The contents of the shim and warpsim's headers, hashed once (find_toolchain): part of every
  // compile's key and of the precompiled shim's.
  std::string shim_digest;
  CacheLimits cache_limits;  // pruned to these after each compile that adds to the cache
  // Where the compiler runs: in this sandbox (writing the kernel cache, reading the toolchain),
  // or, when null, as any other program; user_sources then reads nothing the sandbox hides.
  const Sandbox* sandbox = nullptr;
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

enum class CompileOutput : std::uint8_t {
  shared_object,  // a kernel file, for the kernel host
  executable,     // a whole program of one file (`warpsim exec`): the user's main, libwarpsim
  object,         // one file of a program of several: link_program makes the executable
};

struct CompileOptions {
  // -I: the kernel file's folder; for a program's object also searched first for its "..."
  // includes (as the compiler searches the original file's folder).
  std::string user_dir;
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
  CompileOutput output = CompileOutput::shared_object;
  // A program's .c file: C, as nvcc has the host compiler build a .c file (no shim, no CUDA
  // definitions); only with CompileOutput::object.
  bool c_language = false;
  // A program's C++ file that is not CUDA (.cpp, .cc, .cxx): as nvcc has the host compiler build
  // it, the shim is not force-included (the file's own `#include <cuda_runtime.h>` finds the
  // shim's); only with CompileOutput::object.
  bool host_cplusplus = false;
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
  // A plain kernel object (no memory checks) is built without debug information, which costs a
  // third of its compile: how to build its twin with line information, when a crash or the time
  // limit asks which line a lane was on (object_with_lines). Absent: the object has lines.
  struct LineTwin {
    std::vector<std::string> argv;  // the same compile with -g, into `object` + a suffix
    std::string object;             // where the twin is kept, beside the object in the cache
    std::optional<Sandbox> sandbox;  // the compile's own, when it had one
    std::vector<std::string> writable, readable;
  };
  std::shared_ptr<const LineTwin> line_twin;
};

// An object whose code is `compiled`'s, byte for byte at the same addresses, with line
// information: `compiled` itself when it has lines, else its twin (built once, kept in the
// cache). An error when the twin cannot be built or its code differs (then no line is named).
Expected<std::string> object_with_lines(const CompiledKernel& compiled);

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
// The byte `toolchain`'s compiler fills never-set locals with in the builds above
// (CompiledKernel::never_set_fill); 0: none.
std::uint8_t never_set_fill(const Toolchain& toolchain);

Expected<CompiledKernel> compile_kernel(const Toolchain& toolchain,
                                      const std::string& prepared_source,
                                      const CompileOptions& options);

// Several translation units (a program's files) compiled as compile_kernel compiles one, each
// cached on its own (an edited file recompiles alone), on as many threads as there are cores (at
// most one per source). One result per source, in order.
struct CompileUnit {
  std::string prepared_source;
  CompileOptions options;
};
std::vector<Expected<CompiledKernel>> compile_kernels(const Toolchain& toolchain,
                                                      const std::vector<CompileUnit>& units);

// The executable of a program of several files: `objects` (compile_kernels' CompileOutput::object
// builds) linked with libwarpsim, cached by the objects' builds. The error of a failed link is
// the linker's own output, unchanged.
Expected<CompiledKernel> link_program(const Toolchain& toolchain,
                                      const std::vector<std::string>& objects,
                                      bool color_diagnostics,
                                      const std::vector<std::string>& host_flags);

// One line for the user after a failed compile whose output shows a CUDA library warpsim does
// not simulate (cuBLAS, cuFFT, cuDNN, NCCL, Thrust, CUTLASS, ...: a missing header, or Thrust
// from the toolkit's CCCL failing under the host compiler); empty otherwise.
std::string unsupported_library_hint(std::string_view compiler_output);

}  // namespace warpsim::runner
