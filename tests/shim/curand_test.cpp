// cuRAND's XORWOW device API in the shim against an H100 (data/curand_sm90.txt, written by
// gpu_vectors/record_curand.cu): for ten (seed, subsequence, offset) starts, up to subsequence
// 65536 and offset 2^40, the integers and uniform values bit for bit, the normal and log-normal
// values within 1e-5 (absolute; relative for log-normal): the GPU's Box-Muller uses the fast
// __sincosf, whose absolute error of about 2^-21.4 the radius (at most 6.8) scales.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <curand_kernel.h>

namespace {

template <class T>
std::uint64_t bits(T v) {
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof v);
  return b;
}

float as_float(std::uint64_t b) {
  float f;
  const auto b32 = static_cast<std::uint32_t>(b);
  std::memcpy(&f, &b32, sizeof f);
  return f;
}
double as_double(std::uint64_t b) {
  double d;
  std::memcpy(&d, &b, sizeof d);
  return d;
}

}  // namespace

TEST_CASE("curand_init and the XORWOW sequence: the first numbers from a start (hand-checked)") {
  // seed 0: s0 = 0xaad26b49, t0 = 1099087573 * s0 mod 2^32, ... as curand_kernel.h states;
  // with no skip, the first number is v[4]' + d' of one step.
  curandState state;
  curand_init(0, 0, 0, &state);
  const unsigned int t0 = 1099087573u * 0xaad26b49u, t1 = 2591861531u * 0xf7dcefddu;
  CHECK(state.d == 6615241u + t1 + t0);
  CHECK(state.v[0] == 123456789u + t0);
  CHECK(state.v[4] == 5783321u + t0);
  const unsigned int t = state.v[0] ^ (state.v[0] >> 2);
  const unsigned int v4 = (state.v[4] ^ (state.v[4] << 4)) ^ (t ^ (t << 1));
  const unsigned int d = state.d + 362437u;
  CHECK(curand(&state) == v4 + d);
  // skipping n numbers equals drawing them
  curandState a, b;
  curand_init(7, 0, 0, &a);
  curand_init(7, 0, 1000, &b);
  for (int i = 0; i < 1000; ++i) curand(&a);
  CHECK(curand(&a) == curand(&b));
  curand_init(7, 0, 0, &a);
  skipahead(123456789ull, &a);
  curand_init(7, 0, 123456789ull, &b);
  CHECK(curand(&a) == curand(&b));
}

TEST_CASE("curand, curand_uniform and the normal distributions match an H100") {
  std::ifstream file(std::string(WARPSIM_SOURCE_DIR) + "/tests/shim/data/curand_sm90.txt");
  REQUIRE(file);
  int starts = 0;
  for (std::string line; std::getline(file, line);) {
    std::istringstream fields(line);
    unsigned long long seed = 0, subsequence = 0, offset = 0;
    fields >> seed >> subsequence >> offset;
    std::vector<std::uint64_t> gpu;
    for (std::string hex; fields >> hex;) gpu.push_back(std::stoull(hex, nullptr, 16));
    REQUIRE(gpu.size() == 21);
    CAPTURE(seed);
    CAPTURE(subsequence);
    CAPTURE(offset);
    curandState state;
    curand_init(seed, subsequence, offset, &state);
    std::size_t k = 0;
    for (int i = 0; i < 8; ++i) CHECK(curand(&state) == gpu[k++]);
    for (int i = 0; i < 4; ++i) CHECK(bits(curand_uniform(&state)) == gpu[k++]);
    for (int i = 0; i < 4; ++i) CHECK(std::fabs(curand_normal(&state) - as_float(gpu[k++])) <= 1e-5f);
    const float2 pair = curand_normal2(&state);
    CHECK(std::fabs(pair.x - as_float(gpu[k++])) <= 1e-5f);
    CHECK(std::fabs(pair.y - as_float(gpu[k++])) <= 1e-5f);
    CHECK(bits(curand_uniform_double(&state)) == gpu[k++]);
    CHECK(std::fabs(curand_normal_double(&state) - as_double(gpu[k++])) <= 1e-14);
    const float expected = as_float(gpu[k++]);
    CHECK(std::fabs(curand_log_normal(&state, 0.0f, 1.0f) - expected) <= 1e-5f * expected);
    ++starts;
  }
  CHECK(starts == 10);
}
