// The pattern of Oclgrind's tests/kernels/uninitialized/uninitialized_local_array.cl, written for CUDA here
// (scripts/race_suites.py oclgrind runs it; docs/checks/oclgrind.md has the table).
// label: uninit_shared: thread 8 reads scratch[8], which no thread wrote (__shared__ array)
// launch: --kernel uninitialized_local_array --grid 1 --block 16 --arg f32[16]:zeros
__global__ void uninitialized_local_array(float* output) {
  __shared__ float scratch[16];
  const int i = threadIdx.x;
  if (i != static_cast<int>(blockDim.x / 2)) scratch[i] = i;
  output[i] = scratch[i];  // expect: uninit
}
