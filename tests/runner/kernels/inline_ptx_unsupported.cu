// A PTX block whose second instruction warpsim does not run (an atomic): a lane that reaches the
// asm stops the launch at its own line, naming that instruction, rather than running half of the
// block; a kernel that never reaches it runs.
__device__ unsigned load_of(const unsigned* p, unsigned x) {
  unsigned r;
  asm volatile("{\n\t.reg .u32 t;\n\tadd.u32 t, %1, 1;\n\tatom.global.add.u32 %0, [%2], t;\n}\n"
               : "=r"(r)
               : "r"(x), "l"(p));
  return r;
}
__global__ void ptx_unsupported(unsigned* out) { out[threadIdx.x] = load_of(out, threadIdx.x); }
__global__ void ptx_not_reached(unsigned* out) { out[threadIdx.x] = threadIdx.x; }
