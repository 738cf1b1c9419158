// nvcc flags: -rdc=true
// Kernels launching kernels (CUDA 12's dynamic parallelism), checked by results that hold in
// every order CUDA allows: a recursive sum over a tree of grids, children copying their
// arguments at the launch, launches into one device stream running in launch order, and a tail
// launch running after its parent grid and the parent's other children.
#include <cstdio>

#include "check.cuh"

// Each of `count` values is summed by a tree of grids: a grid of two threads splits its range in
// two and launches one child per half, down to ranges of one value, added to *total.
__global__ void tree_sum(const int* values, int first, int count, unsigned long long* total,
                         int* deepest, int depth) {
  atomicMax(deepest, depth);
  if (count == 1) {
    if (threadIdx.x == 0) atomicAdd(total, static_cast<unsigned long long>(values[first]));
    return;
  }
  const int half = count / 2;
  const int start = threadIdx.x == 0 ? first : first + half;
  const int size = threadIdx.x == 0 ? half : count - half;
  tree_sum<<<1, 2>>>(values, start, size, total, deepest, depth + 1);
}

// Appends `value` to the log: its slot says when it ran among the log's writers.
__global__ void append(int* log, int* next, int value) {
  if (threadIdx.x == 0) log[atomicAdd(next, 1)] = value;
}

// Records, when it runs, how many entries all blocks' logs hold: a tail launch runs after its
// parent grid has completed, so every child of every block of the parent has run by then.
__global__ void after_parent(const int* nexts, int blocks, int* seen_at_tail) {
  int entries = 0;
  for (int b = 0; b < blocks; ++b) entries += nexts[b];
  *seen_at_tail = entries;
}

// Block b's thread 0 launches four appends into one non-blocking stream, one by value of a local
// it changes right after the launch (arguments are copied at the launch), then a tail launch.
__global__ void launcher(int* logs, int* nexts, int* seen_at_tail, int* errors) {
  if (threadIdx.x != 0) return;
  int* log = logs + 4 * blockIdx.x;
  int* next = nexts + blockIdx.x;
  cudaStream_t stream;
  if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess) atomicAdd(errors, 1);
  int value = 0;
  for (int i = 0; i < 4; ++i) {
    append<<<1, 32, 0, stream>>>(log, next, value);
    value += 10;
  }
  cudaStreamDestroy(stream);
  after_parent<<<1, 1, 0, cudaStreamTailLaunch>>>(nexts, gridDim.x, seen_at_tail + blockIdx.x);
  if (cudaGetLastError() != cudaSuccess) atomicAdd(errors, 1);
}

int main() {
  const int count = 37;
  int host_values[count];
  unsigned long long expected = 0;
  for (int i = 0; i < count; ++i) {
    host_values[i] = 3 * i + 1;
    expected += static_cast<unsigned long long>(host_values[i]);
  }
  int* values;
  unsigned long long* total;
  int* deepest;
  CHECK(cudaMalloc(&values, sizeof host_values));
  CHECK(cudaMalloc(&total, sizeof *total));
  CHECK(cudaMalloc(&deepest, sizeof *deepest));
  CHECK(cudaMemcpy(values, host_values, sizeof host_values, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(total, 0, sizeof *total));
  CHECK(cudaMemset(deepest, 0, sizeof *deepest));
  tree_sum<<<1, 2>>>(values, 0, count, total, deepest, 0);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  unsigned long long host_total = 0;
  int host_deepest = 0;
  CHECK(cudaMemcpy(&host_total, total, sizeof host_total, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&host_deepest, deepest, sizeof host_deepest, cudaMemcpyDeviceToHost));
  std::printf("tree sum %llu (expected %llu), deepest grid at depth %d\n", host_total, expected,
              host_deepest);
  bool passed = host_total == expected && host_deepest == 6;

  const int blocks = 3;
  int *logs, *nexts, *seen_at_tail, *errors;
  CHECK(cudaMalloc(&logs, 4 * blocks * sizeof(int)));
  CHECK(cudaMalloc(&nexts, blocks * sizeof(int)));
  CHECK(cudaMalloc(&seen_at_tail, blocks * sizeof(int)));
  CHECK(cudaMalloc(&errors, sizeof(int)));
  CHECK(cudaMemset(nexts, 0, blocks * sizeof(int)));
  CHECK(cudaMemset(seen_at_tail, 0, blocks * sizeof(int)));
  CHECK(cudaMemset(errors, 0, sizeof(int)));
  launcher<<<blocks, 64>>>(logs, nexts, seen_at_tail, errors);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int host_logs[4 * blocks], host_seen[blocks], host_errors = 0;
  CHECK(cudaMemcpy(host_logs, logs, sizeof host_logs, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(host_seen, seen_at_tail, sizeof host_seen, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&host_errors, errors, sizeof host_errors, cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    std::printf("block %d: stream order %d %d %d %d, its tail launch saw %d of %d appends\n", b,
                host_logs[4 * b], host_logs[4 * b + 1], host_logs[4 * b + 2], host_logs[4 * b + 3],
                host_seen[b], 4 * blocks);
    for (int i = 0; i < 4; ++i) passed = passed && host_logs[4 * b + i] == 10 * i;
    passed = passed && host_seen[b] == 4 * blocks;
  }
  std::printf("device-side launch errors: %d\n", host_errors);
  passed = passed && host_errors == 0;
  return report(passed);
}
