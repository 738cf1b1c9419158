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

// Multi-instruction blocks as cub, CUTLASS and llm.c write them. Each slot s of `out` holds, for
// lane l, the PTX result at out[64 * s + 2 * l] and what CUDA's intrinsics (or plain C++) give at
// out[64 * s + 2 * l + 1]: the two must agree lane by lane, on warpsim and on a GPU.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__device__ void record(unsigned* out, int slot, unsigned ptx, unsigned reference) {
  out[64 * slot + 2 * (threadIdx.x % 32)] = ptx;
  out[64 * slot + 2 * (threadIdx.x % 32) + 1] = reference;
}

__global__ void ptx_blocks(const int* in, unsigned* out) {
  const unsigned full = 0xffffffffu, lane = threadIdx.x % 32;
  const int v = in[lane];
  unsigned r = 0, p = 0;
  // 0-3: votes through a predicate register
  asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, %2; }" : "=r"(r) : "r"(v & 1), "r"(full));
  record(out, 0, r, __ballot_sync(full, v & 1));
  asm volatile("{ .reg .pred p; setp.gt.s32 p, %1, 900; vote.sync.any.pred p, p, %2; selp.s32 %0, 1, 0, p; }" : "=r"(r) : "r"(v), "r"(full));
  record(out, 1, r, __any_sync(full, v > 900));
  asm volatile("{ .reg .pred p; setp.ge.s32 p, %1, -1000; vote.sync.all.pred p, p, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "r"(v), "r"(full));
  record(out, 2, r, __all_sync(full, v >= -1000));
  asm volatile("{ .reg .pred p; setp.lt.u32 p, %1, 16; vote.sync.uni.pred p, !p, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "r"(lane), "r"(full));
  record(out, 3, r, __uni_sync(full, !(lane < 16)));
  // 4-5: cub's ShuffleDown step: the predicate output guards the add; clamp 31, then clamp 20
  for (unsigned clamp = 31, slot = 4; slot <= 5; clamp = 20, ++slot) {
    asm volatile("{ .reg .u32 r0; .reg .pred p; shfl.sync.down.b32 r0|p, %1, %2, %3, %5; @p add.u32 r0, r0, %4; mov.u32 %0, r0; }"
                 : "=r"(r) : "r"(v), "r"(2), "r"(clamp), "r"(v), "r"(full));
    const int moved = __shfl_down_sync(full, v, 2);
    record(out, slot, r, lane + 2 <= clamp ? moved + v : v);
  }
  // 6-7: shfl.sync.up over segments of 8, value and predicate
  asm volatile("{ .reg .pred q; shfl.sync.up.b32 %0|q, %2, 3, 0x1800, %3; selp.u32 %1, 1, 0, q; }" : "=r"(r), "=r"(p) : "r"(v), "r"(full));
  record(out, 6, r, __shfl_up_sync(full, v, 3, 8));
  record(out, 7, p, lane % 8 >= 3);
  // 8: a shuffle that PTX's guard limits to lanes 0-15, whose mask names just those
  r = 7;
  asm volatile("{ .reg .pred p; setp.lt.u32 p, %1, 16; @p shfl.sync.bfly.b32 %0, %2, 2, 0x1f, 0xffff; }" : "+r"(r) : "r"(lane), "r"(v));
  unsigned reference = 7;
  if (lane < 16) reference = __shfl_xor_sync(0xffffu, v, 2);
  record(out, 8, r, reference);
  // 9: a PTX shuffle in a divergent branch: the even lanes only
  r = reference = 0;
  if (lane % 2 == 0) {
    asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, %3;" : "=r"(r) : "r"(v), "r"((lane + 2) % 32), "r"(0x55555555u));
    reference = __shfl_sync(0x55555555u, v, (lane + 2) % 32);
  }
  record(out, 9, r, reference);
  // 10-13: setp's comparisons, one bit each, on u32, s32, f32 (with a NaN), u64 and s64
  const unsigned w = in[(lane + 5) % 32];
  asm("{ .reg .pred p; .reg .u32 t; mov.u32 %0, 0;\n"
      " setp.eq.u32 p, %1, %2; selp.u32 t, 1, 0, p; or.b32 %0, %0, t;\n"
      " setp.ne.u32 p, %1, %2; selp.u32 t, 2, 0, p; or.b32 %0, %0, t;\n"
      " setp.lt.u32 p, %1, %2; selp.u32 t, 4, 0, p; or.b32 %0, %0, t;\n"
      " setp.le.u32 p, %1, %2; selp.u32 t, 8, 0, p; or.b32 %0, %0, t;\n"
      " setp.gt.u32 p, %1, %2; selp.u32 t, 16, 0, p; or.b32 %0, %0, t;\n"
      " setp.ge.u32 p, %1, %2; selp.u32 t, 32, 0, p; or.b32 %0, %0, t;\n"
      " setp.lo.u32 p, %1, %2; selp.u32 t, 64, 0, p; or.b32 %0, %0, t;\n"
      " setp.ls.u32 p, %1, %2; selp.u32 t, 128, 0, p; or.b32 %0, %0, t;\n"
      " setp.hi.u32 p, %1, %2; selp.u32 t, 256, 0, p; or.b32 %0, %0, t;\n"
      " setp.hs.u32 p, %1, %2; selp.u32 t, 512, 0, p; or.b32 %0, %0, t;\n"
      " setp.eq.b32 p, %1, %2; selp.u32 t, 1024, 0, p; or.b32 %0, %0, t;\n"
      " setp.ne.b32 p, %1, %2; selp.u32 t, 2048, 0, p; or.b32 %0, %0, t; }"
      : "=r"(r) : "r"(v), "r"(w));
  const unsigned uv = v;
  record(out, 10, r, (uv == w) | (uv != w) << 1 | (uv < w) << 2 | (uv <= w) << 3 | (uv > w) << 4 |
                         (uv >= w) << 5 | (uv < w) << 6 | (uv <= w) << 7 | (uv > w) << 8 |
                         (uv >= w) << 9 | (uv == w) << 10 | (uv != w) << 11);
  const int sw = static_cast<int>(w);
  asm("{ .reg .pred p; .reg .u32 t; mov.u32 %0, 0;\n"
      " setp.eq.s32 p, %1, %2; selp.u32 t, 1, 0, p; or.b32 %0, %0, t;\n"
      " setp.ne.s32 p, %1, %2; selp.u32 t, 2, 0, p; or.b32 %0, %0, t;\n"
      " setp.lt.s32 p, %1, %2; selp.u32 t, 4, 0, p; or.b32 %0, %0, t;\n"
      " setp.le.s32 p, %1, %2; selp.u32 t, 8, 0, p; or.b32 %0, %0, t;\n"
      " setp.gt.s32 p, %1, %2; selp.u32 t, 16, 0, p; or.b32 %0, %0, t;\n"
      " setp.ge.s32 p, %1, %2; selp.u32 t, 32, 0, p; or.b32 %0, %0, t; }"
      : "=r"(r) : "r"(v), "r"(sw));
  record(out, 11, r, (v == sw) | (v != sw) << 1 | (v < sw) << 2 | (v <= sw) << 3 | (v > sw) << 4 | (v >= sw) << 5);
  const float x = lane == 3 ? __int_as_float(0x7fc00000) : v * 0.25f;
  const float y = lane == 4 ? __int_as_float(0x7fc00000) : sw * 0.25f;
  asm("{ .reg .pred p; .reg .u32 t; mov.u32 %0, 0;\n"
      " setp.eq.f32 p, %1, %2; selp.u32 t, 1, 0, p; or.b32 %0, %0, t;\n"
      " setp.ne.f32 p, %1, %2; selp.u32 t, 2, 0, p; or.b32 %0, %0, t;\n"
      " setp.lt.f32 p, %1, %2; selp.u32 t, 4, 0, p; or.b32 %0, %0, t;\n"
      " setp.le.f32 p, %1, %2; selp.u32 t, 8, 0, p; or.b32 %0, %0, t;\n"
      " setp.gt.f32 p, %1, %2; selp.u32 t, 16, 0, p; or.b32 %0, %0, t;\n"
      " setp.ge.f32 p, %1, %2; selp.u32 t, 32, 0, p; or.b32 %0, %0, t;\n"
      " setp.neu.f32 p, %1, %2; selp.u32 t, 64, 0, p; or.b32 %0, %0, t;\n"
      " setp.nan.f32 p, %1, %2; selp.u32 t, 128, 0, p; or.b32 %0, %0, t; }"
      : "=r"(r) : "f"(x), "f"(y));
  const bool nan = x != x || y != y;
  record(out, 12, r, (x == y) | (!nan && x != y) << 1 | (x < y) << 2 | (x <= y) << 3 | (x > y) << 4 |
                         (x >= y) << 5 | (nan || x != y) << 6 | nan << 7);
  const long long a64 = static_cast<long long>(v) * 3000000007LL, b64 = static_cast<long long>(sw) << 20;
  asm("{ .reg .pred p; .reg .u32 t; mov.u32 %0, 0;\n"
      " setp.lt.s64 p, %1, %2; selp.u32 t, 1, 0, p; or.b32 %0, %0, t;\n"
      " setp.ge.s64 p, %1, %2; selp.u32 t, 2, 0, p; or.b32 %0, %0, t;\n"
      " setp.lt.u64 p, %1, %2; selp.u32 t, 4, 0, p; or.b32 %0, %0, t;\n"
      " setp.hs.u64 p, %1, %2; selp.u32 t, 8, 0, p; or.b32 %0, %0, t;\n"
      " setp.ne.u64 p, %1, %2; selp.u32 t, 16, 0, p; or.b32 %0, %0, t; }"
      : "=r"(r) : "l"(a64), "l"(b64));
  const unsigned long long ua = a64, ub = b64;
  record(out, 13, r, (a64 < b64) | (a64 >= b64) << 1 | (ua < ub) << 2 | (ua >= ub) << 3 | (ua != ub) << 4);
  // 14: setp combined with a predicate, both outputs p|q
  asm("{ .reg .pred p, q, c; setp.gt.s32 c, %1, 0; setp.lt.and.s32 p|q, %1, %2, c; selp.u32 %0, 1, 0, p;\n"
      " @q or.b32 %0, %0, 2; setp.eq.or.u32 p, %1, %2, !c; @p or.b32 %0, %0, 4; setp.ne.xor.u32 p, %1, 0, c; @!p or.b32 %0, %0, 8; }"
      : "=r"(r) : "r"(v), "r"(sw));
  const bool c = v > 0;
  record(out, 14, r, ((v < sw) && c) | (!(v < sw) && c) << 1 | ((uv == w) || !c) << 2 | !((v != 0) != c) << 3);
  // 15-16: 64-bit moves: {lo, hi} packed into a 64-bit register, and unpacked
  unsigned long long packed = 0;
  asm("mov.b64 %0, {%1, %2};" : "=l"(packed) : "r"(uv), "r"(lane));
  record(out, 15, static_cast<unsigned>(packed >> 32) ^ static_cast<unsigned>(packed), lane ^ uv);
  unsigned lo = 0, hi = 0;
  asm("mov.b64 {%0, %1}, %2;" : "=r"(lo), "=r"(hi) : "l"(a64));
  record(out, 16, lo ^ (hi * 3), static_cast<unsigned>(a64) ^ (static_cast<unsigned>(a64 >> 32) * 3));
  // 17-18: 32-bit arithmetic, logic and shifts
  asm("{ .reg .u32 t; add.u32 t, %1, %2; mul.lo.u32 t, t, -1640531535; sub.u32 t, t, %2; xor.b32 t, t, 0x5a5a5a5a;\n"
      " and.b32 t, t, 0x0fffffff; or.b32 t, t, 0x100; not.b32 t, t; shl.b32 %0, t, 3; }"
      : "=r"(r) : "r"(uv), "r"(w));
  record(out, 17, r, ~((((uv + w) * 2654435761u - w) ^ 0x5a5a5a5au) & 0x0fffffffu | 0x100u) << 3);
  asm("{ .reg .s32 t; shr.s32 t, %1, 3; shr.u32 %0, %1, 5; xor.b32 %0, %0, t; shl.b32 t, %1, 40; or.b32 %0, %0, t;\n"
      " max.s32 t, %1, -7; add.s32 %0, %0, t; min.u32 t, %1, 77; add.s32 %0, %0, t; }"
      : "=r"(r) : "r"(v));
  record(out, 18, r, ((uv >> 5) ^ static_cast<unsigned>(v >> 3)) + static_cast<unsigned>(v > -7 ? v : -7) + (uv < 77 ? uv : 77));
  // 19-22: 64-bit arithmetic ("l" operands), mul.hi and mul.wide
  unsigned long long r64 = 0;
  asm("{ .reg .u64 t; add.u64 t, %1, %2; mul.lo.u64 t, t, 6364136223846793005; shr.u64 t, t, 7; xor.b64 %0, t, %2; }"
      : "=l"(r64) : "l"(ua), "l"(ub));
  const unsigned long long ref64 = (((ua + ub) * 6364136223846793005ull) >> 7) ^ ub;
  record(out, 19, static_cast<unsigned>(r64), static_cast<unsigned>(ref64));
  record(out, 20, static_cast<unsigned>(r64 >> 32), static_cast<unsigned>(ref64 >> 32));
  asm("mul.hi.s32 %0, %1, %2;" : "=r"(r) : "r"(v * 40503), "r"(sw * 1000003));
  record(out, 21, r, __mulhi(v * 40503, sw * 1000003));
  long long wide = 0;
  asm("mul.wide.s32 %0, %1, %2;" : "=l"(wide) : "r"(v * 40503), "r"(sw * 1000003));
  record(out, 22, static_cast<unsigned>(wide >> 32) * 7 + static_cast<unsigned>(wide),
         static_cast<unsigned>(static_cast<long long>(v * 40503) * (sw * 1000003) >> 32) * 7 +
             static_cast<unsigned>(static_cast<long long>(v * 40503) * (sw * 1000003)));
  // 23-31: conversions
  const float f = v / 7.0f;
  unsigned short h = 0;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
  record(out, 23, h, __half_as_ushort(__float2half_rn(f)));
  float back = 0;
  asm("cvt.f32.f16 %0, %1;" : "=f"(back) : "h"(h));
  record(out, 24, __float_as_uint(back), __float_as_uint(__half2float(__ushort_as_half(h))));
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"(f * 1000.0f));
  record(out, 25, h, __bfloat16_as_ushort(__float2bfloat16_rn(f * 1000.0f)));
  int i = 0;
  asm("cvt.rni.s32.f32 %0, %1;" : "=r"(i) : "f"(f * 3.5f));
  record(out, 26, i, __float2int_rn(f * 3.5f));
  asm("cvt.rn.f32.s32 %0, %1;" : "=f"(back) : "r"(v * 12345 + 1));
  record(out, 27, __float_as_uint(back), __float_as_uint(static_cast<float>(v * 12345 + 1)));
  long long extended = 0;
  asm("cvt.s64.s32 %0, %1;" : "=l"(extended) : "r"(v));
  record(out, 28, static_cast<unsigned>(extended >> 32), static_cast<unsigned>(static_cast<long long>(v) >> 32));
  asm("{ .reg .u32 t; cvt.u8.u32 t, %1; cvt.s8.s32 %0, %1; add.u32 %0, %0, t; }" : "=r"(r) : "r"(v));
  record(out, 29, r, (uv & 0xffu) + static_cast<unsigned>(static_cast<signed char>(v)));
  asm("cvt.sat.s16.s32 %0, %1;" : "=h"(h) : "r"(v * 100));
  record(out, 30, h, static_cast<unsigned short>(v * 100 > 32767 ? 32767 : v * 100 < -32768 ? -32768 : v * 100));
  asm("cvt.rn.f16x2.f32 %0, %2, %1;" : "=r"(r) : "f"(f), "f"(-f * 3.0f));
  const __half2 pair = __floats2half2_rn(f, -f * 3.0f);
  record(out, 31, r, __half_as_ushort(__low2half(pair)) | static_cast<unsigned>(__half_as_ushort(__high2half(pair))) << 16);
}
