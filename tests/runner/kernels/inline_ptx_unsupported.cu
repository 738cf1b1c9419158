// A ballot written as a PTX block (a predicate register, setp, vote): warpsim runs single
// instructions of a known set only, so this one fails to compile, naming the instruction.
__device__ unsigned ballot_of(int p) {
  unsigned r;
  asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.u32 q, %1, 0;\n\tvote.sync.ballot.b32 %0, q, 0xffffffff;\n}\n"
               : "=r"(r)
               : "r"(p));
  return r;
}
__global__ void ptx_unsupported(unsigned* out) { out[threadIdx.x] = ballot_of(threadIdx.x & 1); }
