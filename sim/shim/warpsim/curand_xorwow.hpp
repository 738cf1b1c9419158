// cuRAND's device API for its default generator, XORWOW (Marsaglia's xorshift with a Weyl
// sequence), as curand_kernel.h documents it: curand_init(seed, subsequence, offset, &state),
// curand, curand_uniform, curand_normal, curand_normal2, curand_log_normal and their double forms,
// skipahead and skipahead_sequence.
//
// Bit-exact with the GPU for curand, curand_uniform and curand_uniform_double (the integer
// sequence and its scaling, which nvcc contracts into one fma); the normal and log-normal values
// go through logf/sqrtf/expf and the fast __sincosf on the GPU, so they may differ from it in the
// last bits (tests/shim/curand_test.cpp bounds the difference against an H100).
//
// Subsequences are 2^67 numbers apart. Skipping n numbers applies the n-th power of the generator's
// 160 x 160 bit transition matrix (its xorshift part is linear over GF(2)) and advances the Weyl
// counter by 362437 * n; the powers M^(2^k) are computed once, on first use (about 20 ms).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>

#include "warpsim/float_intrinsics.hpp"
#include "warpsim/unsupported.hpp"

struct curandStateXORWOW {
  unsigned int d, v[5];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
using curandStateXORWOW_t = curandStateXORWOW;
using curandState_t = curandStateXORWOW;
using curandState = curandStateXORWOW;

namespace warpsim::shim::curand {

inline constexpr int kWords = 5;  // 160 state bits
using Vector = std::array<std::uint32_t, kWords>;

// One step of the xorshift part.
inline Vector step(const Vector& v) {
  const std::uint32_t t = v[0] ^ (v[0] >> 2);
  return {v[1], v[2], v[3], v[4], (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1))};
}

// A 160 x 160 bit matrix over GF(2), as the images of the 160 unit vectors.
struct Matrix {
  std::array<Vector, 32 * kWords> column;
  Vector apply(const Vector& v) const {
    Vector r{};
    for (int bit = 0; bit < 32 * kWords; ++bit) {
      if (((v[bit / 32] >> (bit % 32)) & 1u) == 0) continue;
      for (int w = 0; w < kWords; ++w) r[w] ^= column[bit][w];
    }
    return r;
  }
  Matrix squared() const {
    Matrix m;
    for (int bit = 0; bit < 32 * kWords; ++bit) m.column[bit] = apply(column[bit]);
    return m;
  }
};

// M^(2^k) for k = 0 .. 130: enough for 2^67 * (2^64 - 1) + 2^64 - 1 steps.
inline constexpr int kPowers = 131;
inline const std::array<Matrix, kPowers>& powers() {
  static const std::array<Matrix, kPowers>* const table = [] {
    auto* t = new std::array<Matrix, kPowers>;
    for (int bit = 0; bit < 32 * kWords; ++bit) {
      Vector unit{};
      unit[bit / 32] = 1u << (bit % 32);
      (*t)[0].column[bit] = step(unit);
    }
    for (int k = 1; k < kPowers; ++k) (*t)[k] = (*t)[k - 1].squared();
    return t;
  }();
  return *table;
}

// Advances the xorshift part by 2^shift * n steps.
inline void skip(curandStateXORWOW& state, unsigned long long n, int shift) {
  Vector v{state.v[0], state.v[1], state.v[2], state.v[3], state.v[4]};
  for (int k = 0; k < 64 && (n >> k) != 0; ++k) {
    if (((n >> k) & 1u) != 0) v = powers()[k + shift].apply(v);
  }
  for (int w = 0; w < kWords; ++w) state.v[w] = v[w];
}

inline constexpr float k2Pow32Inv = 2.3283064e-10f;  // curand_globals.h's CURAND_2POW32_INV
inline constexpr double k2Pow53Inv = 1.1102230246251565e-16;

// The GPU evaluates x * 2^-32 + 2^-33 as one fma (nvcc contracts it): so here.
inline float uniform(unsigned int x) {
  return std::fma(static_cast<float>(x), k2Pow32Inv, k2Pow32Inv / 2.0f);
}
inline double uniform_double(unsigned int x, unsigned int y) {
  const unsigned long long z = static_cast<unsigned long long>(x) ^ (static_cast<unsigned long long>(y) << 21);
  return std::fma(static_cast<double>(z), k2Pow53Inv, k2Pow53Inv / 2.0);
}

// Box-Muller, as the device code: radius from logf and sqrtf, angle through __sincosf.
inline float2 box_muller(unsigned int x, unsigned int y) {
  const float u = uniform(x);
  const float v = std::fma(static_cast<float>(y), k2Pow32Inv * 6.2831855f, k2Pow32Inv * 6.2831855f / 2.0f);
  const float s = std::sqrt(-2.0f * std::log(u));
  float sine, cosine;
  __sincosf(v, &sine, &cosine);
  return make_float2(sine * s, cosine * s);
}
inline double2 box_muller_double(unsigned int x0, unsigned int x1, unsigned int y0, unsigned int y1) {
  const double u = uniform_double(x0, x1);
  const unsigned long long zy = static_cast<unsigned long long>(y0) ^ (static_cast<unsigned long long>(y1) << 21);
  const double v = std::fma(static_cast<double>(zy), k2Pow53Inv * 2.0, k2Pow53Inv);
  const double s = std::sqrt(-2.0 * std::log(u));
  const long double angle = 3.14159265358979323846264338327950288L * static_cast<long double>(v);
  return make_double2(static_cast<double>(std::sin(angle)) * s, static_cast<double>(std::cos(angle)) * s);
}

inline constexpr int kExtraNormal = 1;
inline constexpr int kExtraLogNormal = 2;

}  // namespace warpsim::shim::curand

inline void skipahead(unsigned long long n, curandStateXORWOW_t* state) {
  warpsim::shim::curand::skip(*state, n, 0);
  state->d += 362437u * static_cast<unsigned int>(n);
}
// Subsequences are 2^67 numbers apart; the Weyl counter moves by a multiple of 2^32.
inline void skipahead_sequence(unsigned long long n, curandStateXORWOW_t* state) {
  warpsim::shim::curand::skip(*state, n, 67);
}

inline void curand_init(unsigned long long seed, unsigned long long subsequence,
                        unsigned long long offset, curandStateXORWOW_t* state) {
  const unsigned int s0 = static_cast<unsigned int>(seed) ^ 0xaad26b49u;
  const unsigned int s1 = static_cast<unsigned int>(seed >> 32) ^ 0xf7dcefddu;
  const unsigned int t0 = 1099087573u * s0;
  const unsigned int t1 = 2591861531u * s1;
  state->d = 6615241u + t1 + t0;
  state->v[0] = 123456789u + t0;
  state->v[1] = 362436069u ^ t0;
  state->v[2] = 521288629u + t1;
  state->v[3] = 88675123u ^ t1;
  state->v[4] = 5783321u + t0;
  skipahead_sequence(subsequence, state);
  skipahead(offset, state);
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.0f;
  state->boxmuller_extra_double = 0.0;
}

inline unsigned int curand(curandStateXORWOW_t* state) {
  const unsigned int t = state->v[0] ^ (state->v[0] >> 2);
  state->v[0] = state->v[1];
  state->v[1] = state->v[2];
  state->v[2] = state->v[3];
  state->v[3] = state->v[4];
  state->v[4] = (state->v[4] ^ (state->v[4] << 4)) ^ (t ^ (t << 1));
  state->d += 362437u;
  return state->v[4] + state->d;
}

inline float curand_uniform(curandStateXORWOW_t* state) {
  return warpsim::shim::curand::uniform(curand(state));
}
inline double curand_uniform_double(curandStateXORWOW_t* state) {
  const unsigned int x = curand(state);
  const unsigned int y = curand(state);
  return warpsim::shim::curand::uniform_double(x, y);
}

inline float2 curand_normal2(curandStateXORWOW_t* state) {
  const unsigned int x = curand(state);
  const unsigned int y = curand(state);
  return warpsim::shim::curand::box_muller(x, y);
}
// Box-Muller gives two values per pair of numbers: the second is kept for the next call.
inline float curand_normal(curandStateXORWOW_t* state) {
  if (state->boxmuller_flag != warpsim::shim::curand::kExtraNormal) {
    const float2 v = curand_normal2(state);
    state->boxmuller_extra = v.y;
    state->boxmuller_flag = warpsim::shim::curand::kExtraNormal;
    return v.x;
  }
  state->boxmuller_flag = 0;
  return state->boxmuller_extra;
}
inline double2 curand_normal2_double(curandStateXORWOW_t* state) {
  const unsigned int x0 = curand(state), x1 = curand(state), y0 = curand(state), y1 = curand(state);
  return warpsim::shim::curand::box_muller_double(x0, x1, y0, y1);
}
inline double curand_normal_double(curandStateXORWOW_t* state) {
  if (state->boxmuller_flag_double != warpsim::shim::curand::kExtraNormal) {
    const double2 v = curand_normal2_double(state);
    state->boxmuller_extra_double = v.y;
    state->boxmuller_flag_double = warpsim::shim::curand::kExtraNormal;
    return v.x;
  }
  state->boxmuller_flag_double = 0;
  return state->boxmuller_extra_double;
}

// exp(mean + stddev * n) for a normal n (the fma nvcc makes of it, then expf).
inline float curand_log_normal(curandStateXORWOW_t* state, float mean, float stddev) {
  if (state->boxmuller_flag != warpsim::shim::curand::kExtraLogNormal) {
    const float2 v = curand_normal2(state);
    state->boxmuller_extra = std::exp(std::fma(stddev, v.y, mean));
    state->boxmuller_flag = warpsim::shim::curand::kExtraLogNormal;
    return std::exp(std::fma(stddev, v.x, mean));
  }
  state->boxmuller_flag = 0;
  return state->boxmuller_extra;
}
inline float2 curand_log_normal2(curandStateXORWOW_t* state, float mean, float stddev) {
  const float2 v = curand_normal2(state);
  return make_float2(std::exp(std::fma(stddev, v.x, mean)), std::exp(std::fma(stddev, v.y, mean)));
}
inline double curand_log_normal_double(curandStateXORWOW_t* state, double mean, double stddev) {
  if (state->boxmuller_flag_double != warpsim::shim::curand::kExtraLogNormal) {
    const double2 v = curand_normal2_double(state);
    state->boxmuller_extra_double = std::exp(std::fma(stddev, v.y, mean));
    state->boxmuller_flag_double = warpsim::shim::curand::kExtraLogNormal;
    return std::exp(std::fma(stddev, v.x, mean));
  }
  state->boxmuller_flag_double = 0;
  return state->boxmuller_extra_double;
}

// The other generators and distributions of curand_kernel.h are not simulated: using one fails to
// compile, naming it.
namespace warpsim::shim::curand {
template <class Tag>
struct NotSimulated {
  static_assert(::warpsim::shim::not_simulated<Tag>,
                "this cuRAND generator is not simulated: warpsim's curand_kernel.h has the default "
                "XORWOW generator (curandState) only");
};
struct PhiloxTag;
struct Mrg32k3aTag;
struct Mtgp32Tag;
struct SobolTag;
}  // namespace warpsim::shim::curand
using curandStatePhilox4_32_10_t = warpsim::shim::curand::NotSimulated<warpsim::shim::curand::PhiloxTag>;
using curandStateMRG32k3a_t = warpsim::shim::curand::NotSimulated<warpsim::shim::curand::Mrg32k3aTag>;
using curandStateMtgp32_t = warpsim::shim::curand::NotSimulated<warpsim::shim::curand::Mtgp32Tag>;
using curandStateSobol32_t = warpsim::shim::curand::NotSimulated<warpsim::shim::curand::SobolTag>;
using curandStateScrambledSobol32_t = warpsim::shim::curand::NotSimulated<warpsim::shim::curand::SobolTag>;
using curandStateSobol64_t = warpsim::shim::curand::NotSimulated<warpsim::shim::curand::SobolTag>;
using curandStateScrambledSobol64_t = warpsim::shim::curand::NotSimulated<warpsim::shim::curand::SobolTag>;
WARPSIM_NOT_SIMULATED(unsigned int, curand_poisson, "warpsim's curand_kernel.h has the uniform, normal and log-normal distributions only")
WARPSIM_NOT_SIMULATED(unsigned int, curand_discrete, "warpsim's curand_kernel.h has the uniform, normal and log-normal distributions only")
