// Structs passed by value: `--arg '{FIELD; FIELD; ...}'` parsed, laid out by the C ABI, checked
// against the fields kernel_registry.hpp reflects, and run end to end
// (tests/runner/kernels/struct_args.cu), buffer fields included.
#include <doctest/doctest.h>

#include "support/expected_text.hpp"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "runner/child_protocol.hpp"
#include "warpsim/kernel_file.hpp"
#include "warpsim/runner.hpp"

using namespace warpsim;
using namespace warpsim::runner;

// At global scope, so that the compiler names them plainly in messages.
// Host structs of the same shapes as struct_args.cu's, for the layout's ground truth.
struct CharDouble {
  char c;
  double d;
};
struct IntPointerShort {
  int i;
  void* p;
  short s;
};
struct ShortChar {
  short s;
  char c;
};
struct HalfInt {
  std::uint16_t h;
  int i;
};
struct Params {
  int n;
  float scale;
  const float* in;
};
struct Nested {
  ShortChar inner;
  float f;
};
struct WithArray {
  float v[3];
  int n;
};
union Bits {
  int i;
  float f;
};
struct PairBase {
  int a;
  int b;
};
struct OnlyBase : PairBase {};
struct EmptyTag {};
struct EmptyBase : EmptyTag {
  int a;
  int* out;
};
struct OneArray {
  float v[3];
};
struct alignas(16) Overaligned {
  int a;
  int b;
};
struct alignas(16) Vec4 {
  float x, y, z, w;
};
struct LateAligned {
  int a;
  alignas(16) int b;
};

namespace {

const std::string kKernels = std::string(WARPSIM_SOURCE_DIR) + "/tests/runner/kernels/";

ArgSpec spec(const std::string& text) {
  const Expected<ArgSpec> parsed = parse_arg_spec(text);
  INFO(text);
  REQUIRE_MESSAGE(parsed, parsed.error().message);
  return *parsed;
}

std::string parse_problem(const std::string& text) {
  const Expected<ArgSpec> parsed = parse_arg_spec(text);
  return parsed ? std::string() : parsed.error().message;
}

KernelFileResult run(const std::string& kernel, unsigned threads, std::vector<ArgSpec> args) {
  KernelFileRequest request;
  request.file = kKernels + "struct_args.cu";
  request.kernel = kernel;
  request.grid = {1};
  request.block = {threads};
  request.args = std::move(args);
  return run_kernel_file(request);
}

template <class T>
T read_at(const std::vector<std::byte>& bytes, std::size_t offset) {
  T value{};
  std::memcpy(&value, bytes.data() + offset, sizeof value);
  return value;
}

// A one-parameter kernel descriptor for the checks.
struct OneParam {
  KernelParam param;
  KernelDescriptor descriptor;
  explicit OneParam(KernelParam p) : param(p) {
    descriptor.name = "k";
    descriptor.param_count = 1;
    descriptor.params = &param;
  }
  std::string problem(const std::string& arg) const {
    return warpsim::test::problem(check_args_against_kernel({spec(arg)}, descriptor));
  }
};

}  // namespace

TEST_CASE("a struct spec is its fields in braces, ';' between them, buffer lists keeping commas") {
  const ArgSpec s = spec("{i32:32; f32:0.5; f32[4]:1,2,3,4}");
  CHECK(s.is_struct);
  CHECK_FALSE(s.is_buffer);
  REQUIRE(s.fields.size() == 3);
  CHECK(s.fields[0].type == ElementType::i32);
  CHECK(s.fields[0].scalar_bits == 32);
  CHECK(s.fields[1].scalar_bits == std::bit_cast<std::uint32_t>(0.5f));
  CHECK(s.fields[2].is_buffer);
  CHECK(s.fields[2].count == 4);
  CHECK(s.fields[2].list.size() == 4);
  CHECK(s.type_text() == "{i32; f32; f32[4]}");
  CHECK(spec("  { u8:7 ;bf16:1.5; b8:true }  ").fields.size() == 3);
  CHECK(spec("{f64[2]:iota}").fields[0].init == BufferInit::iota);
}

TEST_CASE("bad struct specs say what is wrong, naming the field") {
  CHECK(parse_problem("{}") == "a struct argument needs at least one field: {i32:1; f32:2}");
  CHECK(parse_problem("{ }") == "a struct argument needs at least one field: {i32:1; f32:2}");
  CHECK(parse_problem("{i32:1; f32:2") ==
        "a struct argument ends with '}': {FIELD; FIELD; ...}, e.g. {i32:32; f32:0.5}");
  CHECK(parse_problem("{i32:1;; f32:2}") == "field 1 of the struct is empty");
  CHECK(parse_problem("{i32:1; f32:2;}") == "field 2 of the struct is empty");
  CHECK(parse_problem("{i32:1; {f32:2}}") ==
        "nested structs are not supported (only scalar and buffer fields)");
  CHECK(parse_problem("{i32:1; q32:2}").find("field 1 of the struct: unknown type 'q32'; types are") == 0);
  CHECK(parse_problem("{i32:1; u8:300}") ==
        "field 1 of the struct: '300' is out of range for u8 (0..255)");
  CHECK(parse_problem("{i32:1; f32[3]:1,2}") ==
        "field 1 of the struct: the list has 2 values; the buffer has 3 elements");
  CHECK(parse_problem("{i32:1, f32:2}") ==
        "field 0 of the struct: '1, f32:2' is not an integer (fields are separated by ';', not ',')");
  CHECK(parse_problem("i32:1; f32:2") ==
        "';' separates the fields of a struct argument, written in braces: {i32:1; f32:2}");
  CHECK(parse_problem("i32:1}") == "unexpected '}' (a struct argument is written {FIELD; FIELD; ...})");
}

TEST_CASE("struct layout follows the C ABI: natural alignment, padding, tail padding") {
  const StructLayout char_double = struct_layout(spec("{i8:1; f64:2}"));
  CHECK(char_double.offsets == std::vector<std::size_t>{0, offsetof(CharDouble, d)});
  CHECK(char_double.size == sizeof(CharDouble));
  CHECK(char_double.align == alignof(CharDouble));

  const StructLayout int_pointer_short = struct_layout(spec("{i32:1; f32[4]:zeros; i16:3}"));
  CHECK(int_pointer_short.offsets == std::vector<std::size_t>{0, offsetof(IntPointerShort, p),
                                                              offsetof(IntPointerShort, s)});
  CHECK(int_pointer_short.size == sizeof(IntPointerShort));  // 24: 6 bytes of tail padding
  CHECK(int_pointer_short.align == 8);

  const StructLayout short_char = struct_layout(spec("{i16:1; u8:2}"));
  CHECK(short_char.offsets == std::vector<std::size_t>{0, offsetof(ShortChar, c)});
  CHECK(short_char.size == sizeof(ShortChar));

  const StructLayout half_int = struct_layout(spec("{f16:1; i32:2}"));
  CHECK(half_int.offsets == std::vector<std::size_t>{0, offsetof(HalfInt, i)});
  CHECK(half_int.size == sizeof(HalfInt));

  CHECK(arg_value_size(spec("{i8:1; f64:2}")) == 16);
  CHECK(arg_value_align(spec("{i16:1; u8:2}")) == 2);
  CHECK(arg_value_size(spec("f32[9]:zeros")) == 8);
  CHECK(arg_value_size(spec("u16:9")) == 2);
}

TEST_CASE("a struct's bytes: scalar bits and buffer addresses at their offsets, padding zero") {
  const ArgSpec s = spec("{i8:-2; f64:2.5; i32[4]:zeros; i16:-300}");
  const std::vector<std::uint64_t> addresses{0, 0, 0x1122334455667788ull, 0};
  const std::vector<std::byte> bytes = pack_struct(s, addresses);
  REQUIRE(bytes.size() == 32);
  CHECK(read_at<std::int8_t>(bytes, 0) == -2);
  for (std::size_t pad = 1; pad < 8; ++pad) CHECK(bytes[pad] == std::byte{0});
  CHECK(read_at<double>(bytes, 8) == 2.5);
  CHECK(read_at<std::uint64_t>(bytes, 16) == 0x1122334455667788ull);
  CHECK(read_at<std::int16_t>(bytes, 24) == -300);
  for (std::size_t pad = 26; pad < 32; ++pad) CHECK(bytes[pad] == std::byte{0});
}

TEST_CASE("buffer slots list buffer arguments and the buffer fields of structs, in order") {
  const std::vector<ArgSpec> args{spec("f32[2]:zeros"), spec("{i32:1; u8[3]:iota; f32[1]:zeros}"),
                                  spec("i32:4")};
  const std::vector<BufferSlot> slots = buffer_slots(args);
  REQUIRE(slots.size() == 3);
  CHECK((slots[0].arg == 0 && slots[0].field == -1));
  CHECK((slots[1].arg == 1 && slots[1].field == 1 && slots[1].spec->type == ElementType::u8));
  CHECK((slots[2].arg == 1 && slots[2].field == 2));
  CHECK(buffer_label(1, 2) == "--arg 2 field 2");
  CHECK(buffer_label(0, -1) == "--arg 1");
}

TEST_CASE("kernel_registry reflects a plain struct's fields: types, offsets, size and alignment") {
  const KernelParam params = detail::describe_param<Params>();
  CHECK(params.aggregate == Aggregate::reflected);
  CHECK(params.size == sizeof(Params));
  CHECK(params.align == alignof(Params));
  REQUIRE(params.field_count == 3);
  CHECK(params.fields[0].kind == ValueKind::signed_integer);
  CHECK(params.fields[1].kind == ValueKind::floating);
  CHECK(params.fields[1].offset == offsetof(Params, scale));
  CHECK(params.fields[2].is_pointer);
  CHECK(params.fields[2].offset == offsetof(Params, in));
  CHECK(std::string(params.fields[2].type_name) == "const float*");

  const KernelParam nested = detail::describe_param<Nested>();
  REQUIRE(nested.field_count == 2);
  CHECK(nested.fields[0].aggregate == Aggregate::reflected);
  const KernelParam with_array = detail::describe_param<WithArray>();
  REQUIRE(with_array.field_count == 2);  // the array is one field, not three
  CHECK(with_array.fields[0].aggregate == Aggregate::array);
  CHECK(detail::describe_param<Bits>().aggregate == Aggregate::union_type);
  // Not reflected (a structured binding would not match), but described by size and alignment.
  CHECK(detail::describe_param<OnlyBase>().aggregate == Aggregate::opaque);
  CHECK(detail::describe_param<EmptyBase>().aggregate == Aggregate::opaque);
  CHECK(detail::describe_param<EmptyBase>().size == sizeof(EmptyBase));
  CHECK(detail::describe_param<OneArray>().aggregate == Aggregate::opaque);
  CHECK(detail::describe_param<float*>().aggregate == Aggregate::none);
}

TEST_CASE("struct arguments are checked field by field against the reflected parameter") {
  const OneParam params(detail::describe_param<Params>());
  CHECK(params.problem("{i32:32; f32:0.5; f32[32]:iota}").empty());
  CHECK(params.problem("{i32:32; f32:0.5; i32:3}") ==
        "parameter 0 of 'k' (--arg 1): field 2 of 'Params' is 'const float*' but the argument "
        "gives i32; write --arg '{i32:VALUE; f32:VALUE; f32[N]:zeros}'");
  CHECK(params.problem("{i32:32; f64:0.5; f32[32]:iota}") ==
        "parameter 0 of 'k' (--arg 1): field 1 of 'Params' is 'float' but the argument gives "
        "f64; write --arg '{i32:VALUE; f32:VALUE; f32[N]:zeros}'");
  CHECK(params.problem("{i32:32; f32:0.5}") ==
        "parameter 0 of 'k' (--arg 1): the struct 'Params' has 3 fields but the argument "
        "{i32; f32} gives 2; write --arg '{i32:VALUE; f32:VALUE; f32[N]:zeros}'");
  CHECK(params.problem("i32:3") ==
        "parameter 0 of 'k' (--arg 1): the parameter is a struct 'Params' but the argument is "
        "i32; pass a struct as {FIELD; FIELD; ...}; write --arg '{i32:VALUE; f32:VALUE; f32[N]:zeros}'");

  const OneParam scalar(detail::describe_param<int>());
  CHECK(scalar.problem("{i32:3}") ==
        "parameter 0 of 'k' (--arg 1): the parameter is a scalar 'int' but the argument is a "
        "struct {i32}; write --arg i32:VALUE");

  CHECK(OneParam(detail::describe_param<Nested>()).problem("{i16:1; f32:2}") ==
        "parameter 0 of 'k' (--arg 1): field 0 of 'Nested' is 'ShortChar': nested "
        "structs and unions are not supported (only scalar and pointer fields)");
  CHECK(OneParam(detail::describe_param<WithArray>()).problem("{f32:1; i32:2}") ==
        "parameter 0 of 'k' (--arg 1): field 0 of 'WithArray' is an array 'float [3]', which "
        "--arg structs do not describe (only scalar and pointer fields)");
  CHECK(OneParam(detail::describe_param<Bits>()).problem("{i32:1}") ==
        "parameter 0 of 'k' (--arg 1): the parameter is a union 'Bits', which --arg does not "
        "describe (only structs of scalars and pointers)");
}

TEST_CASE("a struct laid out otherwise than the plain C rules is refused, never misread") {
  // alignas on the struct: same fields and offsets, but 16-byte size and alignment.
  CHECK(OneParam(detail::describe_param<Overaligned>()).problem("{i32:1; i32:2}") ==
        "parameter 0 of 'k' (--arg 1): the parameter 'Overaligned' has 16 bytes, alignment 16 "
        "but the struct argument {i32; i32} has 8 bytes, alignment 4; write --arg "
        "'{i32:VALUE; i32:VALUE}'");
  // More aligned than its fields: the same bytes, so it takes them.
  CHECK(OneParam(detail::describe_param<Vec4>()).problem("{f32:1; f32:2; f32:3; f32:4}").empty());
  CHECK(OneParam(detail::describe_param<LateAligned>()).problem("{i32:1; i32:2}").find(
            "field 1 of 'LateAligned' lies at byte 16 but the argument's field 1 at byte 4") !=
        std::string::npos);
  // A class whose fields are not reflected: its size and alignment are still checked.
  KernelParam opaque;
  opaque.kind = ValueKind::other;
  opaque.aggregate = Aggregate::opaque;
  opaque.size = 12;
  opaque.align = 4;
  opaque.type_name = "dim3";
  CHECK(OneParam(opaque).problem("{u32:1; u32:2; u32:3}").empty());
  CHECK(OneParam(opaque).problem("{u32:1; u64:2}") ==
        "parameter 0 of 'k' (--arg 1): the parameter 'dim3' has 12 bytes, alignment 4 but the "
        "struct argument {u32; u64} has 16 bytes, alignment 8");
}

TEST_CASE("the kernel host receives struct arguments whole (the child protocol)") {
  JobMessage job;
  job.shared_object = "k.so";
  job.specs = {spec("{i8:-3; f64:1.5; i32[4]:zeros}"), spec("f32:2")};
  GuardedBuffer field_buffer;
  field_buffer.arg = 0;
  field_buffer.field = 2;
  field_buffer.type = ElementType::i32;
  field_buffer.count = 4;
  job.buffers = {field_buffer};
  const std::optional<JobMessage> back = decode_job(encode(job));
  REQUIRE(back);
  REQUIRE(back->specs.size() == 2);
  CHECK(back->specs[0].is_struct);
  REQUIRE(back->specs[0].fields.size() == 3);
  CHECK(back->specs[0].fields[0].scalar_bits == job.specs[0].fields[0].scalar_bits);
  CHECK(back->specs[0].fields[2].is_buffer);
  CHECK(back->specs[0].fields[2].count == 4);
  CHECK(pack_struct(back->specs[0], {}) == pack_struct(job.specs[0], {}));
  CHECK_FALSE(back->specs[1].is_struct);
  REQUIRE(back->buffers.size() == 1);
  CHECK(back->buffers[0].field == 2);
}

TEST_CASE("a kernel taking a struct by value runs, its pointer field reading a buffer") {
  const KernelFileResult r = run("scale_by_params", 64, {spec("{i32:40; f32:0.5; f32[64]:iota}"),
                                                         spec("f32[64]:zeros")});
  INFO(r.message << r.details);
  REQUIRE(r.status == RunStatus::completed);
  const std::vector<float> out = r.buffer<float>(1);
  REQUIRE(out.size() == 64);
  for (int lane = 0; lane < 64; ++lane) {
    INFO("lane " << lane);
    CHECK(out[lane] == (lane < 40 ? 0.5f * static_cast<float>(lane) : 0.0f));
  }
  // The field's buffer comes back too, unchanged, named by its field.
  const std::vector<float> in = r.buffer<float>(0, 2);
  REQUIRE(in.size() == 64);
  CHECK(in[63] == 63.0f);
  CHECK_THROWS_WITH(r.buffer<float>(0), "parameter 0 of 'scale_by_params' is not a buffer");
}

TEST_CASE("a kernel writes through a struct's pointer field; padded fields arrive intact") {
  const KernelFileResult mixed = run("write_through_mixed", 32,
                                     {spec("{i8:-3; f64:2.5; i32[32]:zeros; i16:-300}")});
  INFO(mixed.message << mixed.details);
  REQUIRE(mixed.status == RunStatus::completed);
  const std::vector<int> out = mixed.buffer<int>(0, 2);
  REQUIRE(out.size() == 32);
  for (int lane = 0; lane < 32; ++lane) {
    INFO("lane " << lane);
    CHECK(out[lane] == -3 * 1000 + 25 - 300 + lane);
  }

  const KernelFileResult ips =
      run("int_pointer_short", 32,
          {struct_arg({scalar(7), iota<std::uint64_t>(32), scalar(static_cast<short>(-5))}),
           zeros<std::uint64_t>(2)});
  INFO(ips.message << ips.details);
  REQUIRE(ips.status == RunStatus::completed);
  const std::vector<std::uint64_t> sum = ips.buffer<std::uint64_t>(0, 1);
  REQUIRE(sum.size() == 32);
  for (std::uint64_t lane = 0; lane < 32; ++lane) CHECK(sum[lane] == lane + 700 + lane);
  const std::vector<std::uint64_t> seen = ips.buffer<std::uint64_t>(1);
  CHECK(seen[0] == 7);
  CHECK(seen[1] == static_cast<std::uint64_t>(std::int64_t{-5}));
}

TEST_CASE("a struct argument that does not fit the kernel's struct stops before the launch") {
  const KernelFileResult wrong = run("scale_by_params", 32, {spec("{i32:32; f32:0.5; i32:3}"),
                                                             spec("f32[32]:zeros")});
  CHECK(wrong.status == RunStatus::bad_input);
  CHECK(wrong.message ==
        "parameter 0 of 'scale_by_params' (--arg 1): field 2 of 'Params' is 'const float*' but "
        "the argument gives i32; write --arg '{i32:VALUE; f32:VALUE; f32[N]:zeros}'");

  const KernelFileResult nested = run("nested", 32, {spec("{i32:1; i32:2; f32:3}"),
                                                     spec("f32[32]:zeros")});
  CHECK(nested.status == RunStatus::bad_input);
  CHECK(nested.message.find("field 0 of 'Nested' is 'Inner': nested structs and unions are not "
                            "supported") != std::string::npos);

  const KernelFileResult array = run("with_array", 32, {spec("{f32:1; f32:2; f32:3; i32:4}"),
                                                        spec("f32[32]:zeros")});
  CHECK(array.status == RunStatus::bad_input);
  CHECK(array.message.find("field 0 of 'WithArray' is an array 'float [3]'") != std::string::npos);

  const KernelFileResult bits = run("takes_union", 32, {spec("{i32:1}"), spec("i32[32]:zeros")});
  CHECK(bits.status == RunStatus::bad_input);
  CHECK(bits.message.find("the parameter is a union 'Bits'") != std::string::npos);
}

TEST_CASE("a struct with a base class runs when its size and alignment fit") {
  const KernelFileResult r = run("tagged", 32, {spec("{i32:40; i32[32]:zeros}")});
  INFO(r.message << r.details);
  REQUIRE(r.status == RunStatus::completed);
  const std::vector<int> out = r.buffer<int>(0, 1);
  for (int lane = 0; lane < 32; ++lane) CHECK(out[lane] == 40 + lane);
  const KernelFileResult wrong = run("tagged", 32, {spec("{i32:40; i32:1}")});
  CHECK(wrong.status == RunStatus::bad_input);
  CHECK(wrong.message ==
        "parameter 0 of 'tagged' (--arg 1): the parameter 'Tagged' has 16 bytes, alignment 8 but "
        "the struct argument {i32; i32} has 8 bytes, alignment 4");
}

TEST_CASE("a CUDA vector type passes by value as a struct of its components") {
  const KernelFileResult r = run("by_float4", 32, {spec("{f32:1; f32:2; f32:3; f32:4}"),
                                                   spec("f32[32]:zeros")});
  INFO(r.message << r.details);
  REQUIRE(r.status == RunStatus::completed);
  for (const float value : r.buffer<float>(1)) CHECK(value == 4321.0f);
}

TEST_CASE("an out-of-bounds access through a struct's pointer field names the field") {
  // scale_by_params reads in[i] for i < n: n past the field's buffer reads its guard page.
  const KernelFileResult r = run("scale_by_params", 64, {spec("{i32:64; f32:1; f32[32]:iota}"),
                                                         spec("f32[64]:zeros")});
  CHECK(r.status == RunStatus::crashed);
  CHECK(r.message.find("out-of-bounds read of the buffer of field 2 of parameter 0 (f32[32]) at "
                       "element 32") != std::string::npos);
}

TEST_CASE("GPU comparisons see 8- and 16-bit elements widened to 32 bits, values kept") {
  const std::vector<std::uint8_t> i8{0x80, 0x7f, 0xff};
  const ShownBuffer signed_bytes = shown_buffer(ElementType::i8, std::as_bytes(std::span(i8)));
  CHECK(signed_bytes.type == ValueType::i32);
  REQUIRE(signed_bytes.bytes.size() == 12);
  CHECK(read_at<std::int32_t>(signed_bytes.bytes, 0) == -128);
  CHECK(read_at<std::int32_t>(signed_bytes.bytes, 4) == 127);
  CHECK(read_at<std::int32_t>(signed_bytes.bytes, 8) == -1);
  const ShownBuffer unsigned_bytes = shown_buffer(ElementType::u8, std::as_bytes(std::span(i8)));
  CHECK(unsigned_bytes.type == ValueType::u32);
  CHECK(read_at<std::uint32_t>(unsigned_bytes.bytes, 0) == 0x80);
  const std::vector<std::uint16_t> halves{f16_bits(1.5f), f16_bits(-2.0f)};
  const ShownBuffer f16 = shown_buffer(ElementType::f16, std::as_bytes(std::span(halves)));
  CHECK(f16.type == ValueType::f32);
  CHECK(read_at<float>(f16.bytes, 0) == 1.5f);
  CHECK(read_at<float>(f16.bytes, 4) == -2.0f);
  const std::vector<std::uint16_t> bf{bf16_bits(3.0f)};
  CHECK(read_at<float>(shown_buffer(ElementType::bf16, std::as_bytes(std::span(bf))).bytes, 0) ==
        3.0f);
  const std::vector<float> plain{0.25f};
  const ShownBuffer same = shown_buffer(ElementType::f32, std::as_bytes(std::span(plain)));
  CHECK(same.type == ValueType::f32);
  CHECK(read_at<float>(same.bytes, 0) == 0.25f);
}
