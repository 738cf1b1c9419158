// %pm0-%pm3 before and after a loop, per thread: an H100 reads 0 from all of them in a plain run
// (docs/gpu-runs/named-barriers.txt); warpsim has no profiler to program them either.
#include <cuda_runtime.h>

__global__ void perf_counters(unsigned* out, int n) {
  const unsigned before[4] = {__pm0(), __pm1(), __pm2(), __pm3()};
  float x = threadIdx.x;
  for (int i = 0; i < n; ++i) x = x * 0.5f + 1.0f;
  const unsigned after[4] = {__pm0(), __pm1(), __pm2(), __pm3()};
  for (int k = 0; k < 4; ++k) {
    out[threadIdx.x * 8 + k] = before[k];
    out[threadIdx.x * 8 + 4 + k] = after[k] + (x < 0 ? 1u : 0u);
  }
}
