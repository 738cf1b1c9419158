// cuda_fp16.h and cuda_bf16.h in the shim: worked examples whose bits follow from IEEE 754's
// definitions (binary16: 1 sign, 5 exponent, 10 fraction bits; bfloat16: 1, 8, 7), with the edge
// cases of 16-bit conversions: ties to even, subnormals, overflow, NaN, every rounding mode.
#include <doctest/doctest.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace {

unsigned short bits(__half h) { return __half_as_ushort(h); }
unsigned short bits(__nv_bfloat16 b) { return __bfloat16_as_ushort(b); }
__half h(unsigned short b) { return __ushort_as_half(b); }
__nv_bfloat16 bf(unsigned short b) { return __ushort_as_bfloat16(b); }
std::uint64_t pair_bits(__half2 p) {
  return std::uint64_t{bits(p.x)} | std::uint64_t{bits(p.y)} << 16;
}

const float kNanF = std::nanf("");

}  // namespace

TEST_CASE("the 16-bit types are trivial, 2 and 4 bytes, usable in unions") {
  static_assert(std::is_trivially_default_constructible_v<__half>);
  static_assert(std::is_trivially_copyable_v<__half>);
  static_assert(std::is_trivially_default_constructible_v<__half2>);
  static_assert(std::is_trivially_default_constructible_v<__nv_bfloat16>);
  static_assert(sizeof(__half2) == 4 && alignof(__half2) == 4);
  union Bits {
    __half value;
    unsigned short raw;
  } u;
  u.value = __float2half(1.0f);
  CHECK(u.raw == 0x3c00);
  CHECK(__half{} == __float2half(0.0f));  // value-initialized: +0.0
}

TEST_CASE("__float2half in each rounding mode: ties to even, overflow, subnormals, NaN") {
  CHECK(bits(__float2half_rn(1.0f)) == 0x3c00);
  CHECK(bits(__float2half_rn(65504.0f)) == 0x7bff);  // the largest finite half
  // 65520 lies halfway between 65504 and 65536 (which would be 2^16, out of range): the tie goes
  // to the even side, which is the overflow to infinity.
  CHECK(bits(__float2half_rn(65520.0f)) == 0x7c00);
  CHECK(bits(__float2half_rn(65519.996f)) == 0x7bff);
  CHECK(bits(__float2half_rz(65520.0f)) == 0x7bff);
  CHECK(bits(__float2half_rd(65520.0f)) == 0x7bff);
  CHECK(bits(__float2half_ru(65520.0f)) == 0x7c00);
  CHECK(bits(__float2half_rd(-65520.0f)) == 0xfc00);
  CHECK(bits(__float2half_ru(-65520.0f)) == 0xfbff);
  CHECK(bits(__float2half_rz(1e30f)) == 0x7bff);
  // 1 + 2^-11 is halfway between 1 (fraction 0, even) and 1 + 2^-10; 1 + 3 * 2^-11 halfway
  // between 1 + 2^-10 (fraction 1) and 1 + 2^-9 (fraction 2, even).
  CHECK(bits(__float2half_rn(1.0f + 0x1p-11f)) == 0x3c00);
  CHECK(bits(__float2half_rn(1.0f + 0x3p-11f)) == 0x3c02);
  CHECK(bits(__float2half_ru(1.0f + 0x1p-11f)) == 0x3c01);
  CHECK(bits(__float2half_rz(1.0f + 0x3p-11f)) == 0x3c01);
  // Subnormals: 2^-24 is the smallest; 2^-25 ties between 0 and it (to 0); 3 * 2^-25 ties
  // between 1 and 2 units (to 2); 2^-14 is the smallest normal.
  CHECK(bits(__float2half_rn(0x1p-24f)) == 0x0001);
  CHECK(bits(__float2half_rn(0x1p-25f)) == 0x0000);
  CHECK(bits(__float2half_rn(0x1.8p-25f)) == 0x0001);
  CHECK(bits(__float2half_rn(0x3p-25f)) == 0x0002);
  CHECK(bits(__float2half_rn(0x1p-14f)) == 0x0400);
  CHECK(bits(__float2half_rn(0x1.ffcp-15f)) == 0x0400);  // 1023.5 units: ties up into the normals
  CHECK(bits(__float2half_ru(1e-30f)) == 0x0001);
  CHECK(bits(__float2half_rd(1e-30f)) == 0x0000);
  CHECK(bits(__float2half_rd(-1e-30f)) == 0x8001);
  CHECK(bits(__float2half_rz(-1e-30f)) == 0x8000);
  CHECK(bits(__float2half_rn(-0.0f)) == 0x8000);
  CHECK(bits(__float2half_rn(-INFINITY)) == 0xfc00);
  CHECK(bits(__float2half_rn(kNanF)) == 0x7fff);
  CHECK(bits(__float2half(0.1f)) == 0x2e66);  // 0.0999755859375
}

TEST_CASE("__double2half rounds the double once, not through float") {
  // 1 + 2^-11 + 2^-40 is just above the tie 1 + 2^-11: to nearest, 1 + 2^-10. Through float the
  // 2^-40 would be lost first and the tie would go to 1.
  CHECK(bits(__double2half(1.0 + 0x1p-11 + 0x1p-40)) == 0x3c01);
  CHECK(bits(__float2half(static_cast<float>(1.0 + 0x1p-11 + 0x1p-40))) == 0x3c00);
  CHECK(bits(__double2half(1e300)) == 0x7c00);
  CHECK(bits(__double2half(-0x1p-30)) == 0x8000);
}

TEST_CASE("__half2float is exact") {
  CHECK(__half2float(h(0x0001)) == 0x1p-24f);
  CHECK(__half2float(h(0x03ff)) == 0x3ffp-24f);
  CHECK(__half2float(h(0x7bff)) == 65504.0f);
  CHECK(std::signbit(__half2float(h(0x8000))));
  CHECK(std::isinf(__half2float(h(0xfc00))));
  CHECK(std::isnan(__half2float(h(0x7e01))));
  CHECK(__low2float(__halves2half2(h(0x3c00), h(0x4000))) == 1.0f);
  CHECK(__high2float(__halves2half2(h(0x3c00), h(0x4000))) == 2.0f);
}

TEST_CASE("16-bit to integer: each rounding mode, saturation, NaN") {
  CHECK(__half2int_rn(__float2half(2.5f)) == 2);
  CHECK(__half2int_rn(__float2half(3.5f)) == 4);
  CHECK(__half2int_rn(__float2half(-2.5f)) == -2);
  CHECK(__half2int_rz(__float2half(-2.75f)) == -2);
  CHECK(__half2int_rd(__float2half(-2.5f)) == -3);
  CHECK(__half2int_ru(__float2half(2.25f)) == 3);
  CHECK(__half2int_rz(h(0x7c00)) == INT_MAX);
  CHECK(__half2int_rz(h(0xfc00)) == INT_MIN);
  CHECK(__half2int_rz(h(0x7fff)) == 0);
  CHECK(__half2uint_rz(__float2half(-1.0f)) == 0u);
  CHECK(__half2short_rn(__float2half(60000.0f)) == SHRT_MAX);
  CHECK(__half2ushort_rn(__float2half(60000.0f)) == 60000);
  CHECK(__half2char_rz(__float2half(300.0f)) == 127);
  CHECK(__half2uchar_rz(__float2half(-5.0f)) == 0);
  CHECK(__half2ll_rz(h(0x7fff)) == LLONG_MIN);  // NaN: 0x8000000000000000
  CHECK(__half2ull_rz(h(0x7fff)) == 0x8000000000000000ull);
  CHECK(__half2ll_rz(h(0xfc00)) == LLONG_MIN);
  CHECK(__half2ull_ru(__float2half(0.25f)) == 1u);
  CHECK(static_cast<int>(__float2half(-7.9f)) == -7);  // the conversion operator rounds toward 0
  CHECK(__bfloat162int_rn(__float2bfloat16(2.5f)) == 2);
  CHECK(__bfloat162int_rz(bf(0x7fff)) == 0);
  CHECK(__bfloat162ll_rd(__float2bfloat16(-0.5f)) == -1);
}

TEST_CASE("integer to 16-bit: each rounding mode, overflow") {
  // Above 2048 the halves are 2 apart: 2049 ties between 2048 (even) and 2050; 2051 between 2050
  // and 2052 (even).
  CHECK(bits(__int2half_rn(2049)) == 0x6800);
  CHECK(bits(__int2half_rn(2051)) == 0x6802);
  CHECK(bits(__int2half_rz(2051)) == 0x6801);
  CHECK(bits(__int2half_ru(2049)) == 0x6801);
  CHECK(bits(__int2half_rd(-2049)) == 0xe801);
  CHECK(bits(__int2half_rn(70000)) == 0x7c00);
  CHECK(bits(__int2half_rz(70000)) == 0x7bff);
  CHECK(bits(__int2half_rn(INT_MIN)) == 0xfc00);
  CHECK(bits(__ull2half_rn(~0ull)) == 0x7c00);
  CHECK(bits(__ll2half_rd(LLONG_MIN)) == 0xfc00);
  CHECK(bits(__ushort2half_rn(65535)) == 0x7c00);  // 65535 > 65520: rounds to infinity
  CHECK(bits(__short2half_rn(-3)) == 0xc200);
  CHECK(bits(__uint2half_ru(1u)) == 0x3c00);
  // bfloat16 keeps 8 significant bits: 257 ties between 256 (even) and 258.
  CHECK(bits(__int2bfloat16_rn(257)) == 0x4380);
  CHECK(bits(__int2bfloat16_ru(257)) == 0x4381);
  CHECK(bits(__ll2bfloat16_rn(LLONG_MAX)) == 0x5f00);  // 2^63
}

TEST_CASE("__float2bfloat16 in each rounding mode") {
  CHECK(bits(__float2bfloat16(1.0f)) == 0x3f80);
  CHECK(bits(__float2bfloat16_rn(1.0f + 0x1p-8f)) == 0x3f80);  // tie, to even
  CHECK(bits(__float2bfloat16_rn(1.0f + 0x3p-8f)) == 0x3f82);  // tie, to even
  CHECK(bits(__float2bfloat16_ru(1.0f + 0x1p-20f)) == 0x3f81);
  CHECK(bits(__float2bfloat16_rz(-1.0f - 0x1p-20f)) == 0xbf80);
  CHECK(bits(__float2bfloat16_rd(-1.0f - 0x1p-20f)) == 0xbf81);
  // FLT_MAX lies above the midpoint between the largest bfloat16 (0x7f7f) and 2^128.
  CHECK(bits(__float2bfloat16_rn(3.4028235e38f)) == 0x7f80);
  CHECK(bits(__float2bfloat16_rz(3.4028235e38f)) == 0x7f7f);
  CHECK(bits(__float2bfloat16_rn(0x1p-133f)) == 0x0001);  // the smallest subnormal
  CHECK(bits(__float2bfloat16_rn(0x1p-134f)) == 0x0000);  // tie with 0
  CHECK(bits(__float2bfloat16_rn(kNanF)) == 0x7fff);
  CHECK(bits(__double2bfloat16(1.0 + 0x1p-8 + 0x1p-40)) == 0x3f81);
  CHECK(__bfloat162float(bf(0x4049)) == 3.140625f);
  CHECK(bits(__nv_bfloat16(__float2half(1.5f))) == 0x3fc0);
  CHECK(bits(__half(__float2bfloat16(1.5f))) == 0x3e00);
}

TEST_CASE("arithmetic rounds once to nearest even; fma rounds the exact a*b+c once") {
  const __half one = h(0x3c00);
  CHECK(bits(__hadd(one, h(0x1000))) == 0x3c00);        // 1 + 2^-11: a tie, to even
  CHECK(bits(__hadd(one, h(0x1001))) == 0x3c01);        // just above the tie
  CHECK(bits(__hmul(h(0x7bff), h(0x4000))) == 0x7c00);  // 65504 * 2 overflows
  CHECK(bits(__hdiv(one, h(0x4200))) == 0x3555);        // 1/3 = 0.333251953125
  CHECK(bits(__hsub(one, one)) == 0x0000);
  CHECK(bits(__hmul(h(0x0001), h(0x3800))) == 0x0000);  // 2^-24 * 0.5 ties to 0
  // (1 + 2^-10)^2 - (1 + 2^-9) = 2^-20 exactly; rounding the product first loses it.
  const __half a = h(0x3c01), c = h(0xbc02);
  CHECK(bits(__hfma(a, a, c)) == 0x0010);
  CHECK(bits(__hsub(__hmul(a, a), __hneg(c))) == 0x0000);
  CHECK(bits(__hfma(h(0x7bff), h(0x7bff), h(0xfbff))) == 0x7c00);
  CHECK(bits(__hadd(h(0x7c00), h(0xfc00))) == 0x7fff);  // inf - inf: canonical NaN
  CHECK(bits(__hneg(one)) == 0xbc00);
  CHECK(bits(__habs(h(0xbc00))) == 0x3c00);
  // bfloat16: (1 + 2^-7)^2 - (1 + 2^-6) = 2^-14.
  CHECK(bits(__hfma(bf(0x3f81), bf(0x3f81), bf(0xbf82))) == 0x3880);
  CHECK(bits(__hadd(bf(0x3f80), bf(0x3b80))) == 0x3f80);  // 1 + 2^-8: a tie, to even
}

TEST_CASE("_sat clamps to [0, 1] (NaN to +0), _relu clamps below at 0") {
  CHECK(bits(__hadd_sat(__float2half(0.75f), __float2half(0.5f))) == 0x3c00);
  CHECK(bits(__hsub_sat(__float2half(0.25f), __float2half(0.5f))) == 0x0000);
  CHECK(bits(__hmul_sat(__float2half(-2.0f), __float2half(0.5f))) == 0x0000);
  CHECK(bits(__hadd_sat(h(0x7fff), h(0x3c00))) == 0x0000);
  CHECK(bits(__hfma_sat(h(0x3800), h(0x3800), h(0x3800))) == 0x3a00);  // 0.75
  CHECK(bits(__hfma_relu(h(0xbc00), h(0x3c00), h(0x0000))) == 0x0000);
  CHECK(bits(__hfma_relu(h(0x3c00), h(0x3c00), h(0x3c00))) == 0x4000);
  const __half2 sat = __hadd2_sat(__floats2half2_rn(0.5f, -3.0f), __floats2half2_rn(0.75f, 1.0f));
  CHECK(pair_bits(sat) == 0x00003c00u);
}

TEST_CASE("comparisons: ordered forms are false on NaN, unordered ones true; masks and bools") {
  const __half nan = h(0x7fff), one = h(0x3c00), two = h(0x4000);
  CHECK_FALSE(__heq(nan, nan));
  CHECK(__hequ(nan, one));
  CHECK_FALSE(__hne(one, nan));
  CHECK(__hneu(one, nan));
  CHECK(__hlt(one, two));
  CHECK_FALSE(__hgt(one, two));
  CHECK(__hle(h(0x8000), h(0x0000)));  // -0 == +0
  CHECK(__heq(h(0x8000), h(0x0000)));
  const __half2 a = __halves2half2(one, two), b = __halves2half2(one, one);
  CHECK(__heq2_mask(a, b) == 0x0000ffffu);
  CHECK(__hgt2_mask(a, b) == 0xffff0000u);
  CHECK(pair_bits(__heq2(a, b)) == 0x00003c00u);  // 1.0 where equal, 0.0 where not
  CHECK_FALSE(__hbeq2(a, b));
  CHECK(__hbge2(a, b));
  CHECK(__hisnan(nan));
  CHECK(pair_bits(__hisnan2(__halves2half2(nan, one))) == 0x3c00u);
  CHECK(__hisinf(h(0xfc00)) == -1);
  CHECK(__hisinf(h(0x7c00)) == 1);
  CHECK(__hisinf(nan) == 0);
  CHECK(a == a);
  CHECK(one < two);
  CHECK(nan != nan);  // operator!= is the unordered __hneu
}

TEST_CASE("max and min: a NaN operand yields the other; the _nan forms propagate NaN") {
  const __half nan = h(0x7e00), two = h(0x4000);
  CHECK(bits(__hmax(nan, two)) == 0x4000);
  CHECK(bits(__hmin(two, nan)) == 0x4000);
  CHECK(bits(__hmax(nan, nan)) == 0x7fff);
  CHECK(bits(__hmax_nan(nan, two)) == 0x7fff);
  CHECK(bits(__hmin_nan(two, h(0x3c00))) == 0x3c00);
  CHECK(bits(__hmax(h(0x8000), h(0x0000))) == 0x0000);
  CHECK(bits(__hmin(h(0x0000), h(0x8000))) == 0x8000);
  CHECK(pair_bits(__hmax2(__halves2half2(nan, two), __halves2half2(two, h(0x3c00)))) ==
        0x40004000u);
}

TEST_CASE("pairs: building, taking apart, swapping, complex multiply-add") {
  const __half2 p = __floats2half2_rn(1.0f, 2.0f), q = __floats2half2_rn(3.0f, 4.0f);
  CHECK(pair_bits(p) == 0x40003c00u);
  CHECK(pair_bits(__lowhigh2highlow(p)) == 0x3c004000u);
  CHECK(pair_bits(__lows2half2(p, q)) == 0x42003c00u);
  CHECK(pair_bits(__highs2half2(p, q)) == 0x44004000u);
  CHECK(pair_bits(__low2half2(p)) == 0x3c003c00u);
  CHECK(pair_bits(__high2half2(p)) == 0x40004000u);
  CHECK(bits(__low2half(p)) == 0x3c00);
  CHECK(bits(__high2half(p)) == 0x4000);
  CHECK(pair_bits(__half2half2(h(0x3c00))) == 0x3c003c00u);
  CHECK(pair_bits(__float2half2_rn(0.5f)) == 0x38003800u);
  const float2 f = __half22float2(q);
  CHECK((f.x == 3.0f && f.y == 4.0f));
  // (1 + 2i)(3 + 4i) + (5 + 6i) = (3 - 8 + 5) + (4 + 6 + 6)i = 0 + 16i
  const __half2 m = __hcmadd(p, q, __floats2half2_rn(5.0f, 6.0f));
  CHECK(pair_bits(m) == 0x4c000000u);
  CHECK(pair_bits(__hfma2(p, q, p)) == 0x49004400u);  // (1*3 + 1, 2*4 + 2) = (4, 10)
  CHECK(pair_bits(p + q) == 0x46004400u);             // (4, 6)
}

TEST_CASE("rounding to integral values keeps the sign of zero") {
  CHECK(bits(htrunc(__float2half(-2.75f))) == 0xc000);
  CHECK(bits(hceil(__float2half(-0.5f))) == 0x8000);
  CHECK(bits(hfloor(__float2half(-0.5f))) == 0xbc00);
  CHECK(bits(hrint(__float2half(2.5f))) == 0x4000);
  CHECK(bits(hrint(__float2half(3.5f))) == 0x4400);
  CHECK(bits(hrint(__float2half(-0.25f))) == 0x8000);
  CHECK(bits(htrunc(h(0x7c00))) == 0x7c00);
  CHECK(bits(hfloor(__float2bfloat16(1.5f))) == 0x3f80);
}

TEST_CASE("math functions are the correctly rounded values") {
  CHECK(bits(hsqrt(h(0x4000))) == 0x3da8);  // sqrt 2 = 1.41421..., nearest half 1.4140625
  CHECK(bits(hsqrt(h(0xbc00))) == 0x7fff);
  CHECK(bits(hrcp(h(0x4200))) == 0x3555);
  CHECK(bits(hrsqrt(h(0x4400))) == 0x3800);  // 1/sqrt 4 = 0.5
  CHECK(bits(hexp(h(0x0000))) == 0x3c00);
  CHECK(bits(hlog2(h(0x4800))) == 0x4200);   // log2 8 = 3
  CHECK(bits(hexp10(h(0x4000))) == 0x5640);  // 100
  CHECK(bits(hsin(h(0x0000))) == 0x0000);
  CHECK(bits(hcos(h(0x0000))) == 0x3c00);
  CHECK(bits(htanh(h(0x7c00))) == 0x3c00);
  CHECK(bits(hlog(h(0x0000))) == 0xfc00);
  CHECK(bits(hexp2(__float2bfloat16(10.0f))) == 0x4480);  // 1024
}

TEST_CASE("operators are the corresponding functions") {
  __half x = __float2half(1.5f);
  x += __float2half(0.5f);
  CHECK(bits(x) == 0x4000);
  CHECK(bits(x++) == 0x4000);
  CHECK(bits(x) == 0x4200);
  CHECK(bits(--x) == 0x4000);
  CHECK(bits(-x) == 0xc000);
  CHECK(bits(x * x / x - x) == 0x0000);
  __nv_bfloat16 y = __float2bfloat16(3.0f);
  y *= y;
  CHECK(bits(y) == 0x4110);  // 9
  CHECK(y > __float2bfloat16(8.0f));
  __half2 p = __floats2half2_rn(1.0f, 2.0f);
  ++p;
  CHECK(pair_bits(p) == 0x42004000u);
}

TEST_CASE("atomicAdd on 16-bit values returns the old value") {
  __half value = __float2half(1.0f);
  CHECK(bits(atomicAdd(&value, __float2half(2.0f))) == 0x3c00);
  CHECK(bits(value) == 0x4200);
  __nv_bfloat162 pair = __floats2bfloat162_rn(1.0f, 2.0f);
  atomicAdd(&pair, __floats2bfloat162_rn(1.0f, 1.0f));
  CHECK(bits(pair.x) == 0x4000);
  CHECK(bits(pair.y) == 0x4040);
}
