// The pattern of Oclgrind's tests/kernels/data-race/local_write_write_race.cl, written for CUDA here
// (scripts/race_suites.py oclgrind runs it; docs/checks/oclgrind.md has the table).
// label: race: every thread writes the one shared int before the barrier
// launch: --kernel local_write_write_race --grid 1 --block 4 --arg i32[4]:zeros
__global__ void local_write_write_race(int* data) {
  __shared__ int scratch;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  scratch = i;  // expect: race
  __syncthreads();
  data[i] = scratch;
}
