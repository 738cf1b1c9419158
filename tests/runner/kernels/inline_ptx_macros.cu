// Inline PTX written in macros: the runner translates asm inside #define bodies too, a
// macro's parameters as operands and a stringized parameter as an ld's or st's cache hint.
#define LANE_ID(r) asm volatile("mov.u32 %0, %%laneid;" : "=r"(r))
#define BALLOT(result, predicate)                                  \
  asm volatile("{\n\t.reg .pred p;\n\t"                            \
               "setp.ne.u32 p, %1, 0;\n\t"                         \
               "vote.sync.ballot.b32 %0, p, 0xffffffff;\n}"        \
               : "=r"(result)                                      \
               : "r"(predicate));
#define LOAD_HINTED(hint, value, pointer) \
  asm volatile("ld." #hint ".u32 %0, [%1];" : "=r"(value) : "l"(pointer))
#define STORE_HINTED(hint, pointer, value) \
  asm volatile("st." #hint ".u32 [%0], %1;" ::"l"(pointer), "r"(value) : "memory")

// Per lane: out[4 * lane + 0] = %laneid, + 1 = the ballot of odd in[] values, + 2 = in[lane]
// loaded with ld.cg, + 3 = in[31 - lane] loaded with ld.global.nc, stored with st.cs / st.wt.
__global__ void ptx_macros(const unsigned* in, unsigned* out) {
  unsigned lane, ballot, cached, other;
  LANE_ID(lane);
  if (lane < 32) BALLOT(ballot, in[lane] & 1u)
  LOAD_HINTED(cg, cached, in + lane);
  LOAD_HINTED(global.nc, other, in + 31 - lane);
  out[4 * lane] = lane;
  out[4 * lane + 1] = ballot;
  STORE_HINTED(cs, out + 4 * lane + 2, cached);
  STORE_HINTED(wt, out + 4 * lane + 3, other);
}
