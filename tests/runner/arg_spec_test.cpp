// --arg, --grid and --block parsing, and matching arguments to kernel parameters.
#include <doctest/doctest.h>

#include "support/expected_text.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "warpsim/runner.hpp"

using namespace warpsim;
using namespace warpsim::runner;

namespace {

std::uint64_t f32_bits(float value) { return std::bit_cast<std::uint32_t>(value); }
std::uint64_t f64_bits(double value) { return std::bit_cast<std::uint64_t>(value); }

}  // namespace

TEST_CASE("scalar specs parse to the value's bits, range-checked per type") {
  struct Row {
    const char* text;
    ElementType type;
    std::uint64_t bits;
  };
  const Row rows[] = {
      {"i32:1000", ElementType::i32, 1000},
      {"i32:-1", ElementType::i32, 0xffffffffu},
      {"i32:-2147483648", ElementType::i32, 0x80000000u},
      {"i32:2147483647", ElementType::i32, 0x7fffffffu},
      {"i32:0xffffffff", ElementType::i32, 0xffffffffu},  // hex is a bit pattern
      {"i32:-0x10", ElementType::i32, 0xfffffff0u},
      {"u32:0xffffffff", ElementType::u32, 0xffffffffu},
      {"u32:4294967295", ElementType::u32, 0xffffffffu},
      {"u32:0", ElementType::u32, 0},
      {"i64:-1", ElementType::i64, ~std::uint64_t{0}},
      {"i64:-9223372036854775808", ElementType::i64, std::uint64_t{1} << 63},
      {"u64:18446744073709551615", ElementType::u64, ~std::uint64_t{0}},
      {"u64:0xDEADBEEFdeadbeef", ElementType::u64, 0xdeadbeefdeadbeefull},
      {"f32:0.5", ElementType::f32, f32_bits(0.5f)},
      {"f32:-1e-3", ElementType::f32, f32_bits(-1e-3f)},
      {"f32:-0", ElementType::f32, f32_bits(-0.0f)},
      {"f32:inf", ElementType::f32, f32_bits(std::numeric_limits<float>::infinity())},
      {"f32:0x1p-3", ElementType::f32, f32_bits(0.125f)},
      {"f64:-1e300", ElementType::f64, f64_bits(-1e300)},
      {"f64:0.1", ElementType::f64, f64_bits(0.1)},
  };
  for (const Row& row : rows) {
    const std::string text = row.text;
    CAPTURE(text);
    auto spec = parse_arg_spec(row.text);
    REQUIRE_MESSAGE(spec, spec.error().message);
    CHECK_FALSE(spec->is_buffer);
    CHECK(spec->type == row.type);
    CHECK(spec->scalar_bits == row.bits);
  }
  auto nan = parse_arg_spec("f32:nan");
  REQUIRE(nan);
  CHECK(std::isnan(std::bit_cast<float>(static_cast<std::uint32_t>(nan->scalar_bits))));
}

TEST_CASE("buffer specs take zeros, iota, file:PATH or exactly COUNT values") {
  auto zeros = parse_arg_spec("f32[1024]:zeros");
  REQUIRE(zeros);
  CHECK(zeros->is_buffer);
  CHECK(zeros->count == 1024);
  CHECK(zeros->init == BufferInit::zeros);
  CHECK(zeros->type_text() == "f32[1024]");

  auto iota = parse_arg_spec("u64[7]:iota");
  REQUIRE(iota);
  CHECK(iota->init == BufferInit::iota);

  auto file = parse_arg_spec("i32[4]:file:data/in.bin");
  REQUIRE(file);
  CHECK(file->init == BufferInit::file);
  CHECK(file->path == "data/in.bin");

  auto list = parse_arg_spec("i32[4]:1, -2,0x10,3");
  REQUIRE_MESSAGE(list, list.error().message);
  CHECK(list->init == BufferInit::list);
  CHECK(list->list == std::vector<std::uint64_t>{1, 0xfffffffeu, 16, 3});

  auto floats = parse_arg_spec("f64[2]:0.25,-2");
  REQUIRE(floats);
  CHECK(floats->list == std::vector<std::uint64_t>{f64_bits(0.25), f64_bits(-2.0)});

  auto empty = parse_arg_spec("f32[0]:zeros");
  REQUIRE(empty);
  CHECK(empty->count == 0);
}

TEST_CASE("every malformed spec is refused with a message saying what is wrong") {
  struct Row {
    const char* text;
    const char* message_part;
  };
  const Row rows[] = {
      {"1000", "expected TYPE:VALUE"},
      {"float:1", "unknown type 'float' (write f32)"},
      {"int:1", "(write i32)"},
      {"q8:1", "types are i32, u32, f32, i64, u64, f64"},
      {"i32:", "'' is not an integer"},
      {"i32:abc", "'abc' is not an integer"},
      {"i32:1.5", "'1.5' is not an integer"},
      {"i32:2147483648", "out of range for i32"},
      {"i32:-2147483649", "out of range for i32"},
      {"i32:0x100000000", "out of range for i32"},
      {"u32:-1", "out of range for u32"},
      {"u32:4294967296", "out of range for u32"},
      {"u64:18446744073709551616", "does not fit in 64 bits"},
      {"f32:1e39", "out of range for f32"},
      {"f32:one", "'one' is not a number"},
      {"f32:--1", "is not a number"},
      {"f64:1e400", "out of range for f64"},
      {"f32[4:zeros", "expected TYPE[COUNT]:INIT"},
      {"f32[4]zeros", "TYPE[COUNT]:INIT"},
      {"f32[-1]:zeros", "count '-1' is not a non-negative integer"},
      {"f32[x]:zeros", "count 'x' is not a non-negative integer"},
      {"f32[99999999999999]:zeros", "too large"},
      {"f32[4]:", "INIT is empty"},
      {"f32[4]:ones", "is not zeros, iota, random:SEED, file:PATH, undefined or a comma list of 4 values"},
      {"f32[4]:1,2", "the list has 2 values; the buffer has 4 elements"},
      {"f32[1]:1,2", "the list has 2 values; the buffer has 1 elements"},
      {"i32[3]:1,,3", "value 1 of the list is empty"},
      {"i32[3]:1,2,x", "value 2 of the list: 'x' is not an integer"},
      {"u32[2]:1,-1", "value 1 of the list: '-1' is out of range for u32"},
      {"f32[2]:file:", "file: needs a path"},
  };
  for (const Row& row : rows) {
    const std::string text = row.text;
    CAPTURE(text);
    auto spec = parse_arg_spec(row.text);
    CHECK_FALSE(spec);
    CHECK_MESSAGE(spec.error().message.find(row.message_part) != std::string::npos, spec.error().message);
  }
}

TEST_CASE("launch shapes are X or X,Y,Z with positive extents") {
  auto one = parse_dim3("256");
  REQUIRE(one);
  CHECK(*one == Dim3{256, 1, 1});
  auto three = parse_dim3("8,4,2");
  REQUIRE(three);
  CHECK(*three == Dim3{8, 4, 2});
  auto two = parse_dim3("16,2");
  REQUIRE(two);
  CHECK(*two == Dim3{16, 2, 1});

  for (const char* bad : {"", "0", "1,0,1", "a", "1,2,3,4", "-1", "1,,2", "4294967296", "1.5"}) {
    const std::string text = bad;
    CAPTURE(text);
    auto dim = parse_dim3(bad);
    CHECK_FALSE(dim);
    CHECK_FALSE(dim.error().message.empty());
  }

  CHECK(warpsim::test::problem(check_launch_shape({1}, {1024})).empty());
  CHECK(warpsim::test::problem(check_launch_shape({65535, 65535, 65535}, {32, 32, 1})).empty());
  CHECK(warpsim::test::problem(check_launch_shape({1}, {1025})).find("at most 1024") != std::string::npos);
  CHECK(warpsim::test::problem(check_launch_shape({1}, {1, 1, 65})).find("at most 64") != std::string::npos);
  CHECK_FALSE(warpsim::test::problem(check_launch_shape({1, 65536, 1}, {32})).empty());
}

TEST_CASE("an argument fits a parameter of the same pointer-ness, kind and size") {
  const KernelParam float_pointer{true, ValueKind::floating, 4, "float*"};
  const KernelParam int_scalar{false, ValueKind::signed_integer, 4, "int"};
  const KernelParam u64_scalar{false, ValueKind::unsigned_integer, 8, "unsigned long long"};
  const KernelParam float4_pointer{true, ValueKind::other, 16, "float4*"};
  const KernelParam void_pointer{true, ValueKind::other, 0, "void*"};
  const KernelParam struct_scalar{false, ValueKind::other, 12, "Params"};

  auto spec = [](const char* text) { return *parse_arg_spec(text); };
  CHECK(warpsim::test::problem(check_arg_against_param(spec("f32[8]:zeros"), float_pointer)).empty());
  CHECK(warpsim::test::problem(check_arg_against_param(spec("i32:3"), int_scalar)).empty());
  CHECK(warpsim::test::problem(check_arg_against_param(spec("u64:3"), u64_scalar)).empty());
  CHECK(warpsim::test::problem(check_arg_against_param(spec("f32[8]:zeros"), float4_pointer)).empty());
  CHECK(warpsim::test::problem(check_arg_against_param(spec("u32[3]:zeros"), void_pointer)).empty());

  const std::string scalar_for_pointer = warpsim::test::problem(check_arg_against_param(spec("f32:1"), float_pointer));
  CHECK(scalar_for_pointer.find("pointer 'float*'") != std::string::npos);
  CHECK(scalar_for_pointer.find("scalar f32") != std::string::npos);
  const std::string buffer_for_scalar = warpsim::test::problem(check_arg_against_param(spec("i32[2]:zeros"), int_scalar));
  CHECK(buffer_for_scalar.find("scalar 'int'") != std::string::npos);
  CHECK(buffer_for_scalar.find("buffer i32[2]") != std::string::npos);
  const std::string wrong_type = warpsim::test::problem(check_arg_against_param(spec("i32[8]:zeros"), float_pointer));
  CHECK(wrong_type.find("'float*'") != std::string::npos);
  CHECK(wrong_type.find("i32[8]") != std::string::npos);
  CHECK_FALSE(warpsim::test::problem(check_arg_against_param(spec("u32:1"), int_scalar)).empty());
  CHECK_FALSE(warpsim::test::problem(check_arg_against_param(spec("i64:1"), int_scalar)).empty());
  CHECK_FALSE(warpsim::test::problem(check_arg_against_param(spec("f32[3]:zeros"), float4_pointer)).empty());
  CHECK(warpsim::test::problem(check_arg_against_param(spec("i32:1"), struct_scalar)).find("no --arg type") !=
        std::string::npos);
}

TEST_CASE("random:SEED fills a buffer with seeded integers, the same on every run") {
  const auto spec = parse_arg_spec("f32[64]:random:7");
  REQUIRE_MESSAGE(spec, (spec ? "" : spec.error().message));
  CHECK(spec->init == BufferInit::random);
  CHECK(spec->seed == 7);
  CHECK(spec->low == -99);
  CHECK(spec->high == 99);
  bool negative = false, positive = false;
  for (std::uint64_t i = 0; i < 64; ++i) {
    const std::uint64_t bits = random_element(ElementType::f32, 7, -99, 99, i);
    float value = 0;
    std::memcpy(&value, &bits, sizeof value);
    CHECK(value == static_cast<float>(static_cast<int>(value)));  // an integer
    CHECK(value >= -99.0f);
    CHECK(value <= 99.0f);
    negative = negative || value < 0;
    positive = positive || value > 0;
  }
  CHECK(negative);
  CHECK(positive);
  // The same seed and index give the same value; another seed another sequence.
  CHECK(random_element(ElementType::i32, 7, -99, 99, 3) == random_element(ElementType::i32, 7, -99, 99, 3));
  bool differs = false;
  for (std::uint64_t i = 0; i < 8; ++i) {
    differs = differs || random_element(ElementType::i32, 7, -99, 99, i) != random_element(ElementType::i32, 8, -99, 99, i);
  }
  CHECK(differs);
  // Pinned values: a change of generator would change every lesson's inputs and recordings.
  const std::int32_t pinned[] = {-4, 7, 29, -48};
  for (std::uint64_t i = 0; i < 4; ++i) {
    CHECK(static_cast<std::int32_t>(random_element(ElementType::i32, 1, -99, 99, i)) == pinned[i]);
  }
  const auto unsigned_spec = parse_arg_spec("u32[4]:random:1");
  REQUIRE(unsigned_spec);
  CHECK(unsigned_spec->low == 0);
  const auto ranged = parse_arg_spec("i32[8]:random:3:-2:2");
  REQUIRE(ranged);
  CHECK(ranged->low == -2);
  CHECK(ranged->high == 2);
  for (std::uint64_t i = 0; i < 100; ++i) {
    const auto v = static_cast<std::int32_t>(random_element(ElementType::i32, 3, -2, 2, i));
    CHECK(v >= -2);
    CHECK(v <= 2);
  }
  CHECK_FALSE(parse_arg_spec("i32[8]:random:"));
  CHECK_FALSE(parse_arg_spec("i32[8]:random:1:5:2"));
  CHECK_FALSE(parse_arg_spec("u32[8]:random:1:-5:2"));
  CHECK_FALSE(parse_arg_spec("i32[8]:random:1:2"));
  CHECK_FALSE(parse_arg_spec("f32[8]:random:x"));
}
