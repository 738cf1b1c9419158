// Reference solution of the exercise argmax (lessons/06-argmax-ballot).
#include <cuda_runtime.h>

__global__ void warp_argmax(const int* in, int* arg) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const int v = in[t];
  const int max_v = __reduce_max_sync(0xffffffff, v);            // every lane: the maximum
  const unsigned at_max = __ballot_sync(0xffffffff, v == max_v);  // the lanes that hold it
  if (lane == 0) arg[t / 32] = __ffs(at_max) - 1;                 // the lowest of them
}
