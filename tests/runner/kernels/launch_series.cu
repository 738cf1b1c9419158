// One kernel that ends as `mode` says, for a series of launches in one kernel host
// (KernelFileRunner): 0 completes, writing its lane numbers and how many launches this process
// has seen (always 1: each launch has a process of its own); 1 writes through a null pointer
// (line 15); 2 spins forever; 3 exits the process without a report.
#include <cstdlib>

__device__ int launches_seen = 0;

__global__ void series(int* out, int mode) {
  const int lane = threadIdx.x % 32;
  if (lane == 0) out[32] = atomicAdd(&launches_seen, 1) + 1;
  __syncwarp();
  if (mode == 1 && lane == 3) {
    int* target = nullptr;
    target[0] = lane;
  }
  if (mode == 2 && lane == 0) {
    volatile int spin = 0;
    for (;;) spin = spin + 1;
  }
  if (mode == 3 && lane == 0) exit(0);
  out[lane] = lane;
}
