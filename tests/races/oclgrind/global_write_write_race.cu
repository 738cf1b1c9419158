// The pattern of Oclgrind's tests/kernels/data-race/global_write_write_race.cl, written for CUDA here
// (scripts/race_suites.py oclgrind runs it; docs/checks/oclgrind.md has the table).
// label: race: every thread writes data[0] (global memory)
// launch: --kernel global_write_write_race --grid 1 --block 4 --arg i32[1]:zeros
__global__ void global_write_write_race(int* data) {
  data[0] = blockIdx.x * blockDim.x + threadIdx.x;  // expect: race
}
