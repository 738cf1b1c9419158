// Stand-in for CUDA's <cuda_bf16.h> when a kernel file is compiled for the simulator.
#pragma once
#define __CUDA_BF16_H__  // the toolkit header's include guard
#define __CUDA_BF16_HPP__
#include "warpsim/cuda_shim.hpp"
#include "warpsim/bf16.hpp"
