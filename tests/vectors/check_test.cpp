// The checker: hand-written spec cases and an H100 recording pass; mismatches and every kind of
// bad input are reported clearly, with a non-zero status, and never crash or hang.
#include <doctest/doctest.h>

#include <array>

#include "vector_files.hpp"

using namespace warpsim;
using namespace warpsim::test;

namespace {

const std::string kHeader1 =
    R"({"device":"test","sm":90,"driver":13000,"runtime":13000,"seed":1,"cases":1})";

std::string header(int cases) {
  return R"({"device":"test","sm":90,"driver":13000,"runtime":13000,"seed":1,"cases":)" +
         std::to_string(cases) + "}\n";
}

// 32 JSON entries: text(lane) for lanes in `lanes`, null elsewhere.
template <class F>
std::string entries(LaneMask lanes, F&& text) {
  std::string s = "[";
  for (int lane = 0; lane < kWarpSize; ++lane)
    s += (lane ? "," : "") + (has_lane(lanes, lane) ? text(lane) : std::string("null"));
  return s + "]";
}

std::string hex32(std::uint64_t x) {
  char text[16];
  std::snprintf(text, sizeof text, "\"0x%08x\"", static_cast<unsigned>(x));
  return text;
}

// __shfl_sync(F, 100 + lane, -1) on all 32 lanes: every lane expects 131, lane 0 `lane0_expect`.
std::string shfl_case(std::uint64_t lane0_expect = 131) {
  return R"({"op":"shfl_sync","type":"i32","mask":"0xffffffff","lanes":"0xffffffff","width":32,"value":)" +
         entries(kFullMask, [](int lane) { return hex32(100u + static_cast<unsigned>(lane)); }) +
         R"(,"arg":)" + entries(kFullMask, [](int) { return std::string("-1"); }) +
         R"(,"expect":)" +
         entries(kFullMask, [&](int lane) { return hex32(lane == 0 ? lane0_expect : 131u); }) +
         "}\n";
}

}  // namespace

TEST_CASE("the hand-written spec table cases all match") {
  const CheckResult r = check({data_file("handmade.jsonl")});
  CAPTURE(r.out);
  CAPTURE(r.err);
  CHECK(r.status == 0);
  CHECK(r.err.empty());
  CHECK(r.out == "vectors: 49 cases, 1314 lane results, 0 mismatched\n");
}

TEST_CASE("an H100 recording of shuffles with odd widths and arguments matches") {
  // Widths -1, 0, 1, 12, 33, 48, 64, INT_MIN; args -33..33 and per-lane random; i32 and i64.
  const CheckResult r = check({data_file("h100_shfl_widths.jsonl.gz")});
  CAPTURE(r.out);
  CAPTURE(r.err);
  CHECK(r.status == 0);
  CHECK(r.out == "vectors: 384 cases, 12288 lane results, 0 mismatched\n");
}

TEST_CASE("the whole H100 recording matches (the engine over every recorded case)") {
  // What vectors_h100_check runs through the `warpsim` command; here in the suite's own process,
  // so that the sanitizer stage runs the engine over every case without building the command.
  const CheckResult r = check({data_file("h100.jsonl.gz")});
  CAPTURE(r.err);
  CHECK(r.status == 0);
  CHECK(r.out == "vectors: 24000 cases, 332282 lane results, 0 mismatched\n");
}

TEST_CASE("several files add up in one summary") {
  const CheckResult r =
      check({data_file("handmade.jsonl"), data_file("h100_shfl_widths.jsonl.gz")});
  CHECK(r.status == 0);
  CHECK(r.last_line() == "vectors: 433 cases, 13602 lane results, 0 mismatched");
}

TEST_CASE("a wrong expectation is reported as a mismatch with lane, simulator and GPU values") {
  const std::string path = write_text("wrong.jsonl", kHeader1 + "\n" + shfl_case(132));
  const CheckResult r = check({path});
  CHECK(r.status == 1);
  CHECK(r.err.empty());
  CHECK(r.out == path +
                     ":2: mismatch: shfl_sync type i32 mask 0xffffffff lanes 0xffffffff width 32: "
                     "lane 0 (arg -1): "
                     "simulator 0x00000083, GPU 0x00000084 (1 of 32 lanes differ)\n"
                     "vectors: 1 cases, 32 lane results, 1 mismatched\n");
}

TEST_CASE("a wrong match_all predicate is reported") {
  const std::string line =
      R"({"op":"match_all_sync","type":"u32","mask":"0x00000003","lanes":"0x00000003","value":)" +
      entries(0x3, [](int) { return hex32(7); }) + R"(,"expect":)" +
      entries(0x3, [](int) { return hex32(3); }) + R"(,"expect_pred":)" +
      entries(0x3, [](int lane) { return std::string(lane ? "0" : "1"); }) + "}\n";
  const CheckResult r = check({write_text("wrong_pred.jsonl", kHeader1 + "\n" + line)});
  CHECK(r.status == 1);
  CHECK(r.out.find("match_all_sync type u32 mask 0x00000003 lanes 0x00000003: lane 1 pred: "
                   "simulator 1, GPU 0 "
                   "(1 of 2 lanes differ)") != std::string::npos);
  CHECK(r.last_line() == "vectors: 1 cases, 2 lane results, 1 mismatched");
}

TEST_CASE("only the first 20 mismatching cases are described") {
  std::string text = header(25);
  for (int i = 0; i < 25; ++i) text += shfl_case(0);
  const CheckResult r = check({write_text("many_wrong.jsonl", text)});
  CHECK(r.status == 1);
  CHECK(count_of(r.out, ": mismatch: ") == 20);
  CHECK(r.out.find("... 5 more mismatching cases not shown\n") != std::string::npos);
  CHECK(r.last_line() == "vectors: 25 cases, 800 lane results, 25 mismatched");
}

TEST_CASE("malformed input gives a clear error with its line number and status 2") {
  struct Row {
    const char* name;
    std::string text;
    std::string error;
  };
  const std::string good = shfl_case();
  auto edit = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    s.replace(s.find(from), from.size(), to);
    return s;
  };
  const std::array<Row, 20> rows{{
      {"bad JSON", header(2) + good + "{\"op\":\"shfl_sync\",\n", "line 3: not valid JSON"},
      {"a blank line", header(2) + good + "\n" + good, "line 3: not valid JSON"},
      {"not an object", header(1) + "[1,2,3]\n", "line 2: expected a JSON object"},
      {"a case count that differs", header(2) + good, "header says 2 cases, the file has 1"},
      {"a missing field", header(1) + edit(R"("mask":"0xffffffff",)", ""),
       R"(line 2: missing field "mask")"},
      {"31 values", header(1) + edit(R"("value":["0x00000064",)", R"("value":[)"),
       R"(line 2: field "value": expected 32 entries, got 31)"},
      {"an unknown op", header(1) + edit("shfl_sync", "shfl_sideways"),
       R"(field "op": unknown op "shfl_sideways")"},
      {"an op that is not a single call", header(1) + edit("shfl_sync", "syncwarp"),
       "syncwarp cannot appear in a vector file"},
      {"a type the op does not take", header(1) + edit(R"("i32")", R"("f16")"),
       R"(field "type": "f16" is not a type of shfl_sync)"},
      {"a type where none belongs",
       header(1) + R"({"op":"ballot_sync","type":"u32","mask":"0x1","lanes":"0x1","value":)" +
           entries(1, [](int) { return hex32(1); }) + R"(,"expect":)" +
           entries(1, [](int) { return hex32(1); }) + "}\n",
       R"(field "type" does not belong to ballot_sync)"},
      {"a bad hex string", header(1) + edit(R"("lanes":"0xffffffff")", R"("lanes":"ffffffff")"),
       R"(field "lanes": "ffffffff" is not a hex string)"},
      {"a 64-bit value in a 32-bit case",
       header(1) + edit(R"("0x00000064")", R"("0x0000000000000064")"),
       R"(field "value", lane 0: "0x0000000000000064" is not a hex string)"},
      {"a null value for a calling lane", header(1) + edit(R"("0x00000064")", "null"),
       R"(field "value", lane 0: null for a calling lane)"},
      {"a value for an exited lane",
       header(1) + edit(R"("lanes":"0xffffffff")", R"("lanes":"0x7fffffff")"),
       R"(field "value", lane 31: must be null for a lane that exited)"},
      {"a fractional width", header(1) + edit(R"("width":32)", R"("width":1.5)"),
       R"(field "width": expected an integer)"},
      {"an argument beyond int", header(1) + edit(R"("arg":[-1,)", R"("arg":[4294967295,)"),
       R"(field "arg", lane 0: expected an integer from -2147483648 to 2147483647)"},
      {"a header without seed",
       R"({"device":"x","sm":90,"driver":1,"runtime":1,"cases":0})"
       "\n",
       R"(line 1: bad header: missing field "seed")"},
      {"a header with a string sm",
       R"({"device":"x","sm":"90","driver":1,"runtime":1,"seed":1,"cases":0})"
       "\n",
       R"(line 1: bad header: field "sm": expected an integer)"},
      {"a negative case count",
       R"({"device":"x","sm":90,"driver":1,"runtime":1,"seed":1,"cases":-1})"
       "\n",
       R"(field "cases": -1 is outside 0..)"},
      {"an empty file", "", "line 1: empty file: no header"},
  }};
  for (const Row& row : rows) {
    SUBCASE(row.name) {
      const std::string path = write_text("malformed.jsonl", row.text);
      const CheckResult r = check({path});
      CAPTURE(r.err);
      CHECK(r.status == 2);
      CHECK(r.err.find(path + ": " +
                       (row.error.starts_with("line") || row.error.starts_with("header")
                            ? ""
                            : "line ")) == 0);
      CHECK(r.err.find(row.error) != std::string::npos);
      CHECK(r.err.ends_with(" input errors\n"));
      CHECK(r.last_line().starts_with("vectors: "));
    }
  }
}

TEST_CASE("good cases around a malformed line are still checked") {
  const std::string text = header(3) + shfl_case() + "oops\n" + shfl_case(7);
  const CheckResult r = check({write_text("mixed.jsonl", text)});
  CHECK(r.status == 2);
  CHECK(r.err.find(":3: ") == std::string::npos);  // errors say "line 3", mismatches "file:4"
  CHECK(r.err.find("line 3: not valid JSON") != std::string::npos);
  CHECK(r.out.find(".jsonl:4: mismatch: ") != std::string::npos);
  CHECK(r.last_line() == "vectors: 2 cases, 64 lane results, 1 mismatched");
}

TEST_CASE("only the first 20 errors of a file are printed") {
  std::string text = header(30);
  for (int i = 0; i < 30; ++i) text += "not json\n";
  const CheckResult r = check({write_text("garbage.jsonl", text)});
  CHECK(r.status == 2);
  CHECK(count_of(r.err, "not valid JSON") == 20);
  CHECK(r.err.find("10 more errors not shown") != std::string::npos);
  CHECK(r.err.find("vectors: 30 input errors") != std::string::npos);
}

TEST_CASE("unreadable inputs are reported and checking goes on") {
  SUBCASE("a missing file") {
    const CheckResult r =
        check({scratch_file("does_not_exist.jsonl"), data_file("handmade.jsonl")});
    CHECK(r.status == 2);
    CHECK(r.err.find("cannot open") != std::string::npos);
    CHECK(r.err.find("No such file") != std::string::npos);
    CHECK(r.last_line() == "vectors: 49 cases, 1314 lane results, 0 mismatched");
  }
  SUBCASE("a directory") {
    const CheckResult r = check({std::string(WARPSIM_SOURCE_DIR) + "/tests"});
    CHECK(r.status == 2);
    CHECK(r.err.find("is a directory") != std::string::npos);
  }
  SUBCASE("a truncated gzip file") {
    const std::string path = scratch_file("truncated.jsonl.gz");
    std::filesystem::copy_file(data_file("h100_shfl_widths.jsonl.gz"), path,
                               std::filesystem::copy_options::overwrite_existing);
    std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);
    const CheckResult r = check({path});
    CHECK(r.status == 2);
    CHECK(r.err.find("corrupt or truncated gzip data") != std::string::npos);
  }
  SUBCASE("a line longer than 1 MiB") {
    const CheckResult r =
        check({write_text("long_line.jsonl", kHeader1 + "\n" + std::string(3u << 20, 'x'))});
    CHECK(r.status == 2);
    CHECK(r.err.find("line 2: line longer than 1 MiB") != std::string::npos);
  }
  SUBCASE("no files at all") {
    const CheckResult r = check({});
    CHECK(r.status == 2);
    CHECK(r.err.find("no files given") != std::string::npos);
    CHECK(r.last_line() == "vectors: 0 cases, 0 lane results, 0 mismatched");
  }
}

TEST_CASE("CRLF line ends and a last line without a newline are accepted") {
  std::string text = header(2) + shfl_case() + shfl_case();
  std::string crlf;
  for (char ch : text) crlf += ch == '\n' ? std::string("\r\n") : std::string(1, ch);
  crlf.resize(crlf.size() - 2);
  const CheckResult r = check({write_text("crlf.jsonl", crlf)});
  CAPTURE(r.err);
  CHECK(r.status == 0);
  CHECK(r.last_line() == "vectors: 2 cases, 64 lane results, 0 mismatched");
}
