// Spin-waits that complete on every Volta+ GPU (independent thread scheduling), and one that
// never can. Line numbers are checked by tests/runner/forward_progress_test.cpp.

// Lane 0 waits for lane 5, a later lane of its own warp; then the whole warp meets at a shuffle.
__global__ void lane_waits_for_later_lane(volatile int* flag, int* out) {
  const int lane = threadIdx.x;
  if (lane == 0) {
    while (flag[0] == 0) {
    }
    out[0] = flag[0] + 1;
  } else if (lane == 5) {
    flag[0] = 42;
  }
  out[lane + 1] = __shfl_sync(0xffffffff, lane * 2, 31 - lane);
}

// Warps 0 and 1 of one block take turns `rounds` times: warp 0 waits for warp 1 first, each
// writes its round's values where the other reads them, then hands the turn over.
__global__ void warps_take_turns(volatile int* turn, int* data, int* out, int rounds) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int round = 0; round < rounds; ++round) {
    if (warp == 1) {
      data[lane] = round * 100 + lane;
      __threadfence();
      __syncwarp();
      if (lane == 0) turn[0] = 2 * round + 1;
      do {
      } while (turn[0] != 2 * round + 2);
    } else {
      while (turn[0] != 2 * round + 1) {
      }
      out[round * 32 + lane] = data[lane] + __shfl_xor_sync(0xffffffff, data[lane], 1);
      __syncwarp();
      if (lane == 0) turn[0] = 2 * round + 2;
    }
  }
}

// The classic lock that only independent thread scheduling makes safe within a warp: every lane
// takes it in turn, and the holder is preempted inside its long critical section while the other
// lanes spin on atomicCAS.
__global__ void lock_per_lane(int* lock, volatile int* counter, int work) {
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  const int seen = counter[0];
  int busy = 0;
  for (int i = 0; i < work; ++i) busy += i & 1;
  counter[0] = seen + static_cast<int>(threadIdx.x) + 1 + (busy - work / 2);
  __threadfence();
  atomicExch(lock, 0);
}

// A true livelock: every lane waits for a flag that no one sets, after one shuffle.
__global__ void wait_forever(volatile int* flag, int* out) {
  out[threadIdx.x] = __shfl_sync(0xffffffff, static_cast<int>(threadIdx.x), 0);
  while (flag[0] == 0) {
  }
}
