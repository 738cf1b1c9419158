// Stand-in for CUDA's <cuda_bf16.h> when a kernel file is compiled for the simulator.
#pragma once
#include "warpsim/cuda_shim.hpp"
#include "warpsim/bf16.hpp"
