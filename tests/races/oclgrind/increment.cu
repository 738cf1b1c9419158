// The pattern of Oclgrind's tests/kernels/data-race/increment.cl, written for CUDA here
// (scripts/race_suites.py oclgrind runs it; docs/checks/oclgrind.md has the table).
// label: no_race: each thread reads and writes its own element
// launch: --kernel increment --grid 1 --block 4 --arg i32[4]:iota
__global__ void increment(int* data) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] = data[i] + 1;
}
