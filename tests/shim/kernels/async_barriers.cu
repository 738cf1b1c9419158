// cuda::barrier<thread_scope_block> and cuda::pipeline: phases that order the warps of a block,
// arrive_and_drop, copies bound to a barrier or a pipeline, a block pipeline with producer and
// consumer warps, and barriers that can never complete (each stops as a named deadlock).
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/pipeline>

namespace cg = cooperative_groups;

// 96 threads, three phases: each thread publishes a value, waits for the phase, and reads a
// value of the next warp; the second wait keeps the next round from overwriting it too early.
__global__ void phases(int* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ int published[96];
  const int t = threadIdx.x;
  if (t == 0) init(&bar, blockDim.x);
  __syncthreads();
  int sum = 0;
  for (int round = 0; round < 3; ++round) {
    if (t >= 64) {  // the last warp is slow: the others wait for it
      for (volatile int spin = 0; spin < 1000; spin = spin + 1) {
      }
    }
    published[t] = t * 10 + round;
    auto token = bar.arrive();
    bar.wait(std::move(token));
    sum += published[(t + 32) % 96];
    bar.arrive_and_wait();
  }
  out[t] = sum;
}

// 64 threads: warp 1 arrives once and drops out; warp 0 then completes phases alone.
__global__ void dropped(int* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x >= 32) {
    bar.arrive_and_drop();
    return;
  }
  bar.arrive_and_wait();  // phase 0: 32 arrivals and 32 drops
  bar.arrive_and_wait();  // phase 1 expects 32
  bar.arrive_and_wait();
  out[threadIdx.x] = 3;
}

// One more arrival expected than there are threads: every thread waits forever.
__global__ void never_completes(int* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x + 1);
  __syncthreads();
  bar.arrive_and_wait();
  out[threadIdx.x] = 1;
}

// Each thread copies one int into shared memory, bound to the barrier's phase; after the phase
// every thread reads another thread's copy.
__global__ void copy_with_barrier(const int* in, int* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ int tile[64];
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  cuda::memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], sizeof(int), bar);
  bar.arrive_and_wait();
  out[threadIdx.x] = tile[63 - threadIdx.x];
}

// A thread's own pipeline, with an aligned shape.
__global__ void copy_with_pipeline(const int* in, int* out) {
  __shared__ int tile[64];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], cuda::aligned_size_t<4>(sizeof(int)),
                     pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  __syncthreads();
  out[threadIdx.x] = tile[63 - threadIdx.x];
  pipe.consumer_release();
}

// 64 threads: warp 1 produces six batches of 32 ints through two stages, warp 0 consumes them.
__global__ void producer_consumer(const int* in, int* out) {
  constexpr int stages = 2;
  __shared__ int buffer[stages][32];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, stages> state;
  const bool producer = threadIdx.x >= 32;
  auto pipe = cuda::make_pipeline(cg::this_thread_block(), &state,
                                  producer ? cuda::pipeline_role::producer
                                           : cuda::pipeline_role::consumer);
  const int lane = threadIdx.x % 32;
  int sum = 0;
  for (int batch = 0; batch < 6; ++batch) {
    if (producer) {
      pipe.producer_acquire();
      cuda::memcpy_async(&buffer[batch % stages][lane], &in[batch * 32 + lane], sizeof(int), pipe);
      pipe.producer_commit();
    } else {
      pipe.consumer_wait();
      sum += buffer[batch % stages][(lane + 1) % 32];
      pipe.consumer_release();
    }
  }
  if (!producer) out[lane] = sum;
}

// The consumers wait for a stage the producers never commit.
__global__ void stage_never_committed(int* out) {
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  const bool producer = threadIdx.x >= 32;
  auto pipe = cuda::make_pipeline(cg::this_thread_block(), &state,
                                  producer ? cuda::pipeline_role::producer
                                           : cuda::pipeline_role::consumer);
  if (!producer) {
    pipe.consumer_wait();
    out[threadIdx.x] = 1;
  }
}
