// Warp-level and bit snippets written in inline PTX, as libraries write them.
__device__ unsigned lane() {
  unsigned id;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
  return id;
}

__device__ float butterfly_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) {
    float other;
    asm volatile("shfl.sync.bfly.b32 %0, %1, %2, %3, %4;"
                 : "=f"(other)
                 : "f"(v), "r"(offset), "r"(0x1f), "r"(0xffffffff));
    v += other;
  }
  return v;
}

__global__ void ptx_warp(const float* in, float* sums, unsigned* bits) {
  const unsigned l = lane();
  sums[threadIdx.x] = butterfly_sum(in[threadIdx.x]);
  unsigned lt, field, perm, lop, total;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(field) : "r"(0xdeadbeefu), "r"(l % 28), "r"(4));
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(perm) : "r"(0x33221100u), "r"(0x77665544u), "r"(0x1707u));
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(lop) : "r"(l), "r"(0xf0f0f0f0u), "r"(0x0ff00ff0u));
  asm volatile("redux.sync.add.u32 %0, %1, %2;" : "=r"(total) : "r"(l), "r"(0xffffffffu));
  bits[5 * threadIdx.x + 0] = lt;
  bits[5 * threadIdx.x + 1] = field;
  bits[5 * threadIdx.x + 2] = perm;
  bits[5 * threadIdx.x + 3] = lop;
  bits[5 * threadIdx.x + 4] = total;
}
