// The --arg element types beyond 32/64-bit: u8 i8 u16 i16 f16 bf16 b8, as buffers and scalars
// (tests/runner/kernels/element_types.cu), and -I/-D reaching the kernel compiler.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "warpsim/kernel_file.hpp"
#include "warpsim/runner.hpp"

using namespace warpsim::runner;
using warpsim::Expected;

namespace {

const std::string kKernels = std::string(WARPSIM_SOURCE_DIR) + "/tests/runner/kernels/";

ArgSpec spec(const std::string& text) {
  const Expected<ArgSpec> parsed = parse_arg_spec(text);
  INFO(text);
  REQUIRE(parsed);
  return *parsed;
}

// `kernel` of element_types.cu on one block of `threads`, with (in, out, scalar).
KernelFileResult run(const std::string& kernel, unsigned threads, const std::string& in,
                     const std::string& out, const std::string& scalar) {
  KernelFileRequest request;
  request.file = kKernels + "element_types.cu";
  request.kernel = kernel;
  request.grid = {1};
  request.block = {threads};
  request.args = {spec(in), spec(out), spec(scalar)};
  return run_kernel_file(request);
}

// Element i of parameter `arg` as a signed integer of the element's width.
std::int64_t signed_element(const KernelFileResult& r, std::size_t arg, std::uint64_t i) {
  const OutputBuffer& b = r.buffers.at(arg);
  const int width = static_cast<int>(element_size(b.type)) * 8;
  const std::uint64_t sign = std::uint64_t{1} << (width - 1);
  return static_cast<std::int64_t>((b.element(i) ^ sign) - sign);
}

float float_element(const KernelFileResult& r, std::size_t arg, std::uint64_t i) {
  const OutputBuffer& b = r.buffers.at(arg);
  const ShownElement shown = shown_element(b.type, b.element(i));
  REQUIRE(shown.type == warpsim::ValueType::f32);
  return std::bit_cast<float>(static_cast<std::uint32_t>(shown.bits));
}

}  // namespace

TEST_CASE("u8, i8 and char buffers and scalars reach the kernel and come back element-wise") {
  const KernelFileResult u8 = run("u8_kernel", 32, "u8[32]:iota", "u8[32]:zeros", "u8:200");
  INFO(u8.message << u8.details);
  REQUIRE(u8.status == RunStatus::completed);
  for (std::uint64_t i = 0; i < 32; ++i) CHECK(u8.buffers[1].element(i) == ((2 * i + 200) & 0xff));

  const KernelFileResult i8 = run("i8_kernel", 32, "i8[32]:iota", "i8[32]:zeros", "i8:-100");
  REQUIRE(i8.status == RunStatus::completed);
  for (std::uint64_t i = 0; i < 32; ++i) {
    CHECK(signed_element(i8, 1, i) == static_cast<std::int8_t>(-100 - static_cast<int>(i)));
  }

  const KernelFileResult c =
      run("char_kernel", 32, "i8[32]:random:5:-50:50", "i8[32]:zeros", "i8:3");
  INFO(c.message << c.details);
  REQUIRE(c.status == RunStatus::completed);
  for (std::uint64_t i = 0; i < 32; ++i) {
    const std::int64_t in = signed_element(c, 0, i);
    CHECK(in >= -50);
    CHECK(in <= 50);
    CHECK(signed_element(c, 1, i) == in + 3);
  }
}

TEST_CASE("u16 and i16 buffers and scalars") {
  const KernelFileResult u16 = run("u16_kernel", 32, "u16[32]:iota", "u16[32]:zeros", "u16:7");
  REQUIRE(u16.status == RunStatus::completed);
  for (std::uint64_t i = 0; i < 32; ++i) CHECK(u16.buffers[1].element(i) == i * 1000 + 7);

  const KernelFileResult i16 = run("i16_kernel", 32, "i16[32]:iota", "i16[32]:zeros", "i16:5");
  REQUIRE(i16.status == RunStatus::completed);
  for (std::uint64_t i = 0; i < 32; ++i) {
    CHECK(signed_element(i16, 1, i) == -static_cast<std::int64_t>(i) * 1000 + 5);
  }
}

TEST_CASE("f16 and bf16 buffers and scalars, shown as their float values") {
  const KernelFileResult f16 =
      run("f16_kernel", 4, "f16[4]:0.5,1.5,-2,65504", "f16[4]:zeros", "f16:2");
  INFO(f16.message << f16.details);
  REQUIRE(f16.status == RunStatus::completed);
  CHECK(float_element(f16, 1, 0) == 1.0f);
  CHECK(float_element(f16, 1, 1) == 3.0f);
  CHECK(float_element(f16, 1, 2) == -4.0f);
  CHECK(std::isinf(float_element(f16, 1, 3)));  // 131008 overflows binary16
  CHECK(f16.buffers[1].element(3) == 0x7c00u);

  const KernelFileResult bf16 = run("bf16_kernel", 3, "bf16[3]:1,0.5,-3", "bf16[3]:zeros", "bf16:0.25");
  REQUIRE(bf16.status == RunStatus::completed);
  CHECK(float_element(bf16, 1, 0) == 1.25f);
  CHECK(float_element(bf16, 1, 1) == 0.75f);
  CHECK(float_element(bf16, 1, 2) == -2.75f);
}

TEST_CASE("b8 (bool) buffers and scalars") {
  const KernelFileResult b8 = run("b8_kernel", 4, "b8[4]:1,0,true,false", "b8[4]:zeros", "b8:true");
  REQUIRE(b8.status == RunStatus::completed);
  const std::vector<std::uint64_t> want{0, 1, 0, 1};
  for (std::uint64_t i = 0; i < 4; ++i) CHECK(b8.buffers[1].element(i) == want[i]);
  CHECK(spec("b8[3]:iota").type == ElementType::b8);
}

TEST_CASE("iota, random and literal lists give each new type its values") {
  CHECK(spec("f16[3]:iota").init == BufferInit::iota);
  CHECK(integer_element(ElementType::f16, 2) == 0x4000u);
  CHECK(integer_element(ElementType::bf16, -1) == 0xbf80u);
  CHECK(integer_element(ElementType::b8, 3) == 1u);
  CHECK(integer_element(ElementType::u8, 300) == 44u);
  CHECK(integer_element(ElementType::i16, -1) == 0xffffu);
  for (std::uint64_t i = 0; i < 64; ++i) {
    const std::uint64_t bits = random_element(ElementType::f16, 3, -4, 4, i);
    const float value = f16_value(static_cast<std::uint16_t>(bits));
    CHECK(value == std::floor(value));
    CHECK(std::fabs(value) <= 4.0f);
    CHECK(random_element(ElementType::b8, 9, 0, 1, i) <= 1u);
  }
  CHECK(spec("u8[2]:255,0x7f").list == std::vector<std::uint64_t>{255, 127});
  CHECK(spec("i8[2]:-128,127").list == std::vector<std::uint64_t>{0x80, 0x7f});
  CHECK(spec("i16:-2").scalar_bits == 0xfffeu);
  CHECK(spec("f16:1").scalar_bits == 0x3c00u);
  CHECK(spec("bf16:-2").scalar_bits == 0xc000u);
  CHECK(spec("b8:false").scalar_bits == 0u);
}

TEST_CASE("C++ values spell the new types' arguments") {
  const warpsim::KernelArg byte = warpsim::scalar(static_cast<unsigned char>(200));
  CHECK(byte.type == ElementType::u8);
  CHECK(byte.scalar_bits == 200u);
  CHECK(warpsim::scalar(true).type == ElementType::b8);
  CHECK(warpsim::scalar(true).scalar_bits == 1u);
  CHECK(warpsim::scalar(static_cast<short>(-1)).scalar_bits == 0xffffu);  // zero-extended
  const warpsim::KernelArg list = warpsim::buffer<signed char>({-1, 5});
  CHECK(list.type == ElementType::i8);
  CHECK(list.list == std::vector<std::uint64_t>{0xff, 5});
  CHECK(warpsim::zeros<std::uint16_t>(4).type_text() == "u16[4]");
}

TEST_CASE("16-bit floats round to nearest even, overflow to infinity and keep NaN") {
  CHECK(f16_bits(65504.0f) == 0x7bffu);
  CHECK(f16_bits(65519.0f) == 0x7bffu);
  CHECK(f16_bits(65520.0f) == 0x7c00u);
  CHECK(f16_bits(std::ldexp(1.0f, -24)) == 0x0001u);  // the smallest subnormal
  CHECK(f16_bits(std::ldexp(1.0f, -26)) == 0x0000u);  // below half of it
  CHECK(f16_bits(1.0f + std::ldexp(1.0f, -11)) == 0x3c00u);  // a tie: to even
  CHECK(f16_bits(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3c02u);
  CHECK(f16_bits(-0.0f) == 0x8000u);
  CHECK(std::isnan(f16_value(f16_bits(NAN))));
  CHECK(f16_value(0x3555u) == 0.333251953125f);
  CHECK(f16_value(0x0001u) == std::ldexp(1.0f, -24));
  CHECK(bf16_bits(1.00390625f) == 0x3f80u);  // a tie: to even
  CHECK(bf16_bits(1.01171875f) == 0x3f82u);
  CHECK(std::isnan(bf16_value(bf16_bits(NAN))));
  for (std::uint32_t bits = 0; bits < 0x7c00u; bits += 7) {
    CAPTURE(bits);
    CHECK(f16_bits(f16_value(static_cast<std::uint16_t>(bits))) == bits);  // round trip
  }
}

TEST_CASE("bad specs of the new types say what is wrong") {
  struct Row {
    const char* text;
    const char* message_part;
  };
  const Row rows[] = {
      {"u8:256", "'256' is out of range for u8 (0..255)"},
      {"i8:-129", "out of range for i8 (-128..127"},
      {"i16:40000", "out of range for i16 (-32768..32767"},
      {"u16:-1", "out of range for u16"},
      {"b8:2", "'2' is not a b8 (bool) value: 0, 1, false or true"},
      {"f16:1e6", "'1e6' is out of range for f16 (largest finite value 65504)"},
      {"bf16:abc", "'abc' is not a number"},
      {"bool:1", "unknown type 'bool' (write b8)"},
      {"__half:1", "(write f16)"},
      {"__nv_bfloat16:1", "(write bf16)"},
      {"short:1", "(write i16)"},
      {"q8:1", "types are i32, u32, f32, i64, u64, f64, u8, i8, u16, i16, f16, bf16, b8"},
      {"u8[4]:random:1:0:300", "random: LO and HI must fit the type exactly (0..255)"},
      {"b8[2]:1,2", "value 1 of the list: '2' is not a b8"},
  };
  for (const Row& row : rows) {
    CAPTURE(row.text);
    const Expected<ArgSpec> parsed = parse_arg_spec(row.text);
    REQUIRE_FALSE(parsed);
    INFO(parsed.error().message);
    CHECK(parsed.error().message.find(row.message_part) != std::string::npos);
  }
  // A buffer of another type for a __half* parameter names the type to write.
  const KernelFileResult wrong = run("f16_kernel", 4, "u16[4]:iota", "f16[4]:zeros", "f16:1");
  CHECK(wrong.status == RunStatus::bad_input);
  INFO(wrong.message);
  CHECK(wrong.message.find("'const __half*' but the argument is u16[4]; write --arg f16[N]:zeros") !=
        std::string::npos);
}

TEST_CASE("-I and -D reach the kernel compiler; bad ones are refused by name") {
  KernelFileRequest request;
  request.file = kKernels + "compile_options.cu";
  request.kernel = "scaled";
  request.grid = {1};
  request.block = {32};
  request.args = {spec("i32[32]:zeros")};
  const KernelFileResult without = run_kernel_file(request);
  CHECK(without.status == RunStatus::bad_input);  // scale.h is found only through -I
  CHECK(without.details.find("scale.h") != std::string::npos);

  request.include_dirs = {kKernels + "include_dir"};
  request.defines = {"OFFSET=3"};
  const KernelFileResult once = run_kernel_file(request);
  INFO(once.message << once.details);
  REQUIRE(once.status == RunStatus::completed);
  for (int i = 0; i < 32; ++i) CHECK(once.buffer<int>(0)[static_cast<std::size_t>(i)] == 10 * i + 3);

  request.defines.push_back("TWICE");  // another build, not the cached one
  const KernelFileResult twice = run_kernel_file(request);
  REQUIRE(twice.status == RunStatus::completed);
  for (int i = 0; i < 32; ++i) {
    CHECK(twice.buffer<int>(0)[static_cast<std::size_t>(i)] == 2 * (10 * i + 3));
  }

  request.defines = {"1X=2"};
  const KernelFileResult bad_define = run_kernel_file(request);
  CHECK(bad_define.status == RunStatus::bad_input);
  CHECK(bad_define.message == "-D '1X=2': expected NAME or NAME=VALUE, NAME an identifier");
  request.defines = {"OFFSET=1"};
  request.include_dirs = {kKernels + "no_such_dir"};
  const KernelFileResult bad_dir = run_kernel_file(request);
  CHECK(bad_dir.status == RunStatus::bad_input);
  CHECK(bad_dir.message == "-I '" + kKernels + "no_such_dir': no such folder");
}
