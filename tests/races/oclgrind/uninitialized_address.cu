// The pattern of Oclgrind's tests/kernels/uninitialized/uninitialized_address.cl, written for CUDA here
// (scripts/race_suites.py oclgrind runs it; docs/checks/oclgrind.md has the table).
// label: uninit_private: indices i and j are never set: a[i] and a[j] address a thread's own array with uninitialised values
// launch: --kernel uninitialized_address --grid 1 --block 1 --arg u64[1]:zeros
__global__ void uninitialized_address(unsigned long long* output) {
  int a[] = {1, 2, 3};
  volatile int i, j;
  a[i] = 4;
  output[0] = a[j];
}
