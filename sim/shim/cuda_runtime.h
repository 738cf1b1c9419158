// Stand-in for CUDA's <cuda_runtime.h> when a kernel file is compiled for the simulator.
#pragma once
#include "warpsim/cuda_shim.hpp"
