// Stand-in for CUDA's <cuda_fp16.h> when a kernel file is compiled for the simulator.
#pragma once
#define __CUDA_FP16_H__  // the toolkit header's include guard
#define __CUDA_FP16_HPP__
#include "warpsim/cuda_shim.hpp"
#include "warpsim/fp16.hpp"
