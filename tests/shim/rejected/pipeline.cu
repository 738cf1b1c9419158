// Asynchronous copies: not simulated, so including <cuda_pipeline.h> must stop the compile.
#include <cuda_pipeline.h>
__global__ void uses_pipeline(float* out) { out[0] = 0; }
