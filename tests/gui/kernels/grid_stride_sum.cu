// A grid-stride sum: each thread adds a strided slice; after every chunk each warp reduces its
// partial sums with shuffles and lane 0 adds the warp's total to the result. With --grid 10
// --block 256 and 320,000 elements in chunks of 2,560, the trace has 50,000 warp-level steps.
#include <cuda_runtime.h>

__global__ void grid_stride_sum(const float* in, float* out, int n) {
  const int stride = blockDim.x * gridDim.x;
  for (int base = 0; base < n; base += stride) {
    const int i = base + blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(out, v);
  }
}
