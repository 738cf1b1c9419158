// The recorder's vector files (vectors_record.hpp: to_vector_case, write_recorded_vectors), written
// by the simulator's writer exactly as ../shared/spec/vectors.md shows them, byte for byte as the
// recorder always wrote them.
#include <doctest/doctest.h>

#include "read_text.hpp"
#include <unistd.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "vectors_record.hpp"
#include "warpsim/vectors.hpp"

using nlohmann::json;
using warpsim::format_vector_case;
using warpsim::format_vector_header;
using warpsim::has_lane;
using warpsim::kFullMask;
using warpsim::kWarpSize;
using warpsim::lane_bit;
using warpsim::LaneMask;
using warpsim::Op;
using warpsim::read_vector_file;
using warpsim::ValueType;
using warpsim::VectorHeader;
namespace gpu = warpsim::gpu;
using warpsim::ErrorKind;
using gpu::to_vector_case;
using gpu::VectorCase;
using gpu::write_recorded_vectors;

namespace {

std::string format_case_line(const VectorCase& c) { return format_vector_case(to_vector_case(c)); }
std::string format_header_line(const VectorHeader& h) { return format_vector_header(h); }


std::string read_raw(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// A temporary folder removed at the end of the test.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    path = std::filesystem::temp_directory_path() / ("warpsim_gpu_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

VectorHeader example_header(std::size_t cases) {
  VectorHeader h;
  h.device = "NVIDIA H100 80GB HBM3";
  h.sm = 90;
  h.driver = 13000;
  h.runtime = 13000;
  h.seed = 777;
  h.cases = cases;
  return h;
}

// 8-lane picture: lanes 0..15 call shfl_up(v, 1) with v = 100 + lane under the full mask;
// lane 0 keeps its own value, lanes 1..15 read lane - 1, lanes 16..31 exited (null).
VectorCase example_shuffle() {
  VectorCase c;
  c.op = Op::shfl_up;
  c.type = ValueType::i32;
  c.mask = kFullMask;
  c.lanes = 0x0000ffff;
  c.width = 32;
  for (int lane = 0; lane < 16; ++lane) {
    const auto l = static_cast<std::size_t>(lane);
    c.value[l] = 100 + static_cast<std::uint64_t>(lane);
    c.arg[l] = 1;
    c.expect[l] = lane == 0 ? 100 : 99 + static_cast<std::uint64_t>(lane);
  }
  c.expect_defined = c.lanes;
  return c;
}

}  // namespace

TEST_CASE("the header line is the one vectors.md shows") {
  CHECK(format_header_line(example_header(20000)) ==
        R"({"device":"NVIDIA H100 80GB HBM3","sm":90,"driver":13000,"runtime":13000,"seed":777,"cases":20000})");
  VectorHeader odd = example_header(1);
  odd.device = "GPU \"quoted\" \\ name";
  CHECK(json::parse(format_header_line(odd))["device"] == "GPU \"quoted\" \\ name");
}

TEST_CASE("a shuffle case line: hex values, decimal args, nulls for exited lanes, fields in table order") {
  const VectorCase c = example_shuffle();
  const std::string line = format_case_line(c);
  CHECK(line.rfind(R"({"op":"shfl_up_sync","type":"i32","mask":"0xffffffff","lanes":"0x0000ffff","width":32,"value":["0x00000064","0x00000065",)", 0) == 0);
  CHECK(line.find(R"("arg":[1,1,1,)") != std::string::npos);
  CHECK(line.find(R"("expect":["0x00000064","0x00000064","0x00000065",)") != std::string::npos);
  CHECK(line.find('\n') == std::string::npos);
  CHECK(line.find("expect_pred") == std::string::npos);
  const json j = json::parse(line);
  CHECK(j["value"].size() == 32);
  CHECK(j["value"][15] == "0x00000073");
  CHECK(j["value"][16].is_null());
  CHECK(j["arg"][31].is_null());
  CHECK(j["expect"][16].is_null());
  CHECK(line.find("\"op\"") < line.find("\"type\""));
  CHECK(line.find("\"lanes\"") < line.find("\"width\""));
  CHECK(line.find("\"value\"") < line.find("\"arg\""));
  CHECK(line.find("\"arg\"") < line.find("\"expect\""));
}

TEST_CASE("undefined results are null even for calling lanes; 64-bit values use 16 hex digits") {
  VectorCase c = example_shuffle();
  c.type = ValueType::f64;
  c.value[3] = 0x7ff8000000000001u;
  c.expect[4] = 0x7ff8000000000001u;
  c.arg[2] = -7;
  c.expect_defined = c.lanes & ~lane_bit(5);
  const json j = json::parse(format_case_line(c));
  CHECK(j["type"] == "f64");
  CHECK(j["value"][3] == "0x7ff8000000000001");
  CHECK(j["value"][0] == "0x0000000000000064");
  CHECK(j["expect"][4] == "0x7ff8000000000001");
  CHECK(j["expect"][5].is_null());
  CHECK(j["arg"][2] == -7);
}

TEST_CASE("votes, and/or/xor reductions and activemask carry no type; only match_all has expect_pred") {
  VectorCase c;
  c.lanes = 0x000fffff;
  c.mask = kFullMask;
  c.expect_defined = c.lanes;
  for (int lane = 0; lane < 20; ++lane) {
    c.value[static_cast<std::size_t>(lane)] = 1;
    c.expect[static_cast<std::size_t>(lane)] = 0x000fffff;
  }

  c.op = Op::ballot;
  json j = json::parse(format_case_line(c));
  CHECK_FALSE(j.contains("type"));
  CHECK_FALSE(j.contains("width"));
  CHECK_FALSE(j.contains("arg"));
  CHECK_FALSE(j.contains("expect_pred"));
  CHECK(j["value"][0] == "0x00000001");
  CHECK(j["expect"][19] == "0x000fffff");
  CHECK(j["expect"][20].is_null());

  c.op = Op::reduce_xor;
  CHECK_FALSE(json::parse(format_case_line(c)).contains("type"));

  c.op = Op::activemask;
  j = json::parse(format_case_line(c));
  CHECK_FALSE(j.contains("value"));
  CHECK_FALSE(j.contains("type"));
  CHECK(j["expect"][0] == "0x000fffff");

  c.op = Op::match_all;  // spec case 34: lanes >= 20 exited, match_all(F, 5)
  c.type = ValueType::u64;
  c.expect_pred = 0x000fffff & ~lane_bit(3);
  j = json::parse(format_case_line(c));
  CHECK(j["type"] == "u64");
  CHECK(j["value"][0] == "0x0000000000000001");
  CHECK(j["expect"][0] == "0x000fffff");  // masks stay 32-bit for 64-bit operands
  REQUIRE(j["expect_pred"].size() == 32);
  CHECK(j["expect_pred"][0] == 1);
  CHECK(j["expect_pred"][3] == 0);
  CHECK(j["expect_pred"][20].is_null());
}

TEST_CASE("vector files: plain and gzip, same input same bytes, nothing left behind on failure") {
  TempDir dir;
  std::vector<VectorCase> cases(3, example_shuffle());
  cases[1].op = Op::shfl_down;
  const VectorHeader header = example_header(cases.size());

  for (const char* name : {"v.jsonl", "v.jsonl.gz", "sub/dir/v.jsonl.gz"}) {
    CAPTURE(name);
    const auto path = dir.path / name;
    REQUIRE(write_recorded_vectors(path, header, cases));
    const auto lines = lines_of(warpsim::gpu::test::read_text(path));
    REQUIRE(lines.size() == 4);
    CHECK(lines[0] == format_header_line(header));
    CHECK(lines[2] == format_case_line(cases[1]));
    CHECK(json::parse(lines[0])["cases"] == 3);
    for (const auto& entry : std::filesystem::directory_iterator(path.parent_path())) {
      CHECK(entry.path().filename().string().find("partial") == std::string::npos);
    }
    // The simulator reads back what the recorder wrote.
    const auto read = read_vector_file(path.string());
    REQUIRE_MESSAGE(read, (read ? "" : read.error().message));
    CHECK(read->header == header);
    REQUIRE(read->cases.size() == 3);
    CHECK(read->cases[1] == to_vector_case(cases[1]));
  }
  const std::string gz = read_raw(dir.path / "v.jsonl.gz");
  REQUIRE(gz.size() > 2);
  CHECK(static_cast<unsigned char>(gz[0]) == 0x1f);  // gzip magic
  CHECK(static_cast<unsigned char>(gz[1]) == 0x8b);
  REQUIRE(write_recorded_vectors(dir.path / "again.jsonl.gz", header, cases));
  CHECK(read_raw(dir.path / "again.jsonl.gz") == gz);  // no time stamp in the gzip header

  VectorHeader wrong = header;
  wrong.cases = 5;
  auto mismatch = write_recorded_vectors(dir.path / "w.jsonl", wrong, cases);
  REQUIRE_FALSE(mismatch);
  CHECK(mismatch.error().kind == ErrorKind::bad_input);
  CHECK_FALSE(std::filesystem::exists(dir.path / "w.jsonl"));

  std::ofstream(dir.path / "blocker") << "a file, not a folder";
  auto unwritable = write_recorded_vectors(dir.path / "blocker" / "v.jsonl", header, cases);
  REQUIRE_FALSE(unwritable);
  CHECK(unwritable.error().kind == ErrorKind::file);
  CHECK(unwritable.error().message.find('\n') == std::string::npos);
  CHECK(unwritable.error().message.find("blocker") != std::string::npos);

  CHECK_FALSE(write_recorded_vectors("", header, cases));
}

namespace {

std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Seeded cases with results as a device would fill them: undefined results null, *pred for match_all.
std::vector<VectorCase> recorded_cases(std::uint64_t seed, std::size_t count) {
  gpu::GeneratorOptions options;
  options.seed = seed;
  options.cases = count;
  options.sm = 90;
  std::vector<VectorCase> cases = gpu::generate_cases(options);
  for (std::size_t k = 0; k < cases.size(); ++k) {
    VectorCase& c = cases[k];
    const std::uint64_t keep = gpu::result_bits(c.op, c.type) == 64 ? ~0ull : 0xffffffffull;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      const auto l = static_cast<std::size_t>(lane);
      c.expect[l] = has_lane(c.lanes, lane) ? (mix(k * 32 + l) & keep) : 0;
    }
    c.expect_defined = c.lanes & ~gpu::undefined_result_lanes(c);
    c.expect_pred = c.op == Op::match_all ? (static_cast<LaneMask>(mix(k)) & c.lanes) : 0;
  }
  return cases;
}

}  // namespace

// The recorder moved from its own writer (gpu/vector_file.cpp, removed) to the simulator's. These
// sizes and CRC-32s are of the files the old writer produced for the same cases: seed 777, 2000
// cases, sm_90, results from recorded_cases().
TEST_CASE("regression: the recorder's files are byte for byte what its former writer produced") {
  TempDir dir;
  const std::vector<VectorCase> cases = recorded_cases(777, 2000);
  VectorHeader header = example_header(cases.size());
  struct Golden {
    const char* name;
    std::size_t size;
    unsigned long crc;
  };
  for (const Golden& g : {Golden{"golden.jsonl", 1616994, 0xa8717504ul}, Golden{"golden.jsonl.gz", 339959, 0x8ef337b2ul}}) {
    CAPTURE(g.name);
    const auto path = dir.path / g.name;
    REQUIRE(write_recorded_vectors(path, header, cases));
    const std::string bytes = read_raw(path);
    CHECK(bytes.size() == g.size);
    CHECK(crc32(0, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())) == g.crc);
  }
}
