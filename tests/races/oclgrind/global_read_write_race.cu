// The pattern of Oclgrind's tests/kernels/data-race/global_read_write_race.cl, written for CUDA here
// (scripts/race_suites.py oclgrind runs it; docs/checks/oclgrind.md has the table).
// label: race: thread i reads data[i - 1], which thread i - 1 writes, unordered (global memory)
// launch: --kernel global_read_write_race --grid 1 --block 4 --arg i32[4]:iota
__global__ void global_read_write_race(int* data) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0) data[i] = data[i - 1];  // expect: race
}
