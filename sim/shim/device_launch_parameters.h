// Stand-in for CUDA's <device_launch_parameters.h> when a kernel file is compiled for the simulator.
#pragma once
#include "warpsim/cuda_shim.hpp"
