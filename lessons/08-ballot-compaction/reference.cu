// What both compaction kernels must compute: the positive values among the first n, in order,
// and how many there are.
#include <cuda_runtime.h>

__global__ void compact_reference(const int* in, int n, int* out, int* count) {
  int kept = 0;
  for (int i = 0; i < n; ++i)
    if (in[i] > 0) out[kept++] = in[i];
  *count = kept;
}
