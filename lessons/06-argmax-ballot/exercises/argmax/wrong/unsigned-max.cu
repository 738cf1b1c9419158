// Wrong: the unsigned overload of __reduce_max_sync compares bit patterns as unsigned, so -1
// (0xffffffff) is the largest value there is.
#include <cuda_runtime.h>

__global__ void warp_argmax(const int* in, int* arg) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned v = static_cast<unsigned>(in[t]);
  const unsigned max_v = __reduce_max_sync(0xffffffff, v);
  const unsigned at_max = __ballot_sync(0xffffffff, v == max_v);
  if (threadIdx.x % 32 == 0) arg[t / 32] = __ffs(at_max) - 1;
}
