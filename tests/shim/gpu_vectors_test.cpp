// The shim against an H100: every case of gpu_vectors/cases.inc (each value-returning fp16, bf16,
// integer, bit, SIMD and rounding intrinsic of CUDA 13.0's headers) evaluated here on the inputs
// of gpu_vectors/inputs.cuh and compared with what record_gpu.cu recorded on the GPU
// (data/gpu_vectors_sm90.txt.gz). EXACT cases must agree bit for bit on every input (NaNs
// included); APPROX cases (fast-math and 16-bit transcendental functions) within the bound the
// table below gives each, in units in the last place.
#include <doctest/doctest.h>
#include <zlib.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu_vectors/inputs.cuh"

namespace {

using gpu_vectors::kInputs;
using gpu_vectors::None;

// How to measure the distance between two results, by result type.
enum class Kind { bits, f16, bf16, f32, f64, f16x2, bf16x2, f32x2 };

template <class R>
constexpr Kind kind_of() {
  if constexpr (std::is_same_v<R, __half>) return Kind::f16;
  if constexpr (std::is_same_v<R, __nv_bfloat16>) return Kind::bf16;
  if constexpr (std::is_same_v<R, float>) return Kind::f32;
  if constexpr (std::is_same_v<R, double>) return Kind::f64;
  if constexpr (std::is_same_v<R, __half2>) return Kind::f16x2;
  if constexpr (std::is_same_v<R, __nv_bfloat162>) return Kind::bf16x2;
  if constexpr (std::is_same_v<R, float2>) return Kind::f32x2;
  return Kind::bits;
}

struct Case {
  const char* label;
  int bytes;
  bool approximate;
  Kind kind;
  std::uint64_t (*evaluate)(int input);
  std::string (*inputs)(int input);  // the arguments' bits, for messages
};

std::string hex(std::uint64_t v) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(v));
  return buffer;
}

template <class T>
std::string argument_text(const T& v) {
  if constexpr (std::is_same_v<T, None>) {
    return "";
  } else {
    return " " + hex(gpu_vectors::to_bits<T>(v));
  }
}

#define WARPSIM_CASE(APPROXIMATE, LABEL, R, A, B, C, EXPR)         \
  Case{#LABEL,                                                     \
       static_cast<int>(sizeof(R)),                                \
       APPROXIMATE,                                                \
       kind_of<R>(),                                               \
       [](int i) -> std::uint64_t {                                \
         [[maybe_unused]] const A a = gpu_vectors::input<A>(i, 0); \
         [[maybe_unused]] const B b = gpu_vectors::input<B>(i, 1); \
         [[maybe_unused]] const C c = gpu_vectors::input<C>(i, 2); \
         return gpu_vectors::to_bits<R>(EXPR);                     \
       },                                                          \
       [](int i) -> std::string {                                  \
         return argument_text(gpu_vectors::input<A>(i, 0)) +       \
                argument_text(gpu_vectors::input<B>(i, 1)) +       \
                argument_text(gpu_vectors::input<C>(i, 2));        \
       }},
#define EXACT(...) WARPSIM_CASE(false, __VA_ARGS__)
#define APPROX(...) WARPSIM_CASE(true, __VA_ARGS__)
const Case kCases[] = {
#include "gpu_vectors/cases.inc"
};
#undef EXACT
#undef APPROX
#undef WARPSIM_CASE

// The largest difference allowed for each APPROX case. 16-bit math functions: the shim gives
// the correctly rounded value, the GPU an approximation within 1 ulp. Fast-math float intrinsics:
// the shim models the GPU's evaluation (float_intrinsics.hpp) but computes the special-function
// unit's part exactly; the bounds are CUDA's documented maximum errors (in ulps, or absolute where
// CUDA documents an absolute error), which the differences stay inside.
struct Bound {
  std::uint64_t ulps = 1;
  double abs_bound = 0;                      // when > 0: |sim - gpu| <= abs_bound also passes
  std::uint64_t (*ulps_for)(int) = nullptr;  // bounds that depend on the input
  double (*abs_for)(int) = nullptr;
};
float arg(int i, int slot) { return gpu_vectors::input<float>(i, slot); }
std::uint64_t ulp_bound(double v) {
  return v > 1e9 || std::isnan(v) ? 1000000000 : static_cast<std::uint64_t>(v);
}
const std::map<std::string, Bound>& bounds() {
  static const std::map<std::string, Bound> table = {
      {"__sinf", {2, 0x1p-21}},
      {"__cosf", {2, 0x1p-21}},
      {"__sincosf", {2, 0x1p-21}},
      // __fdividef(__sinf(x), __cosf(x)): the sine's and cosine's absolute errors, magnified
      {"__tanf",
       {4, 0, nullptr,
        [](int i) {
          const double c = std::cos(static_cast<double>(arg(i, 0))),
                       s = std::sin(static_cast<double>(arg(i, 0)));
          return 0x1p-21 * (1 / std::fabs(c) + std::fabs(s) / (c * c));
        }}},
      {"__tanhf", {4096}},  // relative error 2^-11
      {"__expf", {2, 0, [](int i) { return 2 + ulp_bound(std::fabs(1.173 * arg(i, 0))); }}},
      {"__exp10f", {2, 0, [](int i) { return 2 + ulp_bound(std::fabs(2.97 * arg(i, 0))); }}},
      {"__logf", {3, 0x1p-21}},
      {"__log2f", {2, 0x1p-22}},
      {"__log10f", {3, 0x1p-21}},
      // exp2f(y * __log2f(x)): the logarithm's error (2^-22 absolute, or relative) times |y|
      {"__powf",
       {2, 0,
        [](int i) {
          const double lg = std::fabs(std::log2(std::fabs(static_cast<double>(arg(i, 0)))));
          return 2 + ulp_bound(1.4 * std::fabs(static_cast<double>(arg(i, 1))) * (lg > 1 ? lg : 1));
        }}},
      {"__fdividef", {2}},
      {"fdividef", {0}},
  };
  return table;
}

// Distance in ulps between two values of a float format given as sign-magnitude bits.
std::uint64_t ulps(std::uint64_t a, std::uint64_t b, int width) {
  const std::uint64_t sign = std::uint64_t{1} << (width - 1);
  const auto ordered = [&](std::uint64_t x) -> std::int64_t {
    const auto magnitude = static_cast<std::int64_t>(x & (sign - 1));
    return (x & sign) != 0 ? -magnitude : magnitude;
  };
  const std::int64_t d = ordered(a) - ordered(b);
  return static_cast<std::uint64_t>(d < 0 ? -d : d);
}

bool is_nan(std::uint64_t x, int width) {
  switch (width) {
    case 16:
      return (x & 0x7c00u) == 0x7c00u && (x & 0x3ffu) != 0;
    case 32:
      return (x & 0x7f800000u) == 0x7f800000u && (x & 0x7fffffu) != 0;
    default:
      return std::isnan(gpu_vectors::from_bits<double>(x));
  }
}

double value_of(std::uint64_t x, int width, bool bfloat) {
  if (width == 16) {
    return bfloat ? static_cast<double>(
                        __bfloat162float(__ushort_as_bfloat16(static_cast<unsigned short>(x))))
                  : static_cast<double>(
                        __half2float(__ushort_as_half(static_cast<unsigned short>(x))));
  }
  if (width == 32) return gpu_vectors::from_bits<float>(static_cast<std::uint32_t>(x));
  return gpu_vectors::from_bits<double>(x);
}

// Whether `sim` is within `bound` of `gpu` for one component of a float format.
bool close(std::uint64_t sim, std::uint64_t gpu, int width, bool bfloat, const Bound& bound) {
  const bool bf_nan = bfloat && (sim & 0x7f80u) == 0x7f80u && (sim & 0x7fu) != 0 &&
                      (gpu & 0x7f80u) == 0x7f80u && (gpu & 0x7fu) != 0;
  if (bf_nan || (!bfloat && is_nan(sim, width) && is_nan(gpu, width))) return true;
  if (ulps(sim, gpu, width) <= bound.ulps) return true;
  return bound.abs_bound > 0 &&
         std::fabs(value_of(sim, width, bfloat) - value_of(gpu, width, bfloat)) <= bound.abs_bound;
}

bool approximately_equal(const Case& c, std::uint64_t sim, std::uint64_t gpu, const Bound& bound) {
  switch (c.kind) {
    case Kind::f16:
      return close(sim, gpu, 16, false, bound);
    case Kind::bf16:
      return close(sim, gpu, 16, true, bound);
    case Kind::f32:
      return close(sim, gpu, 32, false, bound);
    case Kind::f64:
      return close(sim, gpu, 64, false, bound);
    case Kind::f16x2:
    case Kind::bf16x2: {
      const bool bf = c.kind == Kind::bf16x2;
      return close(sim & 0xffff, gpu & 0xffff, 16, bf, bound) &&
             close(sim >> 16, gpu >> 16, 16, bf, bound);
    }
    case Kind::f32x2:
      return close(sim & 0xffffffffu, gpu & 0xffffffffu, 32, false, bound) &&
             close(sim >> 32, gpu >> 32, 32, false, bound);
    case Kind::bits:
      return sim == gpu;
  }
  return false;
}

struct Recording {
  std::string device;
  std::map<std::string, std::vector<std::uint64_t>> results;
};

std::optional<Recording> read_recording(const std::string& path) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (file == nullptr) return std::nullopt;
  std::string text;
  char chunk[1 << 16];
  int n = 0;
  while ((n = gzread(file, chunk, sizeof chunk)) > 0)
    text.append(chunk, static_cast<std::size_t>(n));
  gzclose(file);
  Recording recording;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("# ", 0) == 0) {
      recording.device = line.substr(2);
      continue;
    }
    std::istringstream fields(line);
    std::string label;
    int bytes = 0;
    fields >> label >> bytes;
    std::vector<std::uint64_t>& values = recording.results[label];
    for (std::string hex; fields >> hex;) values.push_back(std::stoull(hex, nullptr, 16));
  }
  return recording;
}

}  // namespace

TEST_CASE("every intrinsic case gives what the H100 gave, on 1024 inputs each") {
  const auto recording =
      read_recording(std::string(WARPSIM_SOURCE_DIR) + "/tests/shim/data/gpu_vectors_sm90.txt.gz");
  REQUIRE_MESSAGE(recording.has_value(), "cannot read tests/shim/data/gpu_vectors_sm90.txt.gz");
  MESSAGE("recorded on " << recording->device);
  std::size_t exact = 0, approximate = 0, approximate_but_identical = 0;
  std::string approximate_list;  // the approximate cases that differ anywhere, with how often
  for (const Case& c : kCases) {
    CAPTURE(c.label);
    const auto found = recording->results.find(c.label);
    REQUIRE_MESSAGE(found != recording->results.end(), "no GPU recording for " << c.label);
    const std::vector<std::uint64_t>& gpu = found->second;
    REQUIRE(gpu.size() == static_cast<std::size_t>(kInputs));
    Bound base;
    if (const auto b = bounds().find(c.label); b != bounds().end()) base = b->second;
    std::size_t differences = 0, not_identical = 0;
    std::string examples;
    for (int i = 0; i < kInputs; ++i) {
      Bound bound = base;
      if (bound.ulps_for != nullptr) bound.ulps = bound.ulps_for(i);
      if (bound.abs_for != nullptr) bound.abs_bound = bound.abs_for(i);
      const std::uint64_t sim = c.evaluate(i);
      not_identical += sim != gpu[static_cast<std::size_t>(i)] ? 1 : 0;
      const bool same = c.approximate
                            ? approximately_equal(c, sim, gpu[static_cast<std::size_t>(i)], bound)
                            : sim == gpu[static_cast<std::size_t>(i)];
      if (same) continue;
      if (++differences <= 4) {
        examples += "\n  input " + std::to_string(i) + " (" + c.inputs(i) + " ): shim " + hex(sim) +
                    ", GPU " + hex(gpu[static_cast<std::size_t>(i)]);
      }
    }
    CHECK_MESSAGE(differences == 0, std::string(c.label) << ": " << differences << " of " << kInputs
                                                         << " inputs differ" << examples);
    (c.approximate ? approximate : exact) += 1;
    approximate_but_identical += c.approximate && not_identical == 0 ? 1 : 0;
    if (c.approximate && not_identical != 0) {
      approximate_list += " " + std::string(c.label) + " (" + std::to_string(not_identical) + ")";
    }
  }
  MESSAGE(
      exact << " exact cases bit for bit, " << approximate << " approximate cases within bounds ("
            << approximate_but_identical << " of them bit for bit on every input; the others, "
            << "with the number of inputs that differ within bounds:" << approximate_list << ")");
}
