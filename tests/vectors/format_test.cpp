// The vector line format: exact output, and parse(format(c)) == c for every op and type.
#include <doctest/doctest.h>

#include <array>
#include <random>

#include "vector_files.hpp"

using namespace warpsim;
using namespace warpsim::test;

namespace {

// A case whose expectations are what the simulator computes, with undefined results left null.
VectorCase simulated_case(Op op, ValueType type, LaneMask lanes, std::mt19937_64& rng) {
  VectorCase c;
  c.op = op;
  c.type = type;
  c.lanes = lanes;
  c.mask = lanes | static_cast<LaneMask>(rng());  // may name exited lanes
  c.width = static_cast<std::int32_t>(rng() % 40) - 4;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!has_lane(lanes, lane)) continue;
    const std::uint64_t bits = rng() % 4 == 0 ? rng() % 3 : rng();  // frequent ties
    c.value[lane] = is_64bit(type) ? bits : bits & 0xffff'ffffu;
    c.arg[lane] = static_cast<std::int32_t>(rng() % 80) - 40;
  }
  if (!is_shuffle(op)) c.arg = {};
  if (!is_shuffle(op)) c.width = 32;
  if (op == Op::activemask) c.value = {};
  StepOutputs out;
  evaluate(op, type, to_step_inputs(c), out);
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!has_lane(lanes, lane) || has_lane(out.undefined, lane)) continue;
    c.expect[lane] = out.value[lane];
    if (op == Op::match_all) c.expect_pred[lane] = has_lane(out.pred, lane);
  }
  return c;
}

}  // namespace

TEST_CASE("a header is written in the exact layout of vectors.md") {
  const VectorHeader h{"NVIDIA H100 80GB HBM3", 90, 13000, 13000, 777, 20000};
  CHECK(
      format_vector_header(h) ==
      R"({"device":"NVIDIA H100 80GB HBM3","sm":90,"driver":13000,"runtime":13000,"seed":777,"cases":20000})");
  CHECK(*parse_vector_header(format_vector_header(h)) == h);
  const VectorHeader quoted{"a \"quoted\" \\ name", 80, 1, 2, 18446744073709551615ull, 0};
  CHECK(*parse_vector_header(format_vector_header(quoted)) == quoted);
}

TEST_CASE("a case is written in the exact layout of vectors.md") {
  VectorCase c;
  c.op = Op::reduce_or;
  c.mask = 0xffff'ffffu;
  c.lanes = 0x3u;
  c.value[0] = 0x10;
  c.value[1] = 0x01;
  c.expect[0] = 0x11;
  const std::string nulls30 = [] {
    std::string s;
    for (int i = 0; i < 30; ++i) s += ",null";
    return s;
  }();
  CHECK(
      format_vector_case(c) ==
      R"({"op":"reduce_or_sync","mask":"0xffffffff","lanes":"0x00000003","value":["0x00000010","0x00000001")" +
          nulls30 + R"(],"expect":["0x00000011",null)" + nulls30 + "]}");

  VectorCase s;
  s.op = Op::shfl_down;
  s.type = ValueType::f64;
  s.mask = 0x1u;
  s.lanes = 0x1u;
  s.width = 33;
  s.value[0] = 0xfff8'0000'0000'0001ull;
  s.arg[0] = -1;
  s.expect[0] = 0xfff8'0000'0000'0001ull;
  const std::string nulls31 = nulls30 + ",null";
  CHECK(
      format_vector_case(s) ==
      R"({"op":"shfl_down_sync","type":"f64","mask":"0x00000001","lanes":"0x00000001","width":33,)"
      R"("value":["0xfff8000000000001")" +
          nulls31 + R"(],"arg":[-1)" + nulls31 + R"(],"expect":["0xfff8000000000001")" + nulls31 +
          "]}");

  VectorCase m;
  m.op = Op::match_all;
  m.type = ValueType::u32;
  m.mask = m.lanes = 0x1u;
  m.expect[0] = 0x1u;
  m.expect_pred[0] = true;
  CHECK(format_vector_case(m).ends_with(R"("expect_pred":[1)" + nulls31 + "]}"));

  VectorCase d;  // 64-bit values, 32-bit result masks
  d.op = Op::match_any;
  d.type = ValueType::f64;
  d.mask = d.lanes = 0x1u;
  d.value[0] = 0x8000'0000'0000'0000ull;
  d.expect[0] = 0x1u;
  CHECK(format_vector_case(d) ==
        R"({"op":"match_any_sync","type":"f64","mask":"0x00000001","lanes":"0x00000001",)"
        R"("value":["0x8000000000000000")" +
            nulls31 + R"(],"expect":["0x00000001")" + nulls31 + "]}");

  VectorCase a;
  a.op = Op::activemask;
  a.mask = a.lanes = 0x1u;
  a.expect[0] = 0x1u;
  CHECK(format_vector_case(a) ==
        R"({"op":"activemask","mask":"0x00000001","lanes":"0x00000001","expect":["0x00000001")" +
            nulls31 + "]}");
}

TEST_CASE("every op and type survives a format and parse round trip") {
  std::mt19937_64 rng(12345);
  for (int i = 0; i < kOpCount; ++i) {
    const auto op = static_cast<Op>(i);
    if (!is_vector_op(op)) continue;
    for (int t = 0; t <= static_cast<int>(ValueType::f64); ++t) {
      const auto type = static_cast<ValueType>(t);
      if (!accepts_type(op, type) || vector_case_has_type(op) == (type == ValueType::none))
        continue;
      for (LaneMask lanes : {kFullMask, 0x0000'0001u, 0x8421'0842u, 0x000f'ffffu}) {
        CAPTURE(to_string(op));
        CAPTURE(to_string(type));
        CAPTURE(lanes);
        const VectorCase c = simulated_case(op, type, lanes, rng);
        const auto parsed = parse_vector_case(format_vector_case(c));
        REQUIRE_MESSAGE(parsed.has_value(), (parsed ? "" : parsed.error().message));
        CHECK(*parsed == c);
      }
    }
  }
}

TEST_CASE("a gzip vector file round-trips and checks clean") {
  std::mt19937_64 rng(777);
  std::vector<VectorCase> cases;
  const std::array<std::pair<Op, ValueType>, 7> kinds{{{Op::shfl_idx, ValueType::f64},
                                                       {Op::shfl_xor, ValueType::i32},
                                                       {Op::ballot, ValueType::none},
                                                       {Op::match_any, ValueType::u64},
                                                       {Op::match_all, ValueType::f32},
                                                       {Op::reduce_max, ValueType::i32},
                                                       {Op::activemask, ValueType::none}}};
  for (const auto& [op, type] : kinds)
    for (int i = 0; i < 20; ++i)
      cases.push_back(simulated_case(op, type, static_cast<LaneMask>(rng()) | 1u, rng));
  const VectorHeader header{"round trip", 90, 13000, 13000, 777, cases.size()};

  for (const char* name : {"round_trip.jsonl.gz", "round_trip.jsonl"}) {
    CAPTURE(name);
    const std::string path = scratch_file(name);
    REQUIRE(write_vector_file(path, header, cases));
    std::ifstream file(path, std::ios::binary);
    const int first = file.get(), second = file.get();
    const bool gzip = first == 0x1f && second == 0x8b;
    CHECK(gzip == std::string(name).ends_with(".gz"));

    const auto read = read_vector_file(path);
    REQUIRE(read);
    CHECK(read->header == header);
    CHECK(read->cases == cases);

    const CheckResult r = check({path});
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    CHECK(r.last_line().starts_with("vectors: 140 cases, "));
    CHECK(r.last_line().ends_with(" lane results, 0 mismatched"));
  }
}

TEST_CASE("gzip is recognised by its magic bytes, not by the file name") {
  const std::string path = scratch_file("compressed_without_suffix.jsonl.gz");
  REQUIRE(write_vector_file(path, VectorHeader{"x", 90, 0, 0, 0, 0}, {}));
  const std::string renamed = scratch_file("compressed_without_suffix.txt");
  std::filesystem::copy_file(path, renamed, std::filesystem::copy_options::overwrite_existing);
  const auto read = read_vector_file(renamed);
  REQUIRE(read);
  CHECK(read->header.device == "x");
}
