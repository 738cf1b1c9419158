// A CUDA toolkit's cub headers with their inline PTX translated, as the user's kernel file is
// (rewrite_inline_ptx): cub writes its warp shuffles and scans in PTX, which the host compiler
// cannot assemble. The translated copies go into the kernel cache, and their folder goes on the
// include path before the toolkit's, so `#include <cub/warp/warp_reduce.cuh>` reads them. The
// block algorithms' member aliases are also qualified (see qualified_member_aliases), which GCC
// needs and which changes nothing else. Thrust's headers that launch kernels with <<<>>> (its
// triple_chevron, through which cub's device-wide algorithms such as cub::DeviceReduce::Sum
// launch theirs) get their launches rewritten, as the user's are (rewrite_launches).
#pragma once

#include <string>

#include "kernel_compiler.hpp"
#include "warpsim/expected.hpp"

namespace warpsim::runner {

// The folder holding the translated cub and Thrust headers (only those with asm statements or
// launches; #line keeps the toolkit's file names and lines in messages and traces), made on first
// use. "" when the toolkit has no cub. PTX the translator does not run stops the launch if a lane
// reaches it.
Expected<std::string> translated_cccl_headers(const Toolchain& toolchain);

}  // namespace warpsim::runner
