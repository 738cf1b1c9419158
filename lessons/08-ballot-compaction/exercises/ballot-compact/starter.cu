// Exercise ballot-compact (lesson 08, ballot compaction): see statement.md.
// Grade it with:  warpsim grade ballot-compact starter.cu
#include <cuda_runtime.h>

__global__ void ballot_compact(const int* in, int* out, int* count, int n) {
  const int tid = threadIdx.x;
  const int lane = tid % 32;
  const int v = tid < n ? in[tid] : 0;
  const bool keep = tid < n && v > 0;

  // TODO: write the kept values to out[0], out[1], ... in their original order, across every
  // warp of the block, and the number kept to *count.
  (void)lane;
  (void)keep;
  (void)out;
  (void)count;
}
