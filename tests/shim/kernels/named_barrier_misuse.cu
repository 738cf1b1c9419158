// Named barriers used wrongly: each kernel must stop the launch with a message that says what is
// wrong, never hang. Launch each with one block of 96 threads.

__global__ void count_not_warps(int* out) {
  __barrier_sync_count(1, 48);
  out[threadIdx.x] = 1;
}

__global__ void id_out_of_range(int* out) {
  __barrier_sync(16);
  out[threadIdx.x] = 1;
}

__global__ void count_over_block(int* out) {
  __barrier_sync_count(1, 128);
  out[threadIdx.x] = 1;
}

// Warps 0 and 1 wait for 96 threads at barrier 1; warp 2 returns at once.
__global__ void too_few_arrive(int* out) {
  if (threadIdx.x >= 64) return;
  __barrier_sync_count(1, 96);
  out[threadIdx.x] = 1;
}

// Three warps at a barrier of 64 threads: the first two pass, the last waits for good.
__global__ void more_than_count(int* out) {
  __barrier_sync_count(1, 64);
  out[threadIdx.x] = 1;
}

// Lanes 0-15 of each warp wait at barrier 1, lanes 16-31 at barrier 2.
__global__ void warp_split(int* out) {
  if (threadIdx.x % 32 < 16) {
    __barrier_sync(1);
  } else {
    __barrier_sync(2);
  }
  out[threadIdx.x] = 1;
}

// Warp 0 passes a count of 64, warp 1 a count of 96, at the same barrier.
__global__ void counts_disagree(int* out) {
  if (threadIdx.x < 32) {
    __barrier_sync_count(4, 64);
  } else if (threadIdx.x < 64) {
    __barrier_sync_count(4, 96);
  }
  out[threadIdx.x] = 1;
}
