// The shim (warpsim/cuda_shim.hpp, force-included into every CUDA source) as a precompiled
// header: parsing it is most of a small kernel's compile. Built once per compiler, flags and shim
// contents into the kernel cache's pch/ folder, and found by GCC ahead of the header itself.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace warpsim::runner {

struct Toolchain;

// The folder to search first ("-I" + it) so that `-include warpsim/cuda_shim.hpp` reads the
// precompiled shim, building it when missing; empty where there is none to use: a compiler other
// than GCC (clang's precompiled headers refuse a mismatch instead of falling back), a failed
// build (remembered, not retried), or $WARPSIM_NO_PCH set.
// `header_flags` are every flag of the compile that shapes the header (code generation, the
// architecture's definitions, the checks' instrumentation, the include folders), without the
// output kind, the -include and the user's flags. `version` is the compiler's --version line and
// `shim_digest` the shim's contents (header_digest): both part of the key, as GCC does not check
// whether the headers changed since the build.
// Correctness does not rest on the key alone: GCC uses a precompiled header only where the
// compile's options and earlier macro definitions (a user's -D) agree with its build, and reads
// the header itself otherwise.
std::string precompiled_shim_dir(const Toolchain& toolchain, const std::string& version,
                                 const std::vector<std::string>& header_flags,
                                 const std::string& shim_digest);

// After each build: the builds in `pch_root` beyond the six most recently used are removed,
// except those used within the last hour (as the kernel cache spares recent kernels). Returns
// how many were removed.
std::size_t prune_precompiled_shims(const std::string& pch_root);

}  // namespace warpsim::runner
