// The pattern of Oclgrind's tests/kernels/data-race/intragroup_hidden_race.cl, written for CUDA here
// (scripts/race_suites.py oclgrind runs it; docs/checks/oclgrind.md has the table).
// label: no_race: relabelled: OpenCL's barrier(CLK_LOCAL_MEM_FENCE) leaves global memory unordered (Oclgrind: race); CUDA's __syncthreads orders the block's global accesses too
// launch: --kernel intragroup_hidden_race --grid 1 --block 2 --arg i32[1]:42 --arg i32[2]:zeros
__global__ void intragroup_hidden_race(int* data, int* output) {
  const int id = threadIdx.x;
  output[id] = data[0];
  __syncthreads();
  if (id == 0) data[0] = -1;
}
