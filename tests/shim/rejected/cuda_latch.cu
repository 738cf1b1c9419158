// cuda::latch is not simulated: including it must stop the compile, naming the header.
#include <cuda/latch>
__global__ void uses_latch(float* out) { out[0] = 0; }
