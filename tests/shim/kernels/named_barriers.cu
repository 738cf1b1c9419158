// Named barriers (bar.sync id, count), checked lane by lane in the simulator and on a GPU
// (tests/shim/record_named_barriers.sh). Launch each kernel with one block of 96 threads.

// Warp 0 produces into shared memory, warp 1 consumes after named barrier 1 with a count of 64,
// and warp 2 never waits there: it spins until the consumer raises a flag, which it can only do
// if barrier 1 completed while warp 2 was still running.
// out[t]: warp 0: 1 + lane^2 (what it produced); warp 1: 1000 + what lane produced;
//         warp 2: 2000 + the flag it saw (1).
__global__ void producer_consumer(int* out) {
  __shared__ int slot[32];
  __shared__ int flag;
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x == 0) flag = 0;
  __syncthreads();
  if (warp == 0) {
    slot[lane] = static_cast<int>(lane * lane + 1);
    __barrier_sync_count(1, 64);
    out[threadIdx.x] = slot[lane];
  } else if (warp == 1) {
    __barrier_sync_count(1, 64);
    out[threadIdx.x] = 1000 + slot[lane];
    __syncwarp();
    if (lane == 0) atomicExch(&flag, 1);
  } else {
    int seen = 0;
    while ((seen = atomicAdd(&flag, 0)) == 0) {
    }
    out[threadIdx.x] = 2000 + seen;
  }
}

// The lanes of warp 0 reach barrier 2 at two different lines (bar.sync waits for every
// non-exited lane of its warp, wherever it is: no .aligned), warp 1 at a third, warp 2 never.
// out[t] = 10 * (value written before the barrier by thread t ^ 32) + 1 for warps 0 and 1.
__global__ void diverged_arrival(int* out) {
  __shared__ int before[64];
  const unsigned t = threadIdx.x;
  if (t < 64) before[t] = static_cast<int>(t) + 7;
  if (t < 16) {
    __barrier_sync_count(2, 64);
  } else if (t < 32) {
    __barrier_sync_count(2, 64);
  } else if (t < 64) {
    __barrier_sync_count(2, 64);
  } else {
    out[t] = -1;
    return;
  }
  out[t] = 10 * before[t ^ 32] + 1;
}

// __barrier_sync(id) without a count waits for every warp of the block, like __syncthreads, at
// its own barrier: each warp writes, barrier 3, each thread reads its mirror thread's value.
__global__ void whole_block(int* out) {
  __shared__ int value[96];
  const unsigned t = threadIdx.x;
  value[t] = static_cast<int>(3 * t + 1);
  __barrier_sync(3);
  out[t] = value[95 - t];
}
