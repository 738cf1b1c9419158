// The kernels of kernels.cuh compiled once, against the host shim.
#include "warpsim/cuda_shim.hpp"
// The shim first: it defines __global__, threadIdx, the intrinsics.
#include "kernels.cuh"
