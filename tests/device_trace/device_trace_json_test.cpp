// JSON forms: device traces (compact, one line per thread) and the simulator's trace read back.
#include <doctest/doctest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <numeric>
#include <sstream>
#include <vector>

#include "helpers.hpp"
#include "kernels.hpp"

using namespace warpsim;
using device_trace_test::shape;

namespace {

DeviceTrace example_trace() {
  DeviceTrace t;
  t.device = "NVIDIA H100 80GB HBM3";
  t.sm = 90;
  t.driver = 13000;
  t.driver_release = "580.65.06";
  t.date = "2025-06-01T12:00:00Z";
  t.grid = {2, 1, 1};
  t.block = {33, 1, 1};
  t.traced_blocks = 1;
  t.capacity = 4;
  t.dropped = 3;
  DeviceThreadCalls a;
  a.thread = 0;
  a.calls.push_back({Op::shfl_xor, ValueType::f64, kFullMask, 0x3ff0000000000000ull,
                     0xc000000000000000ull, -16, 32, 7, false});
  a.calls.push_back({Op::match_all, ValueType::i64, 0x0000ffffu, 0xffffffffffffffffull, 0x0000ffffu,
                     0, 0, 0, true});
  a.calls.push_back({Op::activemask, ValueType::none, 0, 0, 0xffffffffu, 0, 0, 12, false});
  a.calls.push_back({Op::syncthreads_count, ValueType::none, 0, 1, 33, 0, 0, 13, false});
  a.dropped = 3;
  DeviceThreadCalls b;
  b.thread = 32;  // a thread that made no calls still has its line
  t.threads = {a, b};
  return t;
}

}  // namespace

TEST_CASE("a device trace survives its JSON form, one line per thread") {
  const DeviceTrace trace = example_trace();
  const std::string text = device_trace_json(trace);
  CHECK(std::count(text.begin(), text.end(), '\n') == 3);  // header line, two threads
  CHECK(
      text.rfind(R"({"format":"warpsim-device-trace","version":1,"device":"NVIDIA H100 80GB HBM3")",
                 0) == 0);
  CHECK(
      text.find(
          R"(["shfl_xor_sync","f64","0xffffffff","0x3ff0000000000000","0xc000000000000000",-16,32,7,0])") !=
      std::string::npos);
  CHECK(text.find(
            R"(["match_all_sync","i64","0x0000ffff","0xffffffffffffffff","0x0000ffff",0,0,0,1])") !=
        std::string::npos);
  const auto back = read_device_trace_json(text);
  REQUIRE_MESSAGE(back, (back ? "" : back.error().message));
  CHECK(*back == trace);
  CHECK(device_trace_json(*back) == text);
}

TEST_CASE("malformed device traces are refused with a reason") {
  const std::string good = device_trace_json(example_trace());
  struct Case {
    const char* what;
    std::string from, to;
    const char* reason;
  };
  const Case cases[] = {
      {"another format", "warpsim-device-trace", "warpsim-trace", "not a warpsim device trace"},
      {"unknown op", "\"activemask\"", "\"activemaskk\"", "unknown op"},
      {"bad hex", "\"0x3ff0000000000000\"", "\"3ff0\"", "hex string"},
      {"short call", ",7,0]", ",7]", "expected [op, type"},
      {"missing field", "\"capacity\":4,", "", "missing \"capacity\""},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    std::string text = good;
    const std::size_t at = text.find(c.from);
    REQUIRE(at != std::string::npos);
    text.replace(at, c.from.size(), c.to);
    const auto read = read_device_trace_json(text);
    REQUIRE_FALSE(read);
    CHECK(read.error().message.find(c.reason) != std::string::npos);
    CHECK(read.error().message.find('\n') == std::string::npos);
  }
  const auto broken = read_device_trace_json("{");
  REQUIRE_FALSE(broken);
  CHECK(broken.error().message.find("not valid JSON") != std::string::npos);
}

TEST_CASE("the simulator's trace reads back from its JSON form exactly") {
  std::vector<int> in(64), out(64);
  std::iota(in.begin(), in.end(), -20);
  const auto r = launch(shape(2, 64), [&] { dt_ballot_barrier(in.data(), out.data()); });
  REQUIRE(r.status == LaunchStatus::completed);
  std::vector<float> fin(32, 1.5f), fout(32);
  const auto s = launch(shape(1, 32), [&] { dt_butterfly(fin.data(), fout.data()); });
  REQUIRE(s.status == LaunchStatus::completed);
  std::vector<int> tin(32, 1), tout(32);
  const auto u = launch(shape(1, 32), [&] { dt_tail_shfl_down(tin.data(), tout.data(), 20); });
  REQUIRE(u.status == LaunchStatus::completed);
  REQUIRE_FALSE(u.trace.diagnostics.empty());

  for (const Trace* trace : {&r.trace, &s.trace, &u.trace}) {
    std::ostringstream first;
    write_trace_json(first, *trace);
    const auto back = read_trace_json(first.str());
    REQUIRE_MESSAGE(back, (back ? "" : back.error().message));
    std::ostringstream second;
    write_trace_json(second, *back);
    CHECK(second.str() == first.str());
    CHECK(back->steps.size() == trace->steps.size());
    CHECK(back->files == trace->files);
  }
  const auto version2 = read_trace_json(R"({"format":"warpsim-trace","version":2})");
  REQUIRE_FALSE(version2);
  CHECK(version2.error().message.find("version") != std::string::npos);
}
