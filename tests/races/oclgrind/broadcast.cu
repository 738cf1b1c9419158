// The pattern of Oclgrind's tests/kernels/data-race/broadcast.cl, written for CUDA here
// (scripts/race_suites.py oclgrind runs it; docs/checks/oclgrind.md has the table).
// label: no_race: every thread reads value[0]; each writes its own output element
// launch: --kernel broadcast --grid 1 --block 4 --arg i32[1]:42 --arg i32[4]:zeros
__global__ void broadcast(const int* value, int* output) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  output[i] = value[0];
}
