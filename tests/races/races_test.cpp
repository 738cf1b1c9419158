// The memory checks (`--check races`, `--check uninit`, `--check bounds`) against planted bugs:
// every kernel in kernels/ with `// expect: race`, `// expect: uninit` or `// expect: bounds`
// lines must be named at exactly those lines, in any order the simulator runs blocks and warps;
// its _fixed twin, every corpus kernel and every lesson preset must give no such report.
#include <doctest/doctest.h>

#include <algorithm>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/kernel_cache.hpp"
#include "warpsim/course.hpp"
#include "warpsim/grading.hpp"
#include "warpsim/launch.hpp"
#include "warpsim/runner.hpp"

namespace fs = std::filesystem;
using namespace warpsim;
using namespace warpsim::runner;

namespace {

const fs::path kRaces = fs::path(WARPSIM_SOURCE_DIR) / "tests" / "races";
const fs::path kCorpus = fs::path(WARPSIM_SOURCE_DIR) / "tests" / "corpus";

nlohmann::json read_json(const fs::path& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot read " << path);
  return nlohmann::json::parse(in);
}

bool is_memory_check(DiagnosticKind kind) {
  return kind == DiagnosticKind::data_race || kind == DiagnosticKind::uninitialized_shared_read ||
         kind == DiagnosticKind::uninitialized_local_stored || kind == DiagnosticKind::out_of_bounds;
}

// "data_race" or "uninitialized_shared_read" -> the lines the file marks for it.
std::map<DiagnosticKind, std::set<std::uint32_t>> marked_lines(const fs::path& file) {
  std::map<DiagnosticKind, std::set<std::uint32_t>> marked;
  std::ifstream in(file);
  std::uint32_t number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    const std::size_t at = line.find("// expect:");
    if (at == std::string::npos) continue;
    std::istringstream words(line.substr(at + 10));
    for (std::string word; words >> word;) {
      if (word == "race") marked[DiagnosticKind::data_race].insert(number);
      if (word == "uninit") marked[DiagnosticKind::uninitialized_shared_read].insert(number);
      if (word == "uninit_local") marked[DiagnosticKind::uninitialized_local_stored].insert(number);
      if (word == "bounds") marked[DiagnosticKind::out_of_bounds].insert(number);
    }
  }
  return marked;
}

// The lines of `file_name` that a message names ("k.cu:12").
std::set<std::uint32_t> named_lines(const std::string& message, const std::string& file_name) {
  std::set<std::uint32_t> lines;
  const std::regex site(std::regex_replace(file_name, std::regex(R"([.])"), R"(\.)") + ":([0-9]+)");
  for (auto it = std::sregex_iterator(message.begin(), message.end(), site);
       it != std::sregex_iterator(); ++it) {
    lines.insert(static_cast<std::uint32_t>(std::stoul((*it)[1].str())));
  }
  return lines;
}

KernelFileRequest request_of(const nlohmann::json& entry, const fs::path& file) {
  warpsim::test::use_test_kernel_cache();
  KernelFileRequest r;
  r.file = file.string();
  r.kernel = entry.at("kernel").get<std::string>();
  r.grid = *parse_dim3(entry.at("grid").get<std::string>());
  r.block = *parse_dim3(entry.at("block").get<std::string>());
  for (const auto& arg : entry.at("args")) {
    std::string spec = arg.get<std::string>();
    if (const std::size_t at = spec.find(":file:"); at != std::string::npos) {
      spec = spec.substr(0, at) + ":file:" + (kCorpus / spec.substr(at + 6)).string();
    }
    auto parsed = parse_arg_spec(spec);
    REQUIRE_MESSAGE(parsed, spec << ": " << parsed.error().message);
    r.args.push_back(*parsed);
  }
  r.record_steps = false;
  r.check_races = true;
  r.check_uninitialized_shared = true;
  r.check_bounds = true;
  return r;
}

// The memory-check diagnostics of a run as (kind, lines named) pairs.
std::set<std::pair<DiagnosticKind, std::set<std::uint32_t>>> reports(const KernelFileResult& result,
                                                                     const std::string& file_name) {
  std::set<std::pair<DiagnosticKind, std::set<std::uint32_t>>> found;
  for (const Diagnostic& d : result.trace.diagnostics) {
    if (is_memory_check(d.kind)) found.insert({d.kind, named_lines(d.message, file_name)});
  }
  return found;
}

std::string messages(const KernelFileResult& result) {
  std::string text;
  for (const Diagnostic& d : result.trace.diagnostics) text += "\n  " + d.message;
  return text.empty() ? " (none)" : text;
}

// A kernel written to a scratch file (removed with the value) and run with every check on, one
// block of 32 threads.
struct CheckedSnippet {
  fs::path file;
  KernelFileRequest request;
  KernelFileResult result;
  ~CheckedSnippet() { fs::remove(file); }
};
void run_checked_snippet(CheckedSnippet& run, const std::string& name, const std::string& kernel,
                         const std::string& source, const std::vector<std::string>& args,
                         const std::string& grid = "1", const std::string& block = "32") {
  run.file = fs::path(WARPSIM_BINARY_DIR) / "tests" / (name + ".cu");
  std::ofstream(run.file) << source;
  const nlohmann::json entry = {{"kernel", kernel}, {"grid", grid}, {"block", block}, {"args", args}};
  run.request = request_of(entry, run.file);
  run.result = run_kernel_file(run.request);
  REQUIRE_MESSAGE(run.result.status == RunStatus::completed, run.result.message << messages(run.result));
}

}  // namespace

// Oclgrind's data-race and uninitialized patterns, written for CUDA (tests/races/oclgrind/): each
// file's label (from the CUDA model) and launch are on its first lines. A race is named at the
// lines marked `// expect: race` and nowhere else, a race-free kernel gets no finding, an
// uninitialised __shared__ read is named at its line, and so is a store of a thread's own
// never-set local to global memory; a never-set local used as an index (uninitialized_address)
// crashes the run and is left out (docs/checks/oclgrind.md lists it as missed); the global
// buffer's case is a whole program for `exec --check` (program_tests has the same check on its
// own case).
TEST_CASE("Oclgrind's race and uninitialised-read patterns, in CUDA: named where the label says") {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(kRaces / "oclgrind")) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 20);
  int checked = 0;
  for (const fs::path& file : files) {
    CAPTURE(file.filename().string());
    std::ifstream in(file);
    std::string label, launch;
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("// label: ", 0) == 0) label = line.substr(10, line.find(':', 10) - 10);
      if (line.rfind("// launch: ", 0) == 0) launch = line.substr(11);
    }
    REQUIRE(!label.empty());
    if (label == "uninit_global" || file.filename() == "uninitialized_address.cu") continue;
    nlohmann::json entry = {{"args", nlohmann::json::array()}};
    std::optional<std::uint32_t> shared;
    std::istringstream words(launch);
    for (std::string flag, value; words >> flag >> value;) {
      if (flag == "--arg") entry["args"].push_back(value);
      else if (flag == "--shared") shared = static_cast<std::uint32_t>(std::stoul(value));
      else entry[flag.substr(2)] = value;
    }
    KernelFileRequest request = request_of(entry, file);
    if (shared) request.shared_bytes = *shared;
    const KernelFileResult result = run_kernel_file(request);
    INFO(result.message << messages(result));
    REQUIRE(result.status == RunStatus::completed);
    const auto found = reports(result, file.filename().string());
    const auto marked = marked_lines(file);
    if (label == "no_race") {
      CHECK(found.empty());
    } else {
      const DiagnosticKind kind = label == "race"             ? DiagnosticKind::data_race
                                  : label == "uninit_private" ? DiagnosticKind::uninitialized_local_stored
                                                              : DiagnosticKind::uninitialized_shared_read;
      REQUIRE(marked.count(kind) == 1);
      bool named = false;
      for (const auto& [k, lines] : found) {
        CHECK(k == kind);
        for (const std::uint32_t line : lines) CHECK(marked.at(kind).count(line) == 1);
        named |= k == kind && !lines.empty();
      }
      CHECK(named);
    }
    ++checked;
  }
  CHECK(checked == 19);
}

TEST_CASE("every planted race and uninitialised read is named at its lines, in any order") {
  const nlohmann::json manifest = read_json(kRaces / "races.json");
  REQUIRE(manifest.at("entries").size() >= 12);
  for (const auto& entry : manifest.at("entries")) {
    const std::string name = entry.at("name").get<std::string>();
    const fs::path file = kRaces / "kernels" / (name + ".cu");
    const auto marked = marked_lines(file);
    REQUIRE_MESSAGE(!marked.empty(), name << " marks no line");
    std::set<std::pair<DiagnosticKind, std::set<std::uint32_t>>> first_order;
    for (const std::uint64_t order_seed : {0u, 7u, 12345u}) {
      KernelFileRequest request = request_of(entry, file);
      request.order_seed = order_seed;
      const KernelFileResult result = run_kernel_file(request);
      INFO(name << " (order seed " << order_seed << "):" << messages(result));
      // An out-of-bounds access stops the launch (as a fault would), after what came before it.
      REQUIRE(result.status == (marked.count(DiagnosticKind::out_of_bounds) != 0
                                    ? RunStatus::crashed
                                    : RunStatus::completed));
      const auto found = reports(result, file.filename().string());
      std::map<DiagnosticKind, std::set<std::uint32_t>> covered;
      for (const auto& [kind, lines] : found) {
        CHECK(!lines.empty());
        for (const std::uint32_t line : lines) {
          const bool is_marked = marked.count(kind) != 0 && marked.at(kind).count(line) != 0;
          CHECK_MESSAGE(is_marked, to_string(kind) << " names line " << line << ", not marked");
          covered[kind].insert(line);
        }
      }
      CHECK(covered == marked);
      if (order_seed == 0) {
        first_order = found;
      } else {
        CHECK(found == first_order);  // the same reports whatever order lanes ran in
      }
    }
  }
}

TEST_CASE("the fixed versions give no report") {
  const nlohmann::json manifest = read_json(kRaces / "races.json");
  for (const auto& entry : manifest.at("entries")) {
    const std::string name = entry.at("name").get<std::string>();
    const fs::path file = kRaces / "kernels" / (name + "_fixed.cu");
    const KernelFileResult result = run_kernel_file(request_of(entry, file));
    INFO(name << "_fixed:" << messages(result));
    REQUIRE(result.status == RunStatus::completed);
    CHECK(reports(result, file.filename().string()).empty());
  }
}

TEST_CASE("a race is named even where it gives the right numbers") {
  // The unsynchronised broadcast computes the right values in the simulator's order (thread 0
  // runs first): the race is found all the same.
  const nlohmann::json manifest = read_json(kRaces / "races.json");
  for (const auto& entry : manifest.at("entries")) {
    if (entry.at("name") != "11_broadcast_missing_sync") continue;
    const fs::path file = kRaces / "kernels" / "11_broadcast_missing_sync.cu";
    const KernelFileResult result = run_kernel_file(request_of(entry, file));
    const std::vector<float> out = result.buffer<float>(1);
    for (std::size_t t = 0; t < out.size(); ++t) CHECK(out[t] == 3.0f * static_cast<float>(t));
    CHECK(!reports(result, file.filename().string()).empty());
  }
}

TEST_CASE("an uninitialised shared read names every lane of the warp that made it") {
  // Warp 1's 32 lanes all read slots that only warp 0 was to fill: one diagnostic, all 32 lanes.
  const nlohmann::json manifest = read_json(kRaces / "races.json");
  for (const auto& entry : manifest.at("entries")) {
    if (entry.at("name") != "13_uninitialized_shared") continue;
    const fs::path file = kRaces / "kernels" / "13_uninitialized_shared.cu";
    const KernelFileResult result = run_kernel_file(request_of(entry, file));
    INFO(messages(result));
    REQUIRE(result.trace.diagnostics.size() == 1);
    const Diagnostic& d = result.trace.diagnostics[0];
    CHECK(d.kind == DiagnosticKind::uninitialized_shared_read);
    CHECK(d.warp == 1);
    CHECK(d.lanes == 0xffffffffu);
    CHECK(d.message.find("lanes 0-31 of warp 1 of block 0 read unwritten bytes") !=
          std::string::npos);
  }
}

TEST_CASE("no corpus kernel is reported") {
  const nlohmann::json manifest = read_json(kCorpus / "corpus.json");
  for (const auto& entry : manifest.at("entries")) {
    const fs::path file = kCorpus / entry.at("file").get<std::string>();
    KernelFileRequest request = request_of(entry, file);
    if (entry.contains("options")) {
      const auto options = entry.at("options").get<std::vector<std::string>>();
      for (std::size_t i = 0; i + 1 < options.size(); i += 2) {
        if (options[i] == "--shared") request.shared_bytes = std::stoul(options[i + 1]);
        if (options[i] == "--policy" && options[i + 1] == "interleaved") {
          request.policy = ConvergencePolicy::interleaved;
        }
        if (options[i] == "--seed") request.seed = std::stoull(options[i + 1]);
      }
    }
    const KernelFileResult result = run_kernel_file(request);
    INFO(entry.at("name").get<std::string>() << ":" << messages(result));
    CHECK(reports(result, file.filename().string()).empty());
  }
}

TEST_CASE("no lesson preset is reported") {
  const course::Catalogue catalogue = course::load_catalogue(fs::path(WARPSIM_SOURCE_DIR) / "lessons");
  REQUIRE(!catalogue.lessons.empty());
  warpsim::test::use_test_kernel_cache();
  for (const course::Lesson& lesson : catalogue.lessons) {
    for (const course::Preset& preset : lesson.presets) {
      KernelFileRequest request = course::request_for(lesson.kernel_file(), preset.launch);
      request.record_steps = false;
      request.check_races = true;
      request.check_uninitialized_shared = true;
      request.check_bounds = true;
      const KernelFileResult result = run_kernel_file(request);
      INFO(lesson.id << " preset " << preset.name << ":" << messages(result));
      CHECK(reports(result, "kernel.cu").empty());
    }
  }
}

TEST_CASE("no exercise's reference or right solution is reported, on any of its cases") {
  const course::ExerciseCatalogue catalogue =
      course::load_exercises(fs::path(WARPSIM_SOURCE_DIR) / "lessons");
  REQUIRE(!catalogue.exercises.empty());
  warpsim::test::use_test_kernel_cache();
  for (const course::Exercise& exercise : catalogue.exercises) {
    const auto cases = course::make_cases(exercise, 1);
    REQUIRE_MESSAGE(cases, exercise.id);
    std::vector<fs::path> files{exercise.solution_file()};
    for (const course::RightSolution& right : exercise.right) files.push_back(exercise.right_file(right));
    for (const fs::path& file : files) {
      for (const course::GradeCase& c : *cases) {
        KernelFileRequest request =
            course::request_for_case(exercise, file, c, course::Schedule{}, false);
        request.check_races = true;
        request.check_uninitialized_shared = true;
        request.check_bounds = true;
        const KernelFileResult result = run_kernel_file(request);
        INFO(exercise.id << " " << file.filename().string() << " case " << c.name << ":"
                         << messages(result));
        CHECK(reports(result, file.filename().string()).empty());
      }
    }
  }
}

TEST_CASE("a run buffer given as TYPE[N]:undefined: reads of elements nothing wrote are named") {
  // Lanes 0-15 write their element first, lanes 16-31 read theirs unwritten: one finding at the
  // read's line, for lanes 16-31 only; without the check the run is plain (exit 0, no finding).
  CheckedSnippet run;
  run_checked_snippet(run, "races_undefined_arg", "half_written",
                      "extern \"C\" __global__ void half_written(unsigned* data, unsigned* out) {\n"
                      "  const unsigned i = threadIdx.x;\n"
                      "  if (i < 16u) data[i] = i;\n"
                      "  out[i] = data[i] + 1u;\n"
                      "}\n",
                      {"u32[32]:undefined", "u32[32]:zeros"});
  REQUIRE_MESSAGE(run.result.trace.diagnostics.size() == 1, messages(run.result));
  const Diagnostic& d = run.result.trace.diagnostics[0];
  CHECK(d.kind == DiagnosticKind::uninitialized_global_read);
  CHECK(d.where.line == 4);
  CHECK(d.lanes == 0xffff0000u);
  CHECK(d.message.find("element 16 of the buffer of --arg 1") != std::string::npos);

  run.request.check_races = run.request.check_uninitialized_shared = run.request.check_bounds = false;
  const KernelFileResult plain = run_kernel_file(run.request);
  CHECK(plain.status == RunStatus::completed);
  CHECK(plain.trace.diagnostics.empty());
}

TEST_CASE("a store of a local that nothing set is named with its lanes and line, under the uninit check only") {
  // Lanes 16-31 store `v` without having set it: GCC's -ftrivial-auto-var-init=pattern gives it
  // 0xfe bytes, and the stored cells hold that pattern whole. Lanes 0-15 store what they set.
  CheckedSnippet run;
  run_checked_snippet(run, "races_unset_local", "half_set",
                      "extern \"C\" __global__ void half_set(unsigned* out) {\n"
                      "  unsigned v;\n"
                      "  if (threadIdx.x < 16u) v = threadIdx.x;\n"
                      "  out[threadIdx.x] = v;\n"
                      "}\n",
                      {"u32[32]:zeros"});
  REQUIRE_MESSAGE(run.result.trace.diagnostics.size() == 1, messages(run.result));
  const Diagnostic& d = run.result.trace.diagnostics[0];
  CHECK(d.kind == DiagnosticKind::uninitialized_local_stored);
  CHECK(d.where.line == 4);
  CHECK(d.lanes == 0xffff0000u);
  CHECK(d.occurrences == 16);
  CHECK(d.message.find("stores to element 16 of the buffer of --arg 1") != std::string::npos);
  CHECK(d.message.find("0xfefefefe") != std::string::npos);

  run.request.check_uninitialized_shared = false;  // races and bounds only
  const KernelFileResult unchecked = run_kernel_file(run.request);
  CHECK(unchecked.status == RunStatus::completed);
  CHECK(unchecked.trace.diagnostics.empty());
}

TEST_CASE("a never-set local stored to shared memory is named at its store, in every block") {
  // Threads 40-63 of each 64-thread block store `v` unset into s[]; thread 0 sums s[] into out:
  // the sum is no pattern, so only the shared cells show it, when each block ends (the next
  // block's threads overwrite them). One finding: line 5, warp 1's lanes 8-31, 24 stores a block.
  CheckedSnippet run;
  run_checked_snippet(run, "races_unset_shared", "partial_sum",
                      "extern \"C\" __global__ void partial_sum(const unsigned* in, unsigned* out) {\n"
                      "  __shared__ unsigned s[64];\n"
                      "  unsigned v;\n"
                      "  if (threadIdx.x < 40u) v = in[threadIdx.x];\n"
                      "  s[threadIdx.x] = v;\n"
                      "  __syncthreads();\n"
                      "  if (threadIdx.x == 0) {\n"
                      "    unsigned t = 0;\n"
                      "    for (unsigned i = 0; i < 64u; ++i) t += s[i];\n"
                      "    out[blockIdx.x] = t;\n"
                      "  }\n"
                      "}\n",
                      {"u32[64]:iota", "u32[2]:zeros"}, "2", "64");
  REQUIRE_MESSAGE(run.result.trace.diagnostics.size() == 1, messages(run.result));
  const Diagnostic& d = run.result.trace.diagnostics[0];
  CHECK(d.kind == DiagnosticKind::uninitialized_local_stored);
  CHECK(d.where.line == 5);
  CHECK(d.lanes == 0xffffff00u);
  CHECK(d.occurrences == 48);
  CHECK(d.message.find("stores to s[40] (shared memory)") != std::string::npos);
  CHECK(d.message.find("block 0") != std::string::npos);

  run.request.check_uninitialized_shared = false;  // races and bounds only
  const KernelFileResult unchecked = run_kernel_file(run.request);
  CHECK(unchecked.status == RunStatus::completed);
  CHECK(unchecked.trace.diagnostics.empty());
}

TEST_CASE("bad check names and unchecked code are refused, not ignored") {
  KernelFileRequest request;
  CHECK(add_memory_checks("races,uninit", request));
  CHECK(request.check_races);
  CHECK(request.check_uninitialized_shared);
  CHECK(request.check_bounds);  // every check stops at an access outside a buffer
  KernelFileRequest bounds_only;
  CHECK(add_memory_checks("bounds", bounds_only));
  CHECK(bounds_only.check_bounds);
  CHECK(!bounds_only.check_races);
  CHECK(!bounds_only.check_uninitialized_shared);
  const Expected<void> unknown = add_memory_checks("races,bogus", request);
  REQUIRE(!unknown);
  CHECK(unknown.error().message.find("'bogus'") != std::string::npos);

  // This test program is not built with -fsanitize=thread: checks would see nothing.
  LaunchOptions options;
  options.grid = {1, 1, 1};
  options.block = {32, 1, 1};
  options.checks.races = true;
  CHECK_THROWS_AS(launch(options, [] {}), std::invalid_argument);
}
