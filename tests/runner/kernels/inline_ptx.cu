// A lane id read with inline PTX, as libraries write it: warpsim does not simulate PTX and says so.
__device__ unsigned lane_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
  return id;
}
__global__ void ptx_lane_id(unsigned* out) { out[threadIdx.x] = lane_id(); }
