// Standard headers for NVRTC. NVRTC ships no C or C++ standard library headers, yet kernel files
// may `#include <math.h>`, `<cmath>`, `<cstdio>`, `<cstdint>`, ... (spec/run.md). These small
// stand-ins, handed to NVRTC as in-memory headers, give device code what those headers mean on the
// device: math functions and printf are NVRTC builtins already; macros (INFINITY, M_PI, FLT_MAX,
// INT_MAX, ...), fixed-width integer types and the std:: names come from libcu++ (<cuda/std/...>,
// in the toolkit), with `namespace std` made to see `cuda::std`.
//
//   CompileOptions options;
//   for (const SourceHeader& h : device_std_headers()) options.headers.push_back(h);
#pragma once

#include <span>

#include "nvrtc_compile.hpp"

namespace warpsim::gpu {

// Static storage: the views stay valid for the program's life.
std::span<const SourceHeader> device_std_headers();

}  // namespace warpsim::gpu
