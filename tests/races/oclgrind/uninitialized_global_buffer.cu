// The pattern of Oclgrind's tests/kernels/uninitialized/uninitialized_global_buffer.cl, written for CUDA here
// (scripts/race_suites.py oclgrind runs it; docs/checks/oclgrind.md has the table).
// label: uninit_global: reads a cudaMalloc'd buffer nothing wrote: `warpsim run` fills every buffer from its --arg, and the uninit check covers __shared__ memory only
// launch: --kernel uninitialized_global_buffer --grid 1 --block 1 --arg f32[1]:zeros --arg f32[1]:zeros
__global__ void uninitialized_global_buffer(const float* input, float* output) {
  output[blockIdx.x * blockDim.x + threadIdx.x] = *input;
}
