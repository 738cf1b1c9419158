// A macro's PTX that warpsim does not run: the launch stops where a lane reaches it, at the
// macro's use (line 11), naming the instruction, never the host assembler's "no such
// instruction"; a stringized qualifier warpsim does not run (.shared) is named at its use
// (line 17).
#define LOAD_SHARED(value, address) \
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(value) : "r"(address))
#define LOAD_HINTED(hint, value, pointer) \
  asm volatile("ld." #hint ".u32 %0, [%1];" : "=r"(value) : "l"(pointer))
__global__ void ptx_macro_unsupported(unsigned* out) {
  unsigned v;
  LOAD_SHARED(v, 0u);
  out[threadIdx.x] = v;
}

__global__ void ptx_macro_hint_unsupported(unsigned* out) {
  unsigned w;
  LOAD_HINTED(shared, w, out);
  out[threadIdx.x] = w;
}
