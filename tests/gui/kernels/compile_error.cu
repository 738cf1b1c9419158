// A kernel that does not compile: the GUI shows the compiler's message on its line.
#include <cuda_runtime.h>

__global__ void broken(const int* in, int* out) {
  int v = in[threadIdx.x];
  v += __shfl_xor_sync(0xffffffff, w, 16);
  out[threadIdx.x] = v;
}
