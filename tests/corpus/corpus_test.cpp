// The proof corpus: every entry of tests/corpus/corpus.json is run through the built
// `warpsim run ... --json` and checked against
//   1. the CPU reference (cpu_reference.cpp), the exit status and the diagnostic kinds the
//      manifest expects, and the expected device printf lines;
//   2. the GPU outputs recorded by record_gpu.sh (tests/corpus/gpu/<name>.json), bit for bit
//      or within the manifest's tolerance, when such recordings exist; and, where a device trace
//      was recorded too (<name>.trace.json.gz), the simulator's steps lane by lane against it
//      (warpsim::compare: results CUDA leaves undefined are not compared).
#include <doctest/doctest.h>

#include "support/run_warpsim.hpp"
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <zlib.h>

#include "cpu_reference.hpp"
#include "warpsim/device_trace.hpp"
#include "warpsim/trace.hpp"


namespace fs = std::filesystem;
using corpus::ElemType;
using corpus::HostArg;
using nlohmann::json;

namespace {

const fs::path kCorpusDir = CORPUS_SOURCE_DIR;

// ---------------------------------------------------------------------------------------------
// The manifest

struct Check {
  std::size_t arg = 0;
  double rel = 0.0;  // both 0: bit for bit
  double abs = 0.0;
  bool exact() const { return rel == 0.0 && abs == 0.0; }
};

struct Entry {
  std::string name;
  std::string file;  // relative to the corpus folder
  std::string kernel;
  std::string grid;
  std::string block;
  std::vector<std::string> args;
  std::vector<std::string> options;
  int exit = 0;
  std::vector<Check> checks;
  std::set<std::string> diagnostics;
  std::optional<std::vector<std::string>> printf_lines;
  bool gpu = true;
  std::uint64_t step_ulps = 0;  // float values in the device trace within this many ULPs agree
};

using warpsim::test::read_text;

std::vector<Entry> load_manifest() {
  const json manifest = json::parse(read_text(kCorpusDir / "corpus.json"));
  std::vector<Entry> entries;
  for (const json& j : manifest.at("entries")) {
    Entry e;
    e.name = j.at("name");
    e.file = j.at("file");
    e.kernel = j.at("kernel");
    e.grid = j.at("grid");
    e.block = j.at("block");
    e.args = j.at("args").get<std::vector<std::string>>();
    e.options = j.value("options", std::vector<std::string>{});
    e.exit = j.value("exit", 0);
    for (const json& c : j.at("check")) {
      e.checks.push_back(
          {c.at("arg").get<std::size_t>(), c.value("rel", 0.0), c.value("abs", 0.0)});
    }
    for (const json& kind : j.at("diagnostics")) e.diagnostics.insert(kind.get<std::string>());
    if (j.contains("printf")) e.printf_lines = j.at("printf").get<std::vector<std::string>>();
    e.gpu = j.value("gpu", true);
    e.step_ulps = j.value("step_ulps", std::uint64_t{0});
    entries.push_back(std::move(e));
  }
  return entries;
}

// ---------------------------------------------------------------------------------------------
// --arg SPEC on the host side, written apart from the simulator's own parser so that the
// reference does not share its mistakes: `TYPE:VALUE` or `TYPE[COUNT]:zeros|iota|file:PATH|list`.

ElemType elem_type(const std::string& name) {
  static const std::map<std::string, ElemType> types = {
      {"i32", ElemType::i32}, {"u32", ElemType::u32}, {"f32", ElemType::f32},
      {"i64", ElemType::i64}, {"u64", ElemType::u64}, {"f64", ElemType::f64}};
  const auto it = types.find(name);
  REQUIRE_MESSAGE(it != types.end(), "unknown element type '" << name << "'");
  return it->second;
}

bool is_float(ElemType t) { return t == ElemType::f32 || t == ElemType::f64; }

// One element's bits, zero-extended to 64, from its text (decimal, 0x hex, or a float).
std::uint64_t element_bits(ElemType type, const std::string& text) {
  if (type == ElemType::f32) {
    const float f = std::strtof(text.c_str(), nullptr);
    std::uint32_t bits = 0;
    std::memcpy(&bits, &f, 4);
    return bits;
  }
  if (type == ElemType::f64) {
    const double d = std::strtod(text.c_str(), nullptr);
    std::uint64_t bits = 0;
    std::memcpy(&bits, &d, 8);
    return bits;
  }
  const bool hex = text.rfind("0x", 0) == 0 || text.rfind("0X", 0) == 0;
  const std::uint64_t raw =
      hex ? std::strtoull(text.c_str(), nullptr, 16)
          : static_cast<std::uint64_t>(std::strtoll(text.c_str(), nullptr, 10));
  return corpus::elem_size(type) == 4 ? raw & 0xffffffffu : raw;
}

// A counting value (iota) of the element type, as bits.
std::uint64_t iota_bits(ElemType type, std::uint64_t i) {
  if (type == ElemType::f32) return element_bits(type, std::to_string(i));
  if (type == ElemType::f64) return element_bits(type, std::to_string(i));
  return i;
}

HostArg parse_arg(const std::string& spec) {
  HostArg arg;
  const std::size_t colon = spec.find(':');
  REQUIRE_MESSAGE(colon != std::string::npos, "bad --arg '" << spec << "'");
  const std::string head = spec.substr(0, colon);
  const std::string init = spec.substr(colon + 1);
  const std::size_t bracket = head.find('[');
  if (bracket == std::string::npos) {
    arg.type = elem_type(head);
    arg.bits = {element_bits(arg.type, init)};
    return arg;
  }
  arg.type = elem_type(head.substr(0, bracket));
  arg.is_buffer = true;
  const std::size_t count = std::stoull(head.substr(bracket + 1));
  arg.bits.assign(count, 0);
  if (init == "zeros") return arg;
  if (init == "iota") {
    for (std::size_t i = 0; i < count; ++i) arg.bits[i] = iota_bits(arg.type, i);
    return arg;
  }
  if (init.rfind("file:", 0) == 0) {
    const std::string bytes = read_text(kCorpusDir / init.substr(5));
    const std::size_t size = corpus::elem_size(arg.type);
    REQUIRE_MESSAGE(bytes.size() == count * size,
                    init << " holds " << bytes.size() << " bytes, not " << count << " elements");
    for (std::size_t i = 0; i < count; ++i)
      std::memcpy(&arg.bits[i], bytes.data() + i * size, size);
    return arg;
  }
  std::stringstream list(init);
  std::string item;
  std::size_t i = 0;
  while (std::getline(list, item, ',')) {
    REQUIRE_MESSAGE(i < count, "more than " << count << " values in '" << spec << "'");
    arg.bits[i++] = element_bits(arg.type, item);
  }
  REQUIRE_MESSAGE(i == count, "fewer than " << count << " values in '" << spec << "'");
  return arg;
}

// The arg spec as the CLI should see it: `file:` paths made absolute.
std::string absolute_spec(const std::string& spec) {
  const std::size_t at = spec.find(":file:");
  if (at == std::string::npos) return spec;
  return spec.substr(0, at) + ":file:" + (kCorpusDir / spec.substr(at + 6)).string();
}

corpus::Dim3 parse_dim(const std::string& text) {
  corpus::Dim3 d;
  unsigned* parts[] = {&d.x, &d.y, &d.z};
  std::stringstream in(text);
  std::string item;
  for (unsigned* part : parts) {
    if (!std::getline(in, item, ',')) break;
    *part = static_cast<unsigned>(std::stoul(item));
  }
  return d;
}

// ---------------------------------------------------------------------------------------------
// Running warpsim

struct RunOutcome {
  int exit_code = -1;
  std::string out;
  std::string err;
  json report;  // the --json object, null when stdout was not JSON
};

// The host compiler that warpsim compiles the kernels with: $WARPSIM_CORPUS_CXX (the ctest
// `corpus_tests_clang` sets clang++), else warpsim's default. Empty when none is asked for.
std::string corpus_compiler() {
  const char* name = std::getenv("WARPSIM_CORPUS_CXX");
  return name != nullptr ? name : "";
}

// Whether corpus_compiler() can be run; says why not (and that the suite is skipped) otherwise.
bool corpus_compiler_installed() {
  const std::string name = corpus_compiler();
  if (name.empty() || name.find('/') != std::string::npos) return true;
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (access((fs::path(dir) / name).c_str(), X_OK) == 0) return true;
  }
  // On stdout as well: ctest reports the suite as skipped on this line (SKIP_REGULAR_EXPRESSION).
  std::printf("skipped: %s is not installed (WARPSIM_CORPUS_CXX=%s)\n", name.c_str(), name.c_str());
  MESSAGE("skipped: " << name << " is not installed");
  return false;
}

// Where the runs keep their kernel cache, output and traces: one folder per compiler.
fs::path scratch_dir() {
  std::string name = corpus_compiler();
  std::replace(name.begin(), name.end(), '/', '_');
  return fs::path(CORPUS_BINARY_DIR) / (name.empty() ? "run" : "run-" + name);
}

// `trace_out`: also write the simulator's trace there (--trace).
RunOutcome run_warpsim(const Entry& e, const fs::path& trace_out = {}) {
  std::vector<std::string> argv_text = {WARPSIM_EXE, "run",     (kCorpusDir / e.file).string(),
                                        "--kernel",  e.kernel,  "--grid",
                                        e.grid,      "--block", e.block};
  for (const std::string& spec : e.args) {
    argv_text.push_back("--arg");
    argv_text.push_back(absolute_spec(spec));
  }
  argv_text.insert(argv_text.end(), e.options.begin(), e.options.end());
  argv_text.push_back("--json");
  if (!trace_out.empty()) {
    argv_text.push_back("--trace");
    argv_text.push_back(trace_out.string());
  }

  const warpsim::test::ProcessOutcome run =
      warpsim::test::run_process(argv_text, scratch_dir(),
                                 corpus_compiler().empty()
                                     ? std::vector<std::string>{}
                                     : std::vector<std::string>{"WARPSIM_CXX=" + corpus_compiler()});
  RunOutcome r;
  r.exit_code = run.exit_code;
  r.out = run.out;
  r.err = run.err;
  r.report = json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  if (r.report.is_discarded()) r.report = nullptr;
  return r;
}

// ---------------------------------------------------------------------------------------------
// Buffers from a --json object, and comparisons

// One JSON value of a buffer as the element's bits ("nan", "inf", "-inf" for special floats).
std::uint64_t json_bits(ElemType type, const json& v) {
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    REQUIRE_MESSAGE(is_float(type), "string value '" << s << "' in an integer buffer");
    return element_bits(type, s);
  }
  switch (type) {
    case ElemType::i32:
      return static_cast<std::uint32_t>(v.get<std::int32_t>());
    case ElemType::u32:
      return v.get<std::uint32_t>();
    case ElemType::i64:
      return static_cast<std::uint64_t>(v.get<std::int64_t>());
    case ElemType::u64:
      return v.get<std::uint64_t>();
    case ElemType::f32: {
      const float f = static_cast<float>(v.get<double>());
      std::uint32_t bits = 0;
      std::memcpy(&bits, &f, 4);
      return bits;
    }
    case ElemType::f64: {
      const double d = v.get<double>();
      std::uint64_t bits = 0;
      std::memcpy(&bits, &d, 8);
      return bits;
    }
  }
  return 0;
}

// arg index -> buffer, from a report's "buffers".
std::map<std::size_t, HostArg> report_buffers(const json& report) {
  std::map<std::size_t, HostArg> buffers;
  for (const json& b : report.at("buffers")) {
    HostArg arg;
    arg.type = elem_type(b.at("type").get<std::string>());
    arg.is_buffer = true;
    for (const json& v : b.at("values")) arg.bits.push_back(json_bits(arg.type, v));
    buffers[b.at("arg").get<std::size_t>()] = std::move(arg);
  }
  return buffers;
}

double as_double(ElemType type, std::uint64_t bits) {
  switch (type) {
    case ElemType::i32:
      return static_cast<std::int32_t>(bits);
    case ElemType::u32:
      return static_cast<std::uint32_t>(bits);
    case ElemType::i64:
      return static_cast<double>(static_cast<std::int64_t>(bits));
    case ElemType::u64:
      return static_cast<double>(bits);
    case ElemType::f32: {
      float f = 0;
      const auto b32 = static_cast<std::uint32_t>(bits);
      std::memcpy(&f, &b32, 4);
      return f;
    }
    case ElemType::f64: {
      double d = 0;
      std::memcpy(&d, &bits, 8);
      return d;
    }
  }
  return 0;
}

std::string element_text(ElemType type, std::uint64_t bits) {
  std::ostringstream out;
  out.precision(type == ElemType::f32 ? 9 : 17);
  if (type == ElemType::u64) {
    out << bits;
  } else if (type == ElemType::i64) {
    out << static_cast<std::int64_t>(bits);
  } else {
    out << as_double(type, bits);
  }
  return out.str();
}

bool same_element(ElemType type, std::uint64_t a, std::uint64_t b, const Check& check) {
  const double x = as_double(type, a), y = as_double(type, b);
  if (is_float(type) && std::isnan(x) && std::isnan(y)) return true;  // JSON keeps no payloads
  if (check.exact()) return a == b;
  return std::fabs(x - y) <= check.abs + check.rel * std::fabs(y);
}

// Empty when `actual` matches `expected` element by element; otherwise says where it does not.
std::string compare_buffer(const HostArg& actual, const HostArg& expected, const Check& check) {
  std::ostringstream why;
  if (actual.type != expected.type) return "element types differ";
  if (actual.bits.size() != expected.bits.size()) {
    why << actual.bits.size() << " elements, expected " << expected.bits.size();
    return why.str();
  }
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < actual.bits.size(); ++i) {
    if (same_element(actual.type, actual.bits[i], expected.bits[i], check)) continue;
    if (++mismatches <= 8) {
      why << "\n  [" << i << "] got " << element_text(actual.type, actual.bits[i]) << ", expected "
          << element_text(expected.type, expected.bits[i]);
    }
  }
  if (mismatches == 0) return {};
  return std::to_string(mismatches) + " of " + std::to_string(actual.bits.size()) +
         " elements differ" + (check.exact() ? " (bit for bit)" : " (beyond tolerance)") + ":" +
         why.str();
}

std::set<std::string> diagnostic_kinds(const json& report) {
  std::set<std::string> kinds;
  for (const json& d : report.at("diagnostics")) kinds.insert(d.at("kind").get<std::string>());
  return kinds;
}

std::string joined(const std::set<std::string>& items) {
  std::string out = "[";
  for (const std::string& item : items) out += (out.size() > 1 ? ", " : "") + item;
  return out + "]";
}

std::vector<std::string> sorted_printf(const json& report) {
  std::vector<std::string> lines;
  if (report.contains("printf")) {
    for (const json& p : report.at("printf")) lines.push_back(p.at("text").get<std::string>());
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

std::string subcase_title(const Entry& e) { return e.name + " (" + e.file + ")"; }

// A gzip (or plain) file's text; nullopt when it cannot be read.
std::optional<std::string> read_gzip(const fs::path& path) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (file == nullptr) return std::nullopt;
  std::string text;
  char chunk[65536];
  int n = 0;
  while ((n = gzread(file, chunk, sizeof chunk)) > 0) text.append(chunk, static_cast<std::size_t>(n));
  const bool ok = n == 0;
  gzclose(file);
  if (!ok) return std::nullopt;
  return text;
}

// One call as the step report shows it.
std::string call_text(const std::optional<warpsim::DeviceCall>& call) {
  if (!call) return "(no call)";
  std::ostringstream out;
  out << warpsim::to_string(call->op) << " mask 0x" << std::hex << call->mask << " in 0x"
      << call->input << " out 0x" << call->output << std::dec << " arg " << call->arg << " width "
      << call->width << " line " << call->line;
  return out.str();
}

// "steps identical (...)" or the first difference, for the per-entry line.
std::string steps_text(const warpsim::TraceComparison& c) {
  std::ostringstream out;
  if (!c.incomparable.empty()) {
    out << "steps not comparable: " << c.incomparable;
  } else if (!c.first_difference) {
    out << "steps identical (" << c.lanes << " lanes, " << c.calls << " calls";
    if (c.undefined_outputs != 0) out << ", " << c.undefined_outputs << " undefined results skipped";
    if (c.truncated_lanes != 0) out << ", " << c.truncated_lanes << " lanes truncated";
    out << ")";
  } else {
    const warpsim::CallDifference& d = *c.first_difference;
    out << "steps differ in " << c.differing_lanes << " of " << c.lanes
        << " lanes; first: block " << d.block << " warp " << d.warp << " lane " << d.lane
        << ", call " << d.call << " (simulator step " << d.sim_step << "), "
        << warpsim::to_string(d.field) << ": sim " << call_text(d.sim) << " | gpu "
        << call_text(d.gpu);
  }
  return out.str();
}

}  // namespace

// ---------------------------------------------------------------------------------------------

TEST_CASE("every corpus kernel runs in the simulator as its CPU reference and manifest say") {
  if (!corpus_compiler_installed()) return;
  const std::vector<Entry> entries = load_manifest();
  REQUIRE(entries.size() >= 16);
  for (const Entry& e : entries) {
    SUBCASE(subcase_title(e).c_str()) {
      CAPTURE(e.file);
      CAPTURE(e.kernel);
      const RunOutcome run = run_warpsim(e);
      CAPTURE(run.err);
      CHECK(run.exit_code == e.exit);
      REQUIRE_MESSAGE(!run.report.is_null(), "stdout is not one JSON object:\n" << run.out);

      const std::set<std::string> kinds = diagnostic_kinds(run.report);
      CHECK_MESSAGE(kinds == e.diagnostics,
                    "diagnostic kinds " << joined(kinds) << ", expected " << joined(e.diagnostics));

      if (e.printf_lines) {
        std::vector<std::string> expected = *e.printf_lines;
        std::sort(expected.begin(), expected.end());
        const std::vector<std::string> actual = sorted_printf(run.report);
        std::string printed;
        for (const std::string& line : actual) printed += "  " + line;
        CHECK_MESSAGE(actual == expected, "device printf lines (sorted):\n" << printed);
      }

      if (e.checks.empty()) continue;
      const corpus::ReferenceFn reference = corpus::find_reference(e.name);
      REQUIRE_MESSAGE(static_cast<bool>(reference), "no CPU reference registered for " << e.name);
      std::vector<HostArg> args;
      for (const std::string& spec : e.args) args.push_back(parse_arg(spec));
      reference({parse_dim(e.grid), parse_dim(e.block)}, args);

      const std::map<std::size_t, HostArg> buffers = report_buffers(run.report);
      for (const Check& check : e.checks) {
        CAPTURE(check.arg);
        REQUIRE(check.arg < args.size());
        const auto found = buffers.find(check.arg);
        REQUIRE_MESSAGE(found != buffers.end(), "the report has no buffer for arg " << check.arg);
        const std::string difference = compare_buffer(found->second, args[check.arg], check);
        CHECK_MESSAGE(difference.empty(), "arg " << check.arg << ": " << difference);
      }
    }
  }
}

// One pass over the recordings (no SUBCASEs: doctest re-runs a test case once per subcase, and
// the tally below must see every entry in one run). CAPTURE names the entry in each failure.
TEST_CASE("the simulator matches the recorded GPU outputs of the corpus") {
  if (!corpus_compiler_installed()) return;
  const std::vector<Entry> entries = load_manifest();
  const fs::path gpu_dir = kCorpusDir / "gpu";
  std::size_t recorded = 0, identical = 0, within_tolerance = 0, hangs_agreed = 0;
  std::size_t traced = 0, steps_identical = 0;
  std::string step_lines;  // one line per traced entry
  std::string device = "unknown device";
  if (fs::exists(gpu_dir / "DEVICE.txt")) {
    device = read_text(gpu_dir / "DEVICE.txt");
    while (!device.empty() && std::isspace(static_cast<unsigned char>(device.back())))
      device.pop_back();
    std::replace(device.begin(), device.end(), '\n', ' ');
  }

  for (const Entry& e : entries) {
    const fs::path recording = gpu_dir / (e.name + ".json");
    if (!fs::exists(recording)) continue;
    ++recorded;
    CAPTURE(e.name);
    CAPTURE(e.file);
    const json gpu = json::parse(read_text(recording), nullptr, /*allow_exceptions=*/false);
    if (gpu.is_discarded()) {
      FAIL_CHECK(recording.string() << " is not JSON");
      continue;
    }
    const fs::path device_trace_path = gpu_dir / (e.name + ".trace.json.gz");
    const bool has_device_trace = fs::exists(device_trace_path);
    const fs::path sim_trace_path =
        scratch_dir() / (e.name + ".sim-trace.json");
    std::error_code ignored;
    fs::remove(sim_trace_path, ignored);
    const RunOutcome run = run_warpsim(e, has_device_trace ? sim_trace_path : fs::path{});
    CAPTURE(run.err);
    if (run.report.is_null()) {
      FAIL_CHECK("stdout is not one JSON object:\n" << run.out);
      continue;
    }

    // A kernel that hung on the GPU (record_gpu.sh --include-hangs) must stop with a deadlock.
    if (gpu.value("gpu_status", std::string("completed")) == "hang") {
      const bool deadlocked =
          run.exit_code == 1 && diagnostic_kinds(run.report).count("deadlock") == 1;
      CHECK_MESSAGE(deadlocked, "hung on the GPU, but the simulator did not report a deadlock");
      hangs_agreed += deadlocked ? 1 : 0;
      continue;
    }

    if (gpu.value("gpu_status", std::string("completed")) == "error") {
      FAIL_CHECK("the recorded GPU run failed: " << gpu.value("message", std::string("?")));
      continue;
    }
    const std::map<std::size_t, HostArg> sim_buffers = report_buffers(run.report);
    const std::map<std::size_t, HostArg> gpu_buffers = report_buffers(gpu);
    CHECK_MESSAGE(!gpu_buffers.empty(), recording.string() << " holds no buffers");
    bool bit_identical = !gpu_buffers.empty(), agrees = bit_identical;
    for (const auto& [arg, gpu_buffer] : gpu_buffers) {
      const auto sim = sim_buffers.find(arg);
      if (sim == sim_buffers.end()) {
        FAIL_CHECK("the simulator reported no buffer for arg " << arg);
        bit_identical = agrees = false;
        continue;
      }
      if (compare_buffer(sim->second, gpu_buffer, Check{arg}).empty()) continue;
      bit_identical = false;
      Check check{arg};
      for (const Check& c : e.checks) {
        if (c.arg == arg) check = c;
      }
      const std::string difference = compare_buffer(sim->second, gpu_buffer, check);
      CHECK_MESSAGE(difference.empty(), "simulator vs GPU, arg " << arg << ": " << difference);
      agrees = agrees && difference.empty();
    }
    if (gpu.contains("printf") && e.printf_lines) {
      const bool same_printf = sorted_printf(run.report) == sorted_printf(gpu);
      CHECK_MESSAGE(same_printf, "device printf output differs from the GPU's");
      bit_identical = bit_identical && same_printf;
      agrees = agrees && same_printf;
    }

    // The steps, lane by lane, against the device trace (where one was recorded).
    bool steps_agree = true;
    if (has_device_trace) {
      ++traced;
      const std::optional<std::string> text = read_gzip(device_trace_path);
      warpsim::Expected<warpsim::DeviceTrace> gpu_trace = warpsim::fail("not read");
      if (text) gpu_trace = warpsim::read_device_trace_json(*text);
      warpsim::Expected<warpsim::Trace> sim = warpsim::fail("the simulator wrote no trace");
      if (fs::exists(sim_trace_path)) sim = warpsim::read_trace_json(read_text(sim_trace_path));
      std::string line;
      if (!text || !gpu_trace) {
        line = "cannot read " + device_trace_path.string() + (text ? ": " + gpu_trace.error().message : "");
      } else if (!sim) {
        line = "cannot read the simulator's trace: " + sim.error().message;
      } else {
        const warpsim::TraceComparison steps = warpsim::compare(*sim, *gpu_trace, e.step_ulps);
        line = steps_text(steps) + (e.step_ulps > 0 ? " (floats within " + std::to_string(e.step_ulps) + " ulp)" : "");
        steps_agree = steps.identical();
      }
      if (line.rfind("cannot", 0) == 0) steps_agree = false;
      step_lines += "  " + e.name + ": " + line + "\n";
      CHECK_MESSAGE(steps_agree, "simulator vs GPU trace: " << line);
      steps_identical += steps_agree ? 1 : 0;
    }
    fs::remove(sim_trace_path, ignored);

    if (bit_identical && steps_agree) {
      ++identical;
    } else if (agrees && steps_agree) {
      ++within_tolerance;
    }
  }

  if (recorded == 0) {
    MESSAGE("skipped: no GPU recordings in " << gpu_dir.string()
                                             << " yet; record them on a machine with a CUDA "
                                                "device with tests/corpus/record_gpu.sh");
    return;
  }
  if (!step_lines.empty()) MESSAGE("steps vs recorded device traces:\n" << step_lines);
  MESSAGE("corpus vs GPU (" << device << "): " << identical << " of " << recorded
                            << " recorded entries GPU-identical (buffers bit for bit"
                            << std::string(traced != 0 ? ", and steps where traced" : "") << "), "
                            << within_tolerance << " within tolerance, " << hangs_agreed
                            << " hang on both; steps identical in " << steps_identical << " of "
                            << traced << " entries with a device trace (" << entries.size()
                            << " entries in the manifest)");
}
