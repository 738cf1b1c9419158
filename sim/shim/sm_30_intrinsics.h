// Stand-in for CUDA's <sm_30_intrinsics.h> when a kernel file is compiled for the simulator.
#pragma once
#include "warpsim/cuda_shim.hpp"
