// A macro's PTX that warpsim does not run: the compile error names the instruction at the
// macro's definition (line 6), GCC's "in expansion of macro" note at its use (line 11), never
// the host assembler's "no such instruction"; a stringized qualifier warpsim does not run
// (.shared, line 12) is named at the use.
#define LOAD_SHARED(value, address) \
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(value) : "r"(address))
#define LOAD_HINTED(hint, value, pointer) \
  asm volatile("ld." #hint ".u32 %0, [%1];" : "=r"(value) : "l"(pointer))
__global__ void ptx_macro_unsupported(unsigned* out) {
  unsigned v, w;
  LOAD_SHARED(v, 0u);
  LOAD_HINTED(shared, w, out);
  out[threadIdx.x] = v + w;
}
