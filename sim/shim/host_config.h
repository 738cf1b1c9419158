// Stand-in for CUDA's <host_config.h> when a file is compiled for the simulator: its content comes
// with the shim (warpsim/cuda_shim.hpp, which also defines its include guard).
#pragma once
#include "warpsim/cuda_shim.hpp"
