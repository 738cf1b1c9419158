// Half precision: two values per lane packed in a __half2, multiplied pairwise with __hmul2 and
// summed across the warp with __half2 butterfly shuffles (one 32-bit shuffle moves both halves).
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void half2_dot(const float* a, const float* b, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const __half2 x = __floats2half2_rn(a[2 * i], a[2 * i + 1]);
  const __half2 y = __floats2half2_rn(b[2 * i], b[2 * i + 1]);

  __half2 p = __hmul2(x, y);
  for (int mask = 16; mask > 0; mask >>= 1) p = __hadd2(p, __shfl_xor_sync(0xffffffff, p, mask));

  out[i] = __low2float(p) + __high2float(p);
}
