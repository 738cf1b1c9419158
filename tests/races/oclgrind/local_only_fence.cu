// The pattern of Oclgrind's tests/kernels/data-race/local_only_fence.cl, written for CUDA here
// (scripts/race_suites.py oclgrind runs it; docs/checks/oclgrind.md has the table).
// label: no_race: relabelled: OpenCL's barrier(CLK_LOCAL_MEM_FENCE) leaves the global scratch unordered (Oclgrind: race); CUDA's __syncthreads orders it
// launch: --kernel local_only_fence --grid 4 --block 4 --arg i32[16]:zeros --arg i32[4]:zeros
__global__ void local_only_fence(int* scratch, int* output) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  scratch[i] = i;
  __syncthreads();
  if (threadIdx.x == 0) {
    int x = 0;
    for (unsigned l = 0; l < blockDim.x; ++l) x += scratch[blockDim.x * blockIdx.x + l];
    output[blockIdx.x] = x;
  }
}
