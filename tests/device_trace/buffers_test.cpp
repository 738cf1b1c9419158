// compare_buffer(s): bit for bit, or within a ULP tolerance for floats.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <span>
#include <vector>

#include "warpsim/device_trace.hpp"

using namespace warpsim;

namespace {

template <class T>
BufferData data(std::size_t arg, ValueType type, const std::vector<T>& v) {
  return BufferData{arg, type, std::as_bytes(std::span(v))};
}

}  // namespace

TEST_CASE("identical buffers, and the first of several differing elements") {
  const std::vector<int> a = {1, 2, 3, 4, 5, 6};
  std::vector<int> b = a;
  BufferComparison c = compare_buffer(data(1, ValueType::i32, a), data(1, ValueType::i32, b));
  CHECK(c.identical());
  CHECK(c.count == 6);
  CHECK_FALSE(c.first_index);

  b[2] = -3;
  b[5] = 0;
  c = compare_buffer(data(1, ValueType::i32, a), data(1, ValueType::i32, b));
  CHECK_FALSE(c.identical());
  CHECK(c.differing == 2);
  REQUIRE(c.first_index);
  CHECK(*c.first_index == 2);
  CHECK(format_element(c.sim_bits, ValueType::i32) == "3");
  CHECK(format_element(c.gpu_bits, ValueType::i32) == "-3");
  CHECK(compare_buffer(data(1, ValueType::i32, a), data(1, ValueType::i32, b), 1000).differing ==
        2);  // ints: exact
}

TEST_CASE("ULP tolerance for f32 and f64: without it every bit counts") {
  const std::vector<float> a = {1.0f, -0.0f, 3.0f, std::numeric_limits<float>::quiet_NaN()};
  std::vector<float> b = {std::nextafter(1.0f, 2.0f), 0.0f,
                          std::nextafter(std::nextafter(3.0f, 0.0f), 0.0f),
                          std::bit_cast<float>(0x7fc00001u)};
  BufferComparison exact = compare_buffer(data(0, ValueType::f32, a), data(0, ValueType::f32, b));
  CHECK(exact.differing == 4);
  CHECK(*exact.first_index == 0);

  BufferComparison one = compare_buffer(data(0, ValueType::f32, a), data(0, ValueType::f32, b), 1);
  CHECK(one.differing == 1);  // element 2 is 2 ULP away
  CHECK(*one.first_index == 2);
  CHECK(one.within_tolerance == 3);  // 1 ULP, +0/-0, NaN/NaN
  CHECK_FALSE(one.matches());

  BufferComparison two = compare_buffer(data(0, ValueType::f32, a), data(0, ValueType::f32, b), 2);
  CHECK(two.matches());
  CHECK_FALSE(two.identical());
  CHECK(two.max_ulp == 2);

  const std::vector<double> x = {1e300, -2.5};
  const std::vector<double> y = {std::nextafter(1e300, 0.0), -2.5};
  CHECK(compare_buffer(data(2, ValueType::f64, x), data(2, ValueType::f64, y)).differing == 1);
  CHECK(compare_buffer(data(2, ValueType::f64, x), data(2, ValueType::f64, y), 1).matches());

  CHECK(ulp_distance(std::bit_cast<std::uint32_t>(-0.0f), std::bit_cast<std::uint32_t>(0.0f),
                     ValueType::f32) == 0);
  CHECK(ulp_distance(std::bit_cast<std::uint32_t>(-std::numeric_limits<float>::denorm_min()),
                     std::bit_cast<std::uint32_t>(std::numeric_limits<float>::denorm_min()),
                     ValueType::f32) == 2);
  CHECK(ulp_distance(std::bit_cast<std::uint64_t>(1.0), std::bit_cast<std::uint64_t>(-1.0),
                     ValueType::f64) == 2 * std::bit_cast<std::uint64_t>(1.0));
}

TEST_CASE(
    "buffers of different sizes or types, or on one side only, are problems, not differences") {
  const std::vector<int> a = {1, 2, 3};
  const std::vector<int> shorter = {1, 2};
  CHECK_FALSE(
      compare_buffer(data(1, ValueType::i32, a), data(1, ValueType::i32, shorter)).problem.empty());
  CHECK_FALSE(
      compare_buffer(data(1, ValueType::i32, a), data(1, ValueType::u32, a)).problem.empty());

  const std::vector<BufferData> sim = {data(1, ValueType::i32, a), data(3, ValueType::i32, a)};
  const std::vector<BufferData> gpu = {data(3, ValueType::i32, a), data(4, ValueType::i32, a)};
  const auto all = compare_buffers(sim, gpu);
  REQUIRE(all.size() == 3);
  CHECK(all[0].arg == 1);
  CHECK(all[0].problem.find("GPU run returned no buffer") != std::string::npos);
  CHECK(all[1].arg == 3);
  CHECK(all[1].identical());
  CHECK(all[2].arg == 4);
  CHECK(all[2].problem.find("simulator run has no buffer") != std::string::npos);
}

TEST_CASE("elements print as `run --json` prints buffers") {
  CHECK(format_element(std::bit_cast<std::uint32_t>(0.1f), ValueType::f32) == "0.100000001");
  CHECK(format_element(std::bit_cast<std::uint64_t>(0.1), ValueType::f64) == "0.10000000000000001");
  CHECK(format_element(std::bit_cast<std::uint32_t>(-std::numeric_limits<float>::infinity()),
                       ValueType::f32) == "-inf");
  CHECK(format_element(0x7ff8000000000000ull, ValueType::f64) == "nan");
  CHECK(format_element(0xffffffffu, ValueType::u32) == "4294967295");
  CHECK(format_element(0xffffffffffffffffull, ValueType::i64) == "-1");
}
