// Stand-in for cuRAND's <curand_kernel.h>: the device API of the default XORWOW generator
// (warpsim/curand_xorwow.hpp says what is exact).
#pragma once
#define CURAND_KERNEL_H_  // the toolkit header's include guard
#include "warpsim/cuda_shim.hpp"
#include "warpsim/curand_xorwow.hpp"
