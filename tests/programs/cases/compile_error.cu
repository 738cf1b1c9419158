// A typo in host code: the compiler's own message must reach the user.
#include <cuda_runtime.h>

__global__ void k(int* out) { out[threadIdx.x] = 1; }

int main() {
  int* out;
  cudaMalloc(&out, 32 * sizeof(int));
  k<<<1, 32>>>(out);
  return undeclared_variable;
}
