#include "device_std_headers.hpp"

#include <array>

namespace warpsim::gpu {
namespace {

// std:: names for device code: whatever libcu++ provides, found through cuda::std.
#define WARPSIM_STD_SEES_CUDA_STD "namespace std { using namespace ::cuda::std; }\n"

constexpr const char* kMathH = R"(#pragma once
// warpsim stand-in for <math.h> under NVRTC: the math functions are NVRTC builtins.
#include <cuda/std/cmath>
#ifndef HUGE_VALF
#define HUGE_VALF (::cuda::std::numeric_limits<float>::infinity())
#endif
#ifndef HUGE_VAL
#define HUGE_VAL (::cuda::std::numeric_limits<double>::infinity())
#endif
#ifndef M_E
#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LOG10E 0.43429448190325182765
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440
#endif
)";

constexpr const char* kFloatH = R"(#pragma once
// warpsim stand-in for <float.h> under NVRTC, from the compiler's predefined macros.
#include <cuda/std/cfloat>
#ifndef FLT_MAX
#define FLT_RADIX __FLT_RADIX__
#define FLT_MANT_DIG __FLT_MANT_DIG__
#define DBL_MANT_DIG __DBL_MANT_DIG__
#define FLT_DIG __FLT_DIG__
#define DBL_DIG __DBL_DIG__
#define FLT_MIN_EXP __FLT_MIN_EXP__
#define DBL_MIN_EXP __DBL_MIN_EXP__
#define FLT_MAX_EXP __FLT_MAX_EXP__
#define DBL_MAX_EXP __DBL_MAX_EXP__
#define FLT_MAX __FLT_MAX__
#define DBL_MAX __DBL_MAX__
#define FLT_MIN __FLT_MIN__
#define DBL_MIN __DBL_MIN__
#define FLT_EPSILON __FLT_EPSILON__
#define DBL_EPSILON __DBL_EPSILON__
#endif
)";

constexpr const char* kStdioH = R"(#pragma once
// warpsim stand-in for <stdio.h> under NVRTC: device printf is an NVRTC builtin.
)";

constexpr const char* kEmptyCH = "#pragma once\n";

constexpr std::array kHeaders{
    // C headers.
    SourceHeader{"math.h", kMathH},
    SourceHeader{"float.h", kFloatH},
    SourceHeader{"stdio.h", kStdioH},
    SourceHeader{"stdint.h", "#pragma once\n#include <cuda/std/cstdint>\n"},
    SourceHeader{"stddef.h", "#pragma once\n#include <cuda/std/cstddef>\n"},
    SourceHeader{"limits.h", "#pragma once\n#include <cuda/std/climits>\n"},
    SourceHeader{"assert.h", "#pragma once\n#include <cuda/std/cassert>\n"},
    SourceHeader{"stdlib.h", "#pragma once\n#include <cuda/std/cstdlib>\n"},
    SourceHeader{"string.h", "#pragma once\n#include <cuda/std/cstring>\n"},
    SourceHeader{"stdbool.h", kEmptyCH},
    // Their C++ forms, with the std:: names.
    SourceHeader{"cmath", "#pragma once\n#include <math.h>\n" WARPSIM_STD_SEES_CUDA_STD},
    SourceHeader{"cfloat", "#pragma once\n#include <float.h>\n"},
    SourceHeader{"cstdio", "#pragma once\n#include <stdio.h>\nnamespace std { using ::printf; }\n"},
    SourceHeader{"cstdint",
                 "#pragma once\n#include <cuda/std/cstdint>\n" WARPSIM_STD_SEES_CUDA_STD},
    SourceHeader{"cstddef",
                 "#pragma once\n#include <cuda/std/cstddef>\n" WARPSIM_STD_SEES_CUDA_STD},
    SourceHeader{"climits", "#pragma once\n#include <cuda/std/climits>\n"},
    SourceHeader{"cassert", "#pragma once\n#include <cuda/std/cassert>\n"},
    SourceHeader{"cstdlib",
                 "#pragma once\n#include <cuda/std/cstdlib>\n" WARPSIM_STD_SEES_CUDA_STD},
    SourceHeader{"cstring",
                 "#pragma once\n#include <cuda/std/cstring>\n" WARPSIM_STD_SEES_CUDA_STD},
    // C++ library headers libcu++ has.
    SourceHeader{"type_traits",
                 "#pragma once\n#include <cuda/std/type_traits>\n" WARPSIM_STD_SEES_CUDA_STD},
    SourceHeader{"utility",
                 "#pragma once\n#include <cuda/std/utility>\n" WARPSIM_STD_SEES_CUDA_STD},
    SourceHeader{"limits", "#pragma once\n#include <cuda/std/limits>\n" WARPSIM_STD_SEES_CUDA_STD},
    SourceHeader{"array", "#pragma once\n#include <cuda/std/array>\n" WARPSIM_STD_SEES_CUDA_STD},
    SourceHeader{"tuple", "#pragma once\n#include <cuda/std/tuple>\n" WARPSIM_STD_SEES_CUDA_STD},
    SourceHeader{"functional",
                 "#pragma once\n#include <cuda/std/functional>\n" WARPSIM_STD_SEES_CUDA_STD},
    SourceHeader{"bit", "#pragma once\n#include <cuda/std/bit>\n" WARPSIM_STD_SEES_CUDA_STD},
    SourceHeader{"numeric",
                 "#pragma once\n#include <cuda/std/numeric>\n" WARPSIM_STD_SEES_CUDA_STD},
    // <algorithm> itself is not in libcu++; kernels use its min/max/swap.
    SourceHeader{"algorithm",
                 "#pragma once\n#include <cuda/std/__algorithm/min.h>\n#include "
                 "<cuda/std/__algorithm/max.h>\n"
                 "#include <cuda/std/utility>\n" WARPSIM_STD_SEES_CUDA_STD},
};

#undef WARPSIM_STD_SEES_CUDA_STD

}  // namespace

std::span<const SourceHeader> device_std_headers() { return kHeaders; }

}  // namespace warpsim::gpu
