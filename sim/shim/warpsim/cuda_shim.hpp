// The host face of CUDA for kernel files: included before a kernel file (g++ -include), it makes
// ordinary CUDA C++ device code compile with the system compiler and run in the simulator.
// Nothing in a kernel file is written for the simulator.
#pragma once

// First: nvcc defines __CUDACC__ and __CUDA_ARCH__ before any header is read (glibc and other
// libraries look at them).
#include "warpsim/arch.hpp"

#include <cmath>
// The C++ <math.h>: CUDA's global math overloads (isnan, signbit, sqrt(float), ...) are found
// unqualified in device code, as nvcc's math_functions.h declares them.
#include <math.h>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <climits>
#include <cfloat>

#include "warpsim/keywords.hpp"
#include "warpsim/runtime_types.hpp"
#include "warpsim/vector_types.hpp"
#include "warpsim/half_types.hpp"
#include "warpsim/host_runtime.hpp"
#include "warpsim/warp_intrinsics.hpp"
#include "warpsim/atomics.hpp"
#include "warpsim/device_math.hpp"
#include "warpsim/float_intrinsics.hpp"
#include "warpsim/integer_intrinsics.hpp"
#include "warpsim/simd_intrinsics.hpp"
#include "warpsim/memory_intrinsics.hpp"
#include "warpsim/device_printf.hpp"
#include "warpsim/inline_ptx.hpp"
