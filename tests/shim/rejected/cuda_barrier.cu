// cuda::barrier would block every lane of the block at once: including it must stop the compile.
#include <cuda/barrier>
__global__ void uses_barrier(float* out) { out[0] = 0; }
