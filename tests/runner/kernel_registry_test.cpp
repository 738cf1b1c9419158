// The kernel descriptor deduced from a kernel's signature, and launching through it.
#include <doctest/doctest.h>

#include "support/expected_text.hpp"

#include <cstdint>
#include <string>

#include "warpsim/kernel_registry.hpp"
#include "warpsim/runner.hpp"

using namespace warpsim;

namespace {

struct Float4Like {
  float x, y, z, w;
};
enum class Mode : std::uint8_t { fast, exact };
enum Level : long long { low, high };

int g_calls = 0;
float g_seen_scale = 0;
std::uint64_t g_seen_count = 0;

void no_params() { ++g_calls; }

void saxpy(const float* __restrict__ x, float* y, float scale, unsigned long long count) {
  ++g_calls;
  g_seen_scale = scale;
  g_seen_count = count;
  y[0] = x[0] * scale;
}

void odd_types(Float4Like* vectors, void* raw, Mode mode, Level level, bool flag, double d,
               const volatile int* v, std::int8_t small) {
  (void)vectors, (void)raw, (void)mode, (void)level, (void)flag, (void)d, (void)v, (void)small;
}

template <int N>
void templated(int* out) {
  out[0] = N;
}

void no_throw(int* out) noexcept { out[0] = 7; }

}  // namespace

TEST_CASE("a kernel without parameters has an empty table and still launches") {
  const KernelDescriptor& d = kernel_descriptor<&no_params>::value("no_params");
  CHECK(d.abi_version == kKernelAbiVersion);
  CHECK(std::string(d.name) == "no_params");
  CHECK(d.param_count == 0);
  g_calls = 0;
  d.invoke(nullptr);
  CHECK(g_calls == 1);
}

TEST_CASE("pointer and scalar parameters are described and passed as cudaLaunchKernel does") {
  const KernelDescriptor& d = kernel_descriptor<&saxpy>::value("saxpy");
  REQUIRE(d.param_count == 4);
  CHECK(d.params[0].is_pointer);
  CHECK(d.params[0].kind == ValueKind::floating);
  CHECK(d.params[0].size == 4);
  CHECK(std::string(d.params[0].type_name) == "const float*");
  CHECK(d.params[1].is_pointer);
  CHECK(std::string(d.params[1].type_name) == "float*");
  CHECK_FALSE(d.params[2].is_pointer);
  CHECK(d.params[2].kind == ValueKind::floating);
  CHECK(d.params[3].kind == ValueKind::unsigned_integer);
  CHECK(d.params[3].size == 8);

  float x = 3.0f, y = 0.0f;
  void* x_ptr = &x;
  void* y_ptr = &y;
  std::uint64_t scale_bits = 0;
  const float scale = 2.5f;
  static_assert(sizeof scale <= sizeof scale_bits);
  __builtin_memcpy(&scale_bits, &scale, sizeof scale);  // little-endian: low bytes
  std::uint64_t count = 1234567890123ull;
  void* args[] = {&x_ptr, &y_ptr, &scale_bits, &count};
  g_calls = 0;
  d.invoke(args);
  CHECK(g_calls == 1);
  CHECK(y == 7.5f);
  CHECK(g_seen_scale == 2.5f);
  CHECK(g_seen_count == 1234567890123ull);
}

TEST_CASE("types no --arg names are kind `other`; bool is boolean; enums take their underlying kind") {
  const KernelDescriptor& d = kernel_descriptor<&odd_types>::value("odd_types");
  REQUIRE(d.param_count == 8);
  CHECK(d.params[0].is_pointer);
  CHECK(d.params[0].kind == ValueKind::other);
  CHECK(d.params[0].size == 16);
  CHECK(d.params[1].is_pointer);
  CHECK(d.params[1].size == 0);  // void*
  CHECK(d.params[2].kind == ValueKind::unsigned_integer);
  CHECK(d.params[2].size == 1);
  CHECK(d.params[3].kind == ValueKind::signed_integer);
  CHECK(d.params[3].size == 8);
  CHECK(d.params[4].kind == ValueKind::boolean);  // bool: --arg b8
  CHECK(d.params[5].kind == ValueKind::floating);
  CHECK(d.params[5].size == 8);
  CHECK(d.params[6].is_pointer);
  CHECK(d.params[6].kind == ValueKind::signed_integer);
  CHECK(d.params[6].size == 4);
  CHECK(d.params[7].kind == ValueKind::signed_integer);
  CHECK(d.params[7].size == 1);
}

TEST_CASE("template instantiations and noexcept kernels register like any other") {
  const KernelDescriptor& t = kernel_descriptor<&templated<42>>::value("templated<42>");
  REQUIRE(t.param_count == 1);
  int out = 0;
  void* out_ptr = &out;
  void* args[] = {&out_ptr};
  t.invoke(args);
  CHECK(out == 42);

  const KernelDescriptor& n = kernel_descriptor<&no_throw>::value("no_throw");
  REQUIRE(n.param_count == 1);
  n.invoke(args);
  CHECK(out == 7);
}

TEST_CASE("the --arg list is checked against the descriptor, naming parameter and types") {
  const KernelDescriptor& d = kernel_descriptor<&saxpy>::value("saxpy");
  auto specs = [](std::initializer_list<const char*> texts) {
    std::vector<runner::ArgSpec> out;
    for (const char* text : texts) out.push_back(*runner::parse_arg_spec(text));
    return out;
  };
  CHECK(
      warpsim::test::problem(runner::check_args_against_kernel(specs({"f32[4]:iota", "f32[4]:zeros", "f32:2", "u64:4"}), d))
          .empty());
  CHECK(warpsim::test::problem(runner::check_args_against_kernel(specs({"f32[4]:iota"}), d)) ==
        "kernel 'saxpy' takes 4 parameters but 1 --arg was given; parameters: 0: 'const float*' "
        "(--arg f32[N]:zeros), 1: 'float*' (--arg f32[N]:zeros), 2: 'float' (--arg f32:VALUE), "
        "3: 'long long unsigned int' (--arg u64:VALUE)");
  CHECK(warpsim::test::problem(runner::check_args_against_kernel(specs({"f32[4]:iota", "f32[4]:zeros", "f32:2", "i64:4"}),
                                          d)) ==
        "parameter 3 of 'saxpy' (--arg 4): the parameter has type 'long long unsigned int' but the "
        "argument is i64; write --arg u64:VALUE");
  CHECK(warpsim::test::problem(runner::check_args_against_kernel(specs({"f32:1", "f32[4]:zeros", "f32:2", "u64:4"}), d)) ==
        "parameter 0 of 'saxpy' (--arg 1): the parameter is a pointer 'const float*' but the "
        "argument is a scalar f32; write --arg f32[N]:zeros");

  const KernelDescriptor& odd = kernel_descriptor<&odd_types>::value("odd_types");
  const std::string bool_param =
      warpsim::test::problem(runner::check_args_against_kernel(specs({"f32[4]:zeros", "u32[1]:zeros", "u32:0", "i64:0",
                                               "i32:1", "f64:0", "i32[1]:zeros", "i32:0"}),
                                        odd));
  CHECK(bool_param.find("parameter 2 of 'odd_types' (--arg 3): the parameter has type") !=
        std::string::npos);
  CHECK(bool_param.find("Mode' but the argument is u32") != std::string::npos);
}
