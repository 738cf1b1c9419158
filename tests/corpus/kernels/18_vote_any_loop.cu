// Warp votes as loop control: the warp keeps iterating while __any_sync says some lane still
// has work, so every lane reaches every vote (the usual way to keep a data-dependent loop
// convergent). Here each lane counts the Collatz steps of its start value.
#include <cuda_runtime.h>

__global__ void collatz_steps(const unsigned int* start, unsigned int* steps,
                              unsigned int* warp_rounds, int* all_small) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int n = start[i];
  unsigned int count = 0;
  unsigned int rounds = 0;

  while (__any_sync(0xffffffff, n != 1)) {
    if (n != 1) {
      n = (n & 1) ? 3 * n + 1 : n / 2;
      ++count;
    }
    ++rounds;
  }
  steps[i] = count;
  if ((threadIdx.x & 31) == 0) warp_rounds[i / 32] = rounds;
  all_small[i] = __all_sync(0xffffffff, start[i] < 50);
}
