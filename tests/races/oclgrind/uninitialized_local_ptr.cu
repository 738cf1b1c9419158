// The pattern of Oclgrind's tests/kernels/uninitialized/uninitialized_local_ptr.cl, written for CUDA here
// (scripts/race_suites.py oclgrind runs it; docs/checks/oclgrind.md has the table).
// label: uninit_shared: the same through dynamic shared memory (extern __shared__)
// launch: --kernel uninitialized_local_ptr --grid 1 --block 16 --shared 64 --arg f32[16]:zeros
__global__ void uninitialized_local_ptr(float* output) {
  extern __shared__ float scratch[];
  const int i = threadIdx.x;
  if (i != static_cast<int>(blockDim.x / 2)) scratch[i] = i;
  output[i] = scratch[i];  // expect: uninit
}
