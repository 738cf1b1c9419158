// Stand-in for CUDA's <vector_types.h> when a kernel file is compiled for the simulator.
#pragma once
#include "warpsim/cuda_shim.hpp"
