// Tensor-core matrix multiply-accumulate: not simulated, so including <mma.h> must stop the compile.
#include <mma.h>
__global__ void uses_wmma(float* out) { out[0] = 0; }
