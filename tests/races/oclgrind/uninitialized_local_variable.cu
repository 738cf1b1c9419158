// The pattern of Oclgrind's tests/kernels/uninitialized/uninitialized_local_variable.cl, written for CUDA here
// (scripts/race_suites.py oclgrind runs it; docs/checks/oclgrind.md has the table).
// label: uninit_shared: a __shared__ int written only when *output > 0 (it is 0), then read
// launch: --kernel uninitialized_local_variable --grid 1 --block 1 --arg i32[1]:zeros
__global__ void uninitialized_local_variable(int* output) {
  __shared__ int x;
  if (*output > 0) x = *output;
  *output = x;  // expect: uninit
}
