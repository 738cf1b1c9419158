// The pattern of Oclgrind's tests/kernels/data-race/intergroup_race.cl, written for CUDA here
// (scripts/race_suites.py oclgrind runs it; docs/checks/oclgrind.md has the table).
// label: race: __syncthreads orders one block: thread 0 of block 0 reads data[1], which block 1 writes
// launch: --kernel intergroup_race --grid 2 --block 4 --arg i32[2]:zeros
__global__ void intergroup_race(int* data) {
  const int g = blockIdx.x;
  if (threadIdx.x == 0) data[g] = g;  // expect: race
  __syncthreads();
  if (blockIdx.x * blockDim.x + threadIdx.x == 0) {
    int x = 0;
    for (unsigned i = 0; i < gridDim.x; ++i) x += data[i];  // expect: race
    data[0] = x;  // expect: race
  }
}
