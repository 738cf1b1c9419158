// Stand-in for CUDA's <cuda_device_runtime_api.h> when a kernel file is compiled for the simulator.
#pragma once
#include "warpsim/cuda_shim.hpp"
