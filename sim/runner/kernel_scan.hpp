// Scanning kernel files, beyond what runner.hpp offers (scan_kernels, resolve_kernel): the parts
// the runner uses internally.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace warpsim::runner {

// The number of tokens inside the braces of the first definition of kernel `name` (qualified as
// scan_kernels names it, without template arguments) in `source`; nullopt when `source` defines
// no such kernel. Comments and preprocessor lines are not counted; text inside #if branches is.
//   "__global__ void k(int* p) {\n#if 0\n p[0] = 1;\n#endif\n}"  ->  k: 7 (p [ 0 ] = 1 ;)
//   the same text after the preprocessor                          ->  k: 0
std::optional<std::size_t> kernel_body_size(std::string_view source, std::string_view name);

}  // namespace warpsim::runner
