// The kernels of run_on_gpu_kernels.cuh for the simulator, compiled once against the host shim.
#include "warpsim/cuda_shim.hpp"
// The shim first: it defines __global__, threadIdx, the intrinsics.
#include "run_on_gpu_kernels.cuh"

// The instantiations the tests launch.
template void tiles::reduce<16>(const int*, int*, float*);
template void tiles::reduce<8>(const int*, int*, float*);
