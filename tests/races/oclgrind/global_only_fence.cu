// The pattern of Oclgrind's tests/kernels/data-race/global_only_fence.cl, written for CUDA here
// (scripts/race_suites.py oclgrind runs it; docs/checks/oclgrind.md has the table).
// label: no_race: relabelled: OpenCL's barrier(CLK_GLOBAL_MEM_FENCE) leaves local memory unordered (Oclgrind: race); CUDA's __syncthreads orders shared memory too
// launch: --kernel global_only_fence --grid 4 --block 4 --arg i32[4]:zeros
__global__ void global_only_fence(int* output) {
  __shared__ int scratch[4];
  const int l = threadIdx.x;
  scratch[l] = l;
  __syncthreads();
  if (l == 0) {
    int x = 0;
    for (unsigned i = 0; i < blockDim.x; ++i) x += scratch[i];
    output[blockIdx.x] = x;
  }
}
