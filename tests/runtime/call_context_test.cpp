// call_context (sim/runtime/call_context.hpp): where a call sits in its kernel's source, and
// where its mask comes from.
#include <doctest/doctest.h>

#include <string>

#include "call_context.hpp"

using warpsim::runtime::call_context;
using warpsim::runtime::MaskOrigin;
using warpsim::sync::CallShape;

namespace {

// The shape of the __shfl_xor_sync call on the line that holds `marker` (a comment).
CallShape shape_at(const std::string& source, const std::string& marker,
                   std::string_view callee = "__shfl_xor_sync") {
  const auto at = source.find(marker);
  REQUIRE(at != std::string::npos);
  std::uint32_t line = 1;
  for (std::size_t k = 0; k < at; ++k) line += source[k] == '\n' ? 1 : 0;
  return call_context(source, line, callee).shape;
}

}  // namespace

TEST_CASE("a call in a branch, and a call after an early return") {
  const std::string branch = R"(
__global__ void k(int* out) {
  int v = threadIdx.x;
  if (threadIdx.x < 16) v = __shfl_xor_sync(0xffffffff, v, 1);  // @call
  out[threadIdx.x] = v;
}
)";
  const CallShape a = shape_at(branch, "@call");
  CHECK(a.known);
  CHECK(a.in_branch);
  CHECK_FALSE(a.return_before);
  CHECK(a.loop_first_line == 0);

  const std::string early = R"(
__global__ void k(int n, unsigned* out) {
  if (static_cast<int>(threadIdx.x) >= n) return;
  out[threadIdx.x] = __shfl_xor_sync(0xffffffff, 1, 1);  // @call
}
)";
  const CallShape b = shape_at(early, "@call");
  CHECK(b.known);
  CHECK_FALSE(b.in_branch);
  CHECK(b.return_before);
}

TEST_CASE("braces, else arms, switch, ?: and && put a call in a branch") {
  const std::string source = R"(
__device__ int f(int v, int lane, bool p) {
  if (lane < 8) {
    v += 1;
  } else {
    v = __shfl_xor_sync(0xffffffff, v, 1);  // @else
  }
  switch (lane) {
    case 3: v = __shfl_xor_sync(0xffffffff, v, 2); break;  // @case
    default: break;
  }
  v = lane < 4 ? __shfl_xor_sync(0xffffffff, v, 4) : v;  // @ternary
  if (p && __any_sync(0xffffffff, v > 0)) v = 0;  // @and
  v = __shfl_xor_sync(0xffffffff, v, 8);  // @plain
  return v;
}
)";
  CHECK(shape_at(source, "@else").in_branch);
  CHECK(shape_at(source, "@case").in_branch);
  CHECK(shape_at(source, "@ternary").in_branch);
  CHECK(shape_at(source, "@and", "__any_sync").in_branch);
  const CallShape plain = shape_at(source, "@plain");
  CHECK(plain.known);
  CHECK_FALSE(plain.in_branch);
  CHECK_FALSE(plain.return_before);  // the return is after the call
}

TEST_CASE("loops: their lines, and returns inside them") {
  const std::string source = R"(
__global__ void k(const int* row, int* out, int n) {
  const int lane = threadIdx.x & 31;
  int acc = 0;
  for (int k = lane; k < n; k += 32) {
    const int x = row[k];
    acc += x + __shfl_xor_sync(0xffffffff, x, 1);  // @loop
  }
  while (true) {
    acc = __shfl_xor_sync(0xffffffff, acc, 1);  // @while
    if (acc > 100) return;
  }
}
)";
  const CallShape loop = shape_at(source, "@loop");
  CHECK(loop.known);
  CHECK_FALSE(loop.in_branch);
  CHECK(loop.loop_first_line == 5);
  CHECK(loop.loop_last_line == 8);
  CHECK_FALSE(loop.return_in_loop);
  const CallShape with_return = shape_at(source, "@while");
  CHECK(with_return.return_in_loop);
  CHECK_FALSE(with_return.return_before);
  CHECK(with_return.loop_first_line == 9);
}

TEST_CASE("returns inside lambdas belong to the lambda") {
  const std::string source = R"(
__global__ void k(int* out) {
  auto twice = [](int x) { return 2 * x; };
  int v = twice(threadIdx.x);
  if (v > 4) v = __shfl_xor_sync(0xffffffff, v, 1);  // @call
  out[threadIdx.x] = v;
}
)";
  const CallShape s = shape_at(source, "@call");
  CHECK(s.known);
  CHECK(s.in_branch);
  CHECK_FALSE(s.return_before);
}

TEST_CASE("comments, strings, preprocessor lines and templates do not confuse it") {
  const std::string source = R"(
#include <cuda_runtime.h>
#define FULL 0xffffffff  /* if ( { */
namespace demo {
template <int N>
struct Tile { static constexpr int size = N; };
// if (x) {
__device__ const char* kText = "} if (";
template <unsigned N>
__global__ void k(int* out) {
  int v = 1'000;
  char c = '}';
  if (threadIdx.x < N) {
    v = __shfl_xor_sync(FULL, v, 1);  // @call
  }
  out[threadIdx.x] = v + c;
}
}  // namespace demo
)";
  const CallShape s = shape_at(source, "@call");
  CHECK(s.known);
  CHECK(s.in_branch);
  CHECK_FALSE(s.return_before);
}

TEST_CASE("a member call such as tile.shfl is found when the intrinsic is not on the line") {
  const std::string source = R"(
__global__ void k(int* out) {
  auto tile = make_tile();
  int v = 0;
  if (threadIdx.x < 8) v = tile.shfl(v, 0);  // @call
  out[threadIdx.x] = v;
}
)";
  const CallShape s = shape_at(source, "@call", "__shfl_sync");
  CHECK(s.known);
  CHECK(s.in_branch);
}

TEST_CASE("what it cannot read is unknown") {
  CHECK_FALSE(call_context("", 1, "__shfl_sync").shape.known);
  CHECK_FALSE(call_context("int x = 1;\n", 1, "__shfl_sync").shape.known);  // no call on the line
  CHECK_FALSE(call_context("void f() { if (x) { g(); }\n", 1, "g").shape.known);  // unbalanced
  CHECK_FALSE(call_context("int y = g(1);\n", 1, "g").shape.known);  // not in a function
  CHECK(call_context("", 1, "__shfl_sync").mask == MaskOrigin::unknown);
}

TEST_CASE("where a call's mask comes from") {
  const std::string source = R"(
#define FULL 0xffffffffu
__device__ unsigned helper(unsigned mask, int v) {
  return __shfl_sync(mask, v, 0);  // @param
}
__global__ void k(unsigned* out, int v) {
  out[0] = __ballot_sync(__activemask(), v > 0);  // @direct
  const unsigned active = __activemask();
  unsigned members = __ballot_sync(0xffffffff, v > 1);  // @literal
  out[1] = __ballot_sync(active, v > 2);  // @variable
  out[2] = __ballot_sync(members, v > 3);  // @ballot_variable
  out[3] = __ballot_sync(FULL, v > 4);  // @macro
  unsigned m = __activemask();
  m = 0xffu;
  out[4] = __ballot_sync(m, v > 5);  // @reassigned
  unsigned n = 0xffu;
  n &= __activemask();
  out[5] = __ballot_sync(n, v > 6);  // @compound
  out[6] = __ballot_sync(static_cast<unsigned>(active), v);  // @cast
  out[7] = tile.ballot(v);  // @member
}
)";
  const auto origin = [&](const std::string& marker, std::string_view callee = "__ballot_sync") {
    const auto at = source.find("// @" + marker);
    REQUIRE(at != std::string::npos);
    std::uint32_t line = 1;
    for (std::size_t k = 0; k < at; ++k) line += source[k] == '\n' ? 1 : 0;
    return call_context(source, line, callee).mask;
  };
  CHECK(origin("direct") == MaskOrigin::activemask);
  CHECK(origin("literal") == MaskOrigin::elsewhere);
  CHECK(origin("variable") == MaskOrigin::activemask);
  CHECK(origin("ballot_variable") == MaskOrigin::elsewhere);
  CHECK(origin("macro") == MaskOrigin::elsewhere);
  CHECK(origin("reassigned") == MaskOrigin::elsewhere);
  CHECK(origin("compound") == MaskOrigin::activemask);
  CHECK(origin("cast") == MaskOrigin::activemask);
  CHECK(origin("param", "__shfl_sync") == MaskOrigin::unknown);
  CHECK(origin("member") == MaskOrigin::elsewhere);
}

// Regression: a mask made by __ballot_sync and handed to a helper was reported as
// activemask_as_mask when an earlier __activemask() happened to return the same value. The
// helper's parameter is followed to what its callers pass.
TEST_CASE("a helper's mask parameter comes from what its callers pass") {
  const std::string source = R"(
__device__ __noinline__ unsigned from_ballot(unsigned m, unsigned v) {
  return __shfl_sync(m, v, 0);  // @ballot
}
__device__ unsigned from_active(unsigned v, unsigned m) {
  return __shfl_sync(m, v, 0);  // @active
}
__device__ unsigned inner(unsigned m, unsigned v) {
  return __shfl_sync(m, v, 0);  // @two_levels
}
__device__ unsigned outer(unsigned v, unsigned mask) { return inner(mask, v); }
__device__ unsigned uncalled(unsigned m, unsigned v) {
  return __shfl_sync(m, v, 0);  // @uncalled
}
__device__ unsigned recursive(unsigned m, unsigned v) {
  return v == 0 ? __shfl_sync(m, v, 0) : recursive(m, v - 1);  // @recursive
}
__global__ void am_param(const unsigned* in, unsigned* out) {
  const unsigned lane = threadIdx.x & 31u;
  const unsigned m = __ballot_sync(0xffffffffu, lane < 16u);
  unsigned r = 0;
  if (lane < 16u) {
    const unsigned am = __activemask();
    r = (am >> lane) & 1u;
    r += from_ballot(m, in[threadIdx.x]);
    r += from_active(r, am);
    r += outer(r, __ballot_sync(0xffffffffu, r > 2));
    r += recursive(0xffffu, r);
  }
  out[threadIdx.x] = r;
}
)";
  const auto origin = [&](const std::string& marker) {
    const auto at = source.find("// @" + marker);
    REQUIRE(at != std::string::npos);
    std::uint32_t line = 1;
    for (std::size_t k = 0; k < at; ++k) line += source[k] == '\n' ? 1 : 0;
    return call_context(source, line, "__shfl_sync").mask;
  };
  CHECK(origin("ballot") == MaskOrigin::elsewhere);
  CHECK(origin("active") == MaskOrigin::activemask);
  CHECK(origin("two_levels") == MaskOrigin::elsewhere);
  CHECK(origin("uncalled") == MaskOrigin::unknown);
  CHECK(origin("recursive") == MaskOrigin::elsewhere);
}
