// Integer, bit, SIMD, DPX and rounding-mode intrinsics in the shim: worked examples whose values
// follow from CUDA's documented definitions (gpu_vectors_test.cpp compares every one of them with
// an H100 on 1024 inputs besides).
#include <doctest/doctest.h>

#include <cfenv>
#include <climits>
#include <cmath>
#include <cstdint>

#include <cuda_runtime.h>

TEST_CASE("high halves of products, 24-bit products, halving adds, absolute differences") {
  CHECK(__mulhi(0x40000000, 8) == 2);
  CHECK(__mulhi(-1, 1) == -1);  // -1 * 1 = 0xffffffff'ffffffff: high half -1
  CHECK(__umulhi(0xffffffffu, 0xffffffffu) == 0xfffffffeu);
  CHECK(__mul64hi(LLONG_MIN, 2) == -1);
  CHECK(__umul64hi(1ull << 63, 4) == 2u);
  CHECK(__mul24(0x00ffffff, 2) == -2);  // the low 24 bits 0xffffff are -1 as a 24-bit number
  CHECK(__umul24(0x01000003u, 5u) == 15u);
  CHECK(__hadd(INT_MAX, INT_MAX) == INT_MAX);  // no overflow
  CHECK(__hadd(-3, 0) == -2);                  // rounds toward minus infinity
  CHECK(__rhadd(-3, 0) == -1);
  CHECK(__uhadd(0xffffffffu, 1u) == 0x80000000u);
  CHECK(__urhadd(2u, 3u) == 3u);
  CHECK(__sad(-5, 3, 100u) == 108u);
  CHECK(__usad(3u, 10u, 1u) == 8u);
}

TEST_CASE("bit counts, reversal and byte swaps, 32 and 64 bits") {
  CHECK(__popcll(0xf0f0f0f0f0f0f0f0ull) == 32);
  CHECK(__clzll(1) == 63);
  CHECK(__clzll(0) == 64);
  CHECK(__ffsll(1ll << 40) == 41);
  CHECK(__ffsll(0) == 0);
  CHECK(__brevll(1) == 0x8000000000000000ull);
  CHECK(__brev(0x12345678u) == 0x1e6a2c48u);
  CHECK(__nv_bswap16(0x1234) == 0x3412);
  CHECK(__nv_bswap32(0x12345678u) == 0x78563412u);
  CHECK(__nv_bswap64(0x0102030405060708ull) == 0x0807060504030201ull);
}

TEST_CASE("__byte_perm picks bytes of y:x by the low 3 bits of each selector nibble") {
  // y:x bytes 7..0 are 77 66 55 44 33 22 11 00; selector nibbles 7, 0, 7, 1 (low first).
  CHECK(__byte_perm(0x33221100u, 0x77665544u, 0x1707u) == 0x11770077u);
  CHECK(__byte_perm(0x33221100u, 0x77665544u, 0x3210u) == 0x33221100u);  // identity
  CHECK(__byte_perm(0x33221100u, 0x77665544u, 0x0123u) == 0x00112233u);  // byte reversal
  CHECK(__byte_perm(0x33221100u, 0x77665544u, 0x9fffu) == __byte_perm(0x33221100u, 0x77665544u, 0x1777u));
}

TEST_CASE("funnel shifts: shift & 31, or clamped at 32") {
  CHECK(__funnelshift_l(0x80000000u, 0x1u, 4u) == 0x18u);
  CHECK(__funnelshift_l(0x80000000u, 0x1u, 36u) == 0x18u);   // 36 & 31 = 4
  CHECK(__funnelshift_lc(0x80000000u, 0x1u, 36u) == 0x80000000u);  // clamped: all of lo
  CHECK(__funnelshift_r(0x00000010u, 0xabcdef01u, 4u) == 0x10000001u);
  CHECK(__funnelshift_rc(0x10u, 0xabcdef01u, 40u) == 0xabcdef01u);
}

TEST_CASE("dot products of bytes and halves, signed and unsigned") {
  CHECK(__dp4a(0x01020304, 0x01010101, 10) == 20);
  CHECK(__dp4a(static_cast<int>(0xff02ff04u), 0x01010101, 0) == 4);  // -1 + 2 - 1 + 4
  CHECK(__dp4a(0xff000000u, 0x02000000u, 1u) == 511u);
  CHECK(__dp4a(make_char4(1, -2, 3, -4), make_char4(5, 6, 7, 8), 0) == 5 - 12 + 21 - 32);
  // dp2a: a's halves (-1, 2) with b's bytes (lo: 3, 4; hi: 5, -6)
  const int a = static_cast<int>(0x0002ffffu), b = static_cast<int>(0xfa050403u);
  CHECK(__dp2a_lo(a, b, 100) == 100 - 3 + 8);
  CHECK(__dp2a_hi(a, b, 100) == 100 - 5 - 12);
  CHECK(__dp2a_lo(0x00020001u, 0x00000403u, 0u) == 3u + 8u);
}

TEST_CASE("SIMD halves and bytes: wrap, saturate, compare, average, sum of differences") {
  CHECK(__vadd2(0x0001ffffu, 0x00010001u) == 0x00020000u);
  CHECK(__vaddss2(0x7fff0000u, 0x00010000u) == 0x7fff0000u);
  CHECK(__vaddus2(0xffff0001u, 0x00020002u) == 0xffff0003u);
  CHECK(__vsubss4(0x80000000u, 0x01000000u) == 0x80000000u);
  CHECK(__vsubus4(0x01020304u, 0x02020202u) == 0x00000102u);
  CHECK(__vabsdiffu4(0x10ff0050u, 0x20000060u) == 0x10ff0010u);
  CHECK(__vabs2(0x80000001u) == 0x80000001u);    // |-32768| wraps
  CHECK(__vabsss2(0x8000ffffu) == 0x7fff0001u);  // saturates
  CHECK(__vneg4(0x01ff8000u) == 0xff018000u);
  CHECK(__vcmpeq4(0x01020304u, 0x01000300u) == 0xff00ff00u);
  CHECK(__vcmpgtu4(0x80010203u, 0x7f010000u) == 0xff00ffffu);
  CHECK(__vcmpgts4(0x80010203u, 0x7f010000u) == 0x0000ffffu);  // 0x80 is -128 signed
  CHECK(__vsetltu2(0x00010005u, 0x00020004u) == 0x00010000u);
  CHECK(__vavgu4(0x01030000u, 0x02030001u) == 0x02030001u);  // (1+2+1)/2, (3+3+1)/2, ...
  CHECK(__vhaddu4(0x01030000u, 0x02030001u) == 0x01030000u);
  CHECK(__vsadu4(0x00ff0000u, 0x01000000u) == 256u);
  // PTX vabsdiff4.u32.u32.u32.add (inline PTX's translation): c plus the bytes' differences.
  CHECK(warpsim::ptx::vabsdiff4_add_u32(0x10ff0005u, 0x2000ff03u, 7u) == 7u + 0x10u + 0xffu + 0xffu + 2u);
  CHECK(__vsads2(0x7fff8000u, 0x80007fffu) == 131070u);  // |32767+32768| + |-32768-32767|
  // PTX bfind: the highest bit that is not a sign bit; none: 0xffffffff; .shiftamt: 31 - that.
  CHECK(warpsim::ptx::bfind(std::uint32_t{0x10}, false) == 4u);
  CHECK(warpsim::ptx::bfind(std::uint32_t{0x10}, true) == 27u);
  CHECK(warpsim::ptx::bfind(std::uint32_t{0}, false) == 0xffffffffu);
  CHECK(warpsim::ptx::bfind(std::uint32_t{0}, true) == 0xffffffffu);
  CHECK(warpsim::ptx::bfind(std::int32_t{-1}, false) == 0xffffffffu);  // sign bits only
  CHECK(warpsim::ptx::bfind(std::int32_t{-2}, false) == 0u);            // its highest 0
  CHECK(warpsim::ptx::bfind(std::int32_t{-0x100}, false) == 7u);
  CHECK(warpsim::ptx::bfind(std::uint64_t{1} << 40, false) == 40u);
  CHECK(warpsim::ptx::bfind(std::uint64_t{1} << 40, true) == 23u);
  // %globaltimer: nanoseconds, moving forward; its halves are its halves.
  const std::uint64_t t0 = warpsim::ptx::globaltimer_register();
  const std::uint64_t t1 = warpsim::ptx::globaltimer_register();
  CHECK(t0 > 1'700'000'000'000'000'000ull);  // nanoseconds since 1970: after November 2023
  CHECK(t1 >= t0);
  CHECK(warpsim::ptx::globaltimer_hi_register() >= static_cast<std::uint32_t>(t0 >> 32));
  CHECK(__vmaxs2(0xffff0001u, 0x00010000u) == 0x00010001u);
  CHECK(__vminu2(0xffff0001u, 0x00010000u) == 0x00010000u);
}

TEST_CASE("device code run by the host outside a kernel (Thrust's host backend) sees one thread") {
  REQUIRE(warpsim::device::current_env == nullptr);
  CHECK(threadIdx.x == 0);
  CHECK(threadIdx.z == 0);
  CHECK(blockIdx.x == 0);
  CHECK(blockIdx.y == 0);
  CHECK(blockDim.x == 1);
  CHECK(blockDim.z == 1);
  CHECK(gridDim.x == 1);
  CHECK(gridDim.y == 1);
  // A functor's usual index: the one thread's.
  CHECK(blockIdx.x * blockDim.x + threadIdx.x == 0);
}

TEST_CASE("DPX: three-way max and min, add then max or min, relu, max with which one won") {
  CHECK(__vimax3_s32(-5, 3, 1) == 3);
  CHECK(__vimin3_u32(5u, 3u, 0xffffffffu) == 3u);
  CHECK(__vimax3_s16x2(0xffff0001u, 0x00020000u, 0x8000ffffu) == 0x00020001u);
  CHECK(__vimax_s32_relu(-5, -3) == 0);
  CHECK(__vimin3_s32_relu(4, 7, 9) == 4);
  CHECK(__viaddmax_s32(INT_MAX, 1, 0) == 0);  // INT_MAX + 1 wraps to INT_MIN
  CHECK(__viaddmin_u32(1u, 2u, 10u) == 3u);
  CHECK(__viaddmax_s16x2_relu(0xfffe0001u, 0x00000001u, 0x00000000u) == 0x00000002u);
  bool a_won = false;
  CHECK(__vibmax_s32(4, 4, &a_won) == 4);
  CHECK(a_won);
  CHECK(__vibmin_u32(7u, 2u, &a_won) == 2u);
  CHECK_FALSE(a_won);
  bool hi = false, lo = false;
  CHECK(__vibmax_u16x2(0x00050001u, 0x00030002u, &hi, &lo) == 0x00050002u);
  CHECK(hi);
  CHECK_FALSE(lo);
}

TEST_CASE("float and double arithmetic in each rounding mode") {
  CHECK(__fadd_rn(1.0f, 0x1p-30f) == 1.0f);
  CHECK(__fadd_rz(1.0f, 0x1p-30f) == 1.0f);
  CHECK(__fadd_ru(1.0f, 0x1p-30f) == 1.0f + 0x1p-23f);
  CHECK(__fadd_rd(-1.0f, -0x1p-30f) == -1.0f - 0x1p-23f);
  CHECK(__fsub_rz(1.0f, 0x1p-30f) == 1.0f - 0x1p-24f);
  // 1.0f / 3 is 0.3333333433...: three times it is 1.0000000298
  CHECK(__fmul_ru(3.0f, 1.0f / 3.0f) == 1.0f + 0x1p-23f);
  CHECK(__fmul_rd(3.0f, 1.0f / 3.0f) == 1.0f);
  CHECK(__fmul_rn(3.0f, 1.0f / 3.0f) == 1.0f);
  CHECK(__fdiv_ru(1.0f, 3.0f) == 0x1.555556p-2f);
  CHECK(__fdiv_rd(1.0f, 3.0f) == 0x1.555554p-2f);
  CHECK(__frcp_rz(3.0f) == 0x1.555554p-2f);
  CHECK(__fsqrt_ru(2.0f) == 0x1.6a09e8p+0f);
  CHECK(__fsqrt_rd(2.0f) == 0x1.6a09e6p+0f);
  CHECK(__fmaf_rz(1.0f + 0x1p-23f, 1.0f + 0x1p-23f, -1.0f) == 0x1p-22f);  // 2^-22 + 2^-46 exactly
  CHECK(__dadd_ru(1.0, 0x1p-60) == 1.0 + 0x1p-52);
  CHECK(__ddiv_rz(1.0, 3.0) == 0x1.5555555555555p-2);
  CHECK(__dsqrt_rd(2.0) == 0x1.6a09e667f3bccp+0);
  CHECK(std::fegetround() == FE_TONEAREST);  // the mode is restored
  // NaN results: the canonical 0x7fffffff for float; for double the first NaN operand
  CHECK(__float_as_uint(__fadd_rn(NAN, 1.0f)) == 0x7fffffffu);
  CHECK(__double_as_longlong(__dmul_rz(__longlong_as_double(0x7ff0000000000123ll), 2.0)) ==
        0x7ff8000000000123ll);
}

TEST_CASE("conversions in each rounding mode, saturating, with CUDA's NaN results") {
  CHECK(__float2int_rn(-2.5f) == -2);
  CHECK(__float2int_rd(-2.5f) == -3);
  CHECK(__float2int_rz(3e9f) == INT_MAX);
  CHECK(__float2int_rn(NAN) == 0);
  CHECK(__float2uint_rz(-1.0f) == 0u);
  CHECK(__float2ll_rn(NAN) == LLONG_MIN);
  CHECK(__double2int_rz(NAN) == INT_MIN);  // 0x80000000 from double, 0 from float
  CHECK(__double2uint_ru(NAN) == 0x80000000u);
  CHECK(__int2float_rz(16777217) == 16777216.0f);
  CHECK(__int2float_ru(16777217) == 16777218.0f);
  CHECK(__int2float_rn(16777219) == 16777220.0f);  // tie between ...218 and ...220: to even
  CHECK(__ll2float_rz(LLONG_MAX) == 0x1.fffffep62f);
  CHECK(__ull2float_ru(1ull) == 1.0f);
  CHECK(__ll2double_rd(-((1ll << 53) + 1)) == -0x1.0000000000001p53);
  CHECK(__double2float_rz(1.0 + 0x1p-30) == 1.0f);
  CHECK(__double2float_ru(1.0 + 0x1p-30) == 1.0f + 0x1p-23f);
  CHECK(__double2float_rn(1e300) == INFINITY);
  CHECK(__double2float_rz(1e300) == 0x1.fffffep127f);
  CHECK(__double2float_rd(0x1p-160) == 0.0f);
  CHECK(__double2float_ru(0x1p-160) == 0x1p-149f);
}

TEST_CASE("fast-math functions: within CUDA's documented error, with its special cases") {
  CHECK(__fdividef(1.0f, 0x1p127f) == 0.0f);  // divisor above 2^126: 0
  CHECK(std::fabs(__expf(1.0f) - 2.7182817f) < 3e-7f);
  CHECK(std::fabs(__sinf(0.5f) - std::sin(0.5f)) < 0x1p-21f);
  CHECK(__saturatef(1.5f) == 1.0f);
  CHECK(__saturatef(NAN) == 0.0f);
  CHECK(__float_as_uint(__powf(0.0f, 0.0f)) == 0x7fffffffu);  // 2^(0 * log2 0) = 2^NaN
}

TEST_CASE("CUDA 12.8's __nv_atomic_* functions: GCC's __atomic_* shapes with a scope, on any order") {
  unsigned count = 5;
  CHECK(__nv_atomic_fetch_add(&count, 3u, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK) == 5u);
  CHECK(__nv_atomic_fetch_sub(&count, 1, __NV_ATOMIC_ACQ_REL) == 8u);  // scope left out: system
  CHECK(__nv_atomic_load_n(&count, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE) == 7u);
  int signed_value = -4;
  CHECK(__nv_atomic_fetch_min(&signed_value, -9, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE) == -4);
  CHECK(__nv_atomic_fetch_max(&signed_value, 2, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE) == -9);
  CHECK(signed_value == 2);
  unsigned long long bits = 0xf0;
  CHECK(__nv_atomic_fetch_or(&bits, 0x0full, __NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_SYSTEM) == 0xf0u);
  CHECK(__nv_atomic_fetch_and(&bits, 0x3cull, __NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_SYSTEM) == 0xffu);
  CHECK(__nv_atomic_fetch_xor(&bits, 0x3full, __NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_SYSTEM) == 0x3cu);
  CHECK(bits == 0x03u);

  float value = 1.5f;
  __nv_atomic_store_n(&value, 2.5f, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
  float loaded = 0.0f;
  __nv_atomic_load(&value, &loaded, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);
  CHECK(loaded == 2.5f);
  CHECK(__nv_atomic_exchange_n(&value, 4.0f, __NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_DEVICE) == 2.5f);

  unsigned expected = 6;
  CHECK_FALSE(__nv_atomic_compare_exchange_n(&count, &expected, 40u, false, __NV_ATOMIC_ACQ_REL,
                                             __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE));
  CHECK(expected == 7u);  // what it held
  CHECK(__nv_atomic_compare_exchange_n(&count, &expected, 40u, true, __NV_ATOMIC_ACQ_REL,
                                       __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE));
  CHECK(count == 40u);
  volatile unsigned flag = 1;
  CHECK(__nv_atomic_load_n(&flag, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_SYSTEM) == 1u);
  __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE);
}
