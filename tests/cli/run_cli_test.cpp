// End to end: the built `warpsim` binary on small kernel files (tests/runner/kernels/), checking
// exit statuses (run.md) and the JSON it prints.
#include <doctest/doctest.h>

#include "support/run_warpsim.hpp"
#include "support/scratch_dir.hpp"
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

extern char** environ;

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string kKernels = std::string(WARPSIM_SOURCE_DIR) + "/tests/runner/kernels/";


const fs::path& scratch() {
  static const warpsim::test::ScratchDir dir("warpsim-cli-test");
  REQUIRE_FALSE(dir.path().empty());
  return dir.path();
}

using Outcome = warpsim::test::ProcessOutcome;
using warpsim::test::read_text;

// Runs the warpsim binary with `args` and the extra environment `env` ("NAME=value").
Outcome run_cli(const std::vector<std::string>& args, const std::vector<std::string>& env = {}) {
  std::vector<std::string> argv{WARPSIM_CLI_PATH};
  argv.insert(argv.end(), args.begin(), args.end());
  return warpsim::test::run_process(argv, scratch(), env);
}

json parse_json(const Outcome& outcome) {
  INFO("stdout: " << outcome.out);
  INFO("stderr: " << outcome.err);
  json object;
  REQUIRE_NOTHROW(object = json::parse(outcome.out));
  return object;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("a butterfly reduction runs: every lane holds the sum, five steps, no diagnostics") {
  const Outcome run =
      run_cli({"run", kKernels + "butterfly_reduce.cu", "--kernel", "butterfly_reduce", "--grid",
               "1", "--block", "32", "--arg", "f32[32]:iota", "--arg", "f32[32]:zeros", "--arg",
               "i32:32", "--json"});
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  const json result = parse_json(run);
  CHECK(result["kernel"] == "butterfly_reduce");
  CHECK(result["steps"] == 5);
  CHECK(result["diagnostics"].empty());
  REQUIRE(result["buffers"].size() == 2);
  CHECK(result["buffers"][0]["arg"] == 0);
  CHECK(result["buffers"][0]["type"] == "f32");
  CHECK(result["buffers"][0]["values"][31] == 31);
  CHECK(result["buffers"][1]["arg"] == 1);
  REQUIRE(result["buffers"][1]["values"].size() == 32);
  for (const json& value : result["buffers"][1]["values"]) CHECK(value == 496);
}

TEST_CASE("the readable report shows the shape, buffers and step count") {
  const Outcome run = run_cli({"run", kKernels + "butterfly_reduce.cu", "--kernel",
                               "butterfly_reduce", "--grid", "1", "--block", "32", "--arg",
                               "f32[32]:iota", "--arg", "f32[32]:zeros", "--arg", "i32:32"});
  REQUIRE(run.exit_code == 0);
  CHECK(contains(run.out, "grid 1, block 32"));
  CHECK(contains(run.out, "5 warp-level steps"));
  CHECK(contains(run.out, "arg 1  f32[32]  [496, 496"));
  CHECK(contains(run.out, "diagnostics: none"));
}

TEST_CASE("a second run with the same inputs does not start the compiler") {
  const fs::path log = scratch() / "compiler-calls.log";
  const fs::path wrapper = scratch() / "logging-c++";
  {
    std::ofstream script(wrapper);
    script << "#!/bin/sh\necho \"$@\" >> '" << log.string() << "'\nexec c++ \"$@\"\n";
  }
  fs::permissions(wrapper, fs::perms::owner_all);
  const std::vector<std::string> args{"run",      kKernels + "butterfly_reduce.cu",
                                      "--kernel", "butterfly_reduce",
                                      "--grid",   "2",
                                      "--block",  "32",
                                      "--arg",    "f32[64]:iota",
                                      "--arg",    "f32[64]:zeros",
                                      "--arg",    "i32:64",
                                      "--json"};
  const std::vector<std::string> env{"WARPSIM_CXX=" + wrapper.string(),
                                     "WARPSIM_CACHE_DIR=" + (scratch() / "cache-logged").string()};
  const Outcome first = run_cli(args, env);
  REQUIRE_MESSAGE(first.exit_code == 0, first.err);
  const std::string calls = read_text(log);
  CHECK(contains(calls, "-shared"));
  const Outcome second = run_cli(args, env);
  REQUIRE(second.exit_code == 0);
  CHECK(read_text(log) == calls);
  CHECK(second.out == first.out);
  MESSAGE("cold run " << first.seconds << " s, cached run " << second.seconds << " s");
}

TEST_CASE("compiling adds to the kernel cache and prunes it to WARPSIM_CACHE_MAX_MB") {
  const fs::path cache = scratch() / "cache-pruned";
  const fs::path kernels = cache / "kernels";
  fs::create_directories(kernels);
  // A stale compiled kernel from long ago, far over a 0 MiB budget.
  const fs::path stale = kernels / "0123456789abcdef.so";
  std::ofstream(stale) << std::string(4096, 'x');
  fs::last_write_time(stale, fs::file_time_type::clock::now() - std::chrono::hours(48));
  const std::vector<std::string> args{"run",    kKernels + "butterfly_reduce.cu", "--kernel",
                                      "butterfly_reduce", "--grid", "1", "--block", "32",
                                      "--arg",  "f32[32]:iota", "--arg", "f32[32]:zeros",
                                      "--arg",  "i32:32", "--json"};
  const Outcome run = run_cli(args, {"WARPSIM_CACHE_DIR=" + cache.string(), "WARPSIM_CACHE_MAX_MB=0"});
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  CHECK_FALSE(fs::exists(stale));
  std::size_t objects = 0;
  for (const auto& file : fs::directory_iterator(kernels)) objects += file.path().extension() == ".so";
  CHECK(objects == 1);  // the kernel just compiled: used this hour, so it stays
}

TEST_CASE("a WARPSIM_CACHE_MAX_MB that is not a number is refused with a message") {
  const Outcome run = run_cli({"run", kKernels + "butterfly_reduce.cu", "--kernel", "butterfly_reduce",
                               "--grid", "1", "--block", "32", "--arg", "f32[32]:iota", "--arg",
                               "f32[32]:zeros", "--arg", "i32:32"},
                              {"WARPSIM_CACHE_MAX_MB=lots"});
  CHECK(run.exit_code == 2);
  CHECK(contains(run.err, "WARPSIM_CACHE_MAX_MB must be a whole number of MiB, not 'lots'"));
}

TEST_CASE("a compile error shows the compiler's message with the user's file and line") {
  const Outcome run = run_cli({"run", kKernels + "compile_error.cu", "--kernel", "broken", "--grid",
                               "1", "--block", "32", "--arg", "f32[32]:zeros", "--json"});
  CHECK(run.exit_code == 2);
  CHECK(run.out.empty());
  CHECK(contains(run.err, "compile_error.cu:5:"));
  CHECK(contains(run.err, "undeclared_value"));
  CHECK(contains(run.err, "did not compile"));
}

TEST_CASE("a null-pointer store is a kernel_fault naming the lane and the line") {
  const Outcome run = run_cli({"run", kKernels + "null_pointer.cu", "--kernel", "null_store",
                               "--grid", "1", "--block", "32", "--arg", "i32[32]:zeros", "--json"});
  CHECK(run.exit_code == 1);
  const json result = parse_json(run);
  REQUIRE(result["diagnostics"].size() == 1);
  const json& d = result["diagnostics"][0];
  CHECK(d["kind"] == "kernel_fault");
  CHECK(d["lanes"] == "0x00000008");
  CHECK(d["line"] == 7);
  CHECK(contains(d["file"].get<std::string>(), "null_pointer.cu"));
  CHECK(d["block"] == json::array({0, 0, 0}));
  CHECK(d["warp"] == 0);
  CHECK(contains(d["message"].get<std::string>(), "null pointer"));
  CHECK(contains(run.err, "lane 3"));
}

// Whether the ELF object at `path` has a section named `name` (".debug_line").
bool has_section(const fs::path& path, const std::string& name) {
  const std::string image = read_text(path);
  return image.find(std::string(1, '\0') + name + std::string(1, '\0')) != std::string::npos;
}

TEST_CASE("a plain kernel object has no line information; a crash builds its twin that has") {
  const fs::path cache = scratch() / "cache-lines";
  fs::remove_all(cache);
  const std::vector<std::string> env{"WARPSIM_CACHE_DIR=" + cache.string()};
  const std::vector<std::string> args{"run",   kKernels + "null_pointer.cu", "--kernel",
                                      "null_store", "--grid", "1", "--block", "32",
                                      "--arg", "i32[32]:zeros", "--json"};
  for (int run_number = 1; run_number <= 2; ++run_number) {  // built, then from the cache
    CAPTURE(run_number);
    const Outcome run = run_cli(args, env);
    CHECK(run.exit_code == 1);
    const json result = parse_json(run);
    REQUIRE(result["diagnostics"].size() == 1);
    CHECK(result["diagnostics"][0]["line"] == 7);
  }
  std::vector<fs::path> objects, twins;
  for (const auto& file : fs::directory_iterator(cache / "kernels")) {
    const std::string name = file.path().filename().string();
    if (name.ends_with(".lines.so")) twins.push_back(file.path());
    else if (name.ends_with(".so")) objects.push_back(file.path());
  }
  REQUIRE(objects.size() == 1);
  REQUIRE(twins.size() == 1);
  CHECK_FALSE(has_section(objects[0], ".debug_line"));
  CHECK(has_section(twins[0], ".debug_line"));
  // A twin whose code differs (here: not an object at all) is rebuilt, never used as it is.
  std::ofstream(twins[0], std::ios::trunc) << "not an object";
  const Outcome again = run_cli(args, env);
  CHECK(parse_json(again)["diagnostics"][0]["line"] == 7);
  CHECK(has_section(twins[0], ".debug_line"));
  // A twin that cannot be built: the report says why it names no line.
  fs::remove(twins[0]);
  fs::path cached_source = objects[0];
  std::ofstream(cached_source.replace_extension(".cu"), std::ios::app) << "\nnot C++\n";
  const json unknown = parse_json(run_cli(args, env))["diagnostics"][0];
  CHECK(unknown["line"] == 6);  // the lane's last warp-level call, said to be so
  CHECK(contains(unknown["message"].get<std::string>(),
                 "(the lane's last warp-level call; its own line is unknown: the kernel's build "
                 "with line information failed"));
}

TEST_CASE("a write one past the end is out_of_bounds naming the buffer and element") {
  const Outcome run = run_cli({"run", kKernels + "out_of_bounds.cu", "--kernel", "shifted_store",
                               "--grid", "1", "--block", "32", "--arg", "f32[32]:zeros", "--json"});
  CHECK(run.exit_code == 1);
  const json result = parse_json(run);
  REQUIRE(result["diagnostics"].size() == 1);
  const json& d = result["diagnostics"][0];
  CHECK(d["kind"] == "out_of_bounds");
  CHECK(d["lanes"] == "0x80000000");
  CHECK(d["line"] == 4);
  const std::string message = d["message"];
  CHECK(contains(message, "parameter 0 (f32[32])"));
  CHECK(contains(message, "element 32"));
  CHECK(contains(message, "write"));
  // The lanes before the faulting one had stored their values.
  CHECK(result["buffers"][0]["values"][31] == 30);
}

TEST_CASE("a write before a buffer is out_of_bounds naming the buffer and element -1") {
  // out[i - 1]: lane 0 writes element -1, in the slack before the buffer, not a guard page.
  const Outcome run = run_cli({"run", kKernels + "before_the_buffer.cu", "--kernel",
                               "shifted_back_store", "--grid", "1", "--block", "32", "--arg",
                               "f32[32]:zeros", "--json"});
  CHECK(run.exit_code == 122);  // it ran, and a memory check found something
  const json result = parse_json(run);
  REQUIRE(result["diagnostics"].size() == 1);
  const json& d = result["diagnostics"][0];
  CHECK(d["kind"] == "out_of_bounds");
  const std::string message = d["message"];
  CHECK(contains(message, "write before parameter 0 (f32[32]): element -1 (valid: 0..31)"));
  CHECK(result["buffers"][0]["values"][0] == 1);  // lanes 1..31 stored theirs
}

TEST_CASE("--check bounds names a read or write before a buffer with its lane and line") {
  for (const auto& [kernel, args, access, line] :
       {std::tuple<std::string, std::vector<std::string>, std::string, int>{
            "shifted_back_store", {"--arg", "f32[32]:zeros"}, "write", 6},
        {"shifted_back_copy", {"--arg", "f32[32]:iota", "--arg", "f32[32]:zeros"}, "read", 12}}) {
    CAPTURE(kernel);
    std::vector<std::string> argv{"run", kKernels + "before_the_buffer.cu", "--kernel", kernel,
                                  "--grid", "1", "--block", "32", "--check", "bounds", "--json"};
    argv.insert(argv.end(), args.begin(), args.end());
    const Outcome run = run_cli(argv);
    CHECK(run.exit_code == 1);  // the launch stopped before the access, as a fault stops it
    const json result = parse_json(run);
    REQUIRE(result["diagnostics"].size() == 1);
    const json& d = result["diagnostics"][0];
    CHECK(d["kind"] == "out_of_bounds");
    CHECK(d["lanes"] == "0x00000001");
    CHECK(d["line"] == line);
    const std::string message = d["message"];
    CHECK(contains(message, "out-of-bounds " + access + " of element -1 of the buffer of --arg "));
    CHECK(contains(message, "lane 0"));
  }
}

TEST_CASE("--check findings exit 122, and races found before an out-of-bounds stop are kept") {
  const std::string races = std::string(WARPSIM_SOURCE_DIR) + "/tests/races/kernels/";
  const std::vector<std::string> tree{"--kernel", "tree_reduce", "--grid", "2", "--block", "256",
                                      "--arg", "f32[512]:iota", "--arg", "f32[2]:zeros",
                                      "--check", "races"};
  std::vector<std::string> racy{"run", races + "01_tree_reduce.cu"};
  racy.insert(racy.end(), tree.begin(), tree.end());
  CHECK(run_cli(racy).exit_code == 122);
  std::vector<std::string> fixed{"run", races + "01_tree_reduce_fixed.cu"};
  fixed.insert(fixed.end(), tree.begin(), tree.end());
  CHECK(run_cli(fixed).exit_code == 0);

  const Outcome both = run_cli({"run", races + "16_race_then_past_the_end.cu", "--kernel",
                                "race_then_overread", "--grid", "1", "--block", "64", "--arg",
                                "i32[64]:iota", "--arg", "i32[65]:zeros", "--arg", "i32:64",
                                "--check", "races", "--json"});
  CHECK(both.exit_code == 1);
  const json result = parse_json(both);
  REQUIRE(result["diagnostics"].size() == 2);
  CHECK(result["diagnostics"][0]["kind"] == "data_race");
  CHECK(result["diagnostics"][0]["line"] == 6);
  CHECK(result["diagnostics"][1]["kind"] == "out_of_bounds");
  CHECK(result["diagnostics"][1]["line"] == 9);
  CHECK(contains(result["diagnostics"][1]["message"].get<std::string>(),
                 "read of element 64 of the buffer of --arg 1"));
}

TEST_CASE("--schedules names the schedule whose buffers differ, and that schedule alone shows it") {
  const std::string file = std::string(WARPSIM_SOURCE_DIR) + "/tests/runner/kernels/lost_update.cu";
  const std::vector<std::string> launch{"run", file, "--kernel", "count_flags", "--grid", "2",
                                        "--block", "128", "--arg", "i32[256]:random:1:1:2",
                                        "--arg", "u32[1]:zeros"};
  std::vector<std::string> explore = launch;
  explore.insert(explore.end(), {"--schedules", "4", "--json"});
  const Outcome explored = run_cli(explore);
  INFO(explored.err);
  CHECK(explored.exit_code == 122);
  const json result = parse_json(explored);
  REQUIRE(result["schedules"].size() == 4);
  CHECK(result["schedules"][0]["flags"] == "--policy maximal");
  CHECK(result["schedules"][0]["differences"].empty());
  CHECK(result["schedules"][1]["flags"] == "--policy maximal --order-seed 1");
  REQUIRE(result["schedules"][1]["differences"].size() == 1);
  const json& d = result["schedules"][1]["differences"][0];
  CHECK(d["arg"] == 1);
  CHECK(d["first_schedule_value"] == "256");
  CHECK(d["value"] != "256");
  CHECK(result["found_something"] == true);

  std::vector<std::string> alone = launch;
  alone.insert(alone.end(), {"--policy", "maximal", "--order-seed", "1", "--json"});
  const json rerun = parse_json(run_cli(alone));
  CHECK(rerun["buffers"][1]["values"][0] == std::stoi(d["value"].get<std::string>()));

  // A kernel without races leaves the same buffers under every schedule: exit 0.
  const Outcome clean = run_cli({"run", std::string(WARPSIM_SOURCE_DIR) + "/tests/races/kernels/01_tree_reduce_fixed.cu",
                                 "--kernel", "tree_reduce", "--grid", "2", "--block", "256", "--arg",
                                 "f32[512]:iota", "--arg", "f32[2]:zeros", "--schedules", "4"});
  CHECK(clean.exit_code == 0);
  CHECK(contains(clean.out, "every schedule left the same buffers and found nothing"));
}

TEST_CASE("a lane that spins forever is stopped at --timeout with where it was") {
  const Outcome run =
      run_cli({"run", kKernels + "infinite_loop.cu", "--kernel", "spin", "--grid", "1", "--block",
               "32", "--arg", "i32[1]:zeros", "--timeout", "2", "--json"});
  CHECK(run.exit_code == 1);
  // Bounded, whatever the load: the compile (a fresh cache), the start-up allowance, 2 s of the
  // kernel and the stop's grace. How soon after the limit it stops is not timed here.
  CHECK(run.seconds < 120);
  const json result = parse_json(run);
  REQUIRE(result["diagnostics"].size() == 1);
  const json& d = result["diagnostics"][0];
  CHECK(d["kind"] == "timeout");
  CHECK(d["lanes"] == "0x00000001");
  CHECK(d["line"] == 5);
  INFO("message: " << d["message"].get<std::string>());
  // The launch stopped itself at the limit (its findings kept), naming the lane that looped.
  CHECK(contains(d["message"].get<std::string>(),
                 "kernel did not finish within 2 s (0 warp-level steps ran): the time limit "
                 "passed while block 0 ran"));
  CHECK(contains(d["message"].get<std::string>(),
                 "lane 0 of warp 0 was looping at infinite_loop.cu:5"));
}

TEST_CASE("a race found before --timeout is reported with the timeout") {
  // Every lane writes data[0] (a race), then spins on a flag nothing sets.
  const Outcome run = run_cli({"run", kKernels + "race_then_spin.cu", "--kernel",
                               "race_then_spin", "--grid", "1", "--block", "64", "--arg",
                               "i32[1]:zeros", "--arg", "i32[1]:zeros", "--check", "races",
                               "--timeout", "2", "--json"});
  CHECK(run.exit_code == 1);
  const json result = parse_json(run);
  CHECK(result["status"] == "timeout");
  REQUIRE(result["diagnostics"].size() == 2);
  CHECK(result["diagnostics"][0]["kind"] == "data_race");
  CHECK(result["diagnostics"][0]["line"] == 4);
  CHECK(result["diagnostics"][1]["kind"] == "timeout");
  CHECK(result["diagnostics"][1]["line"] == 6);
  CHECK(contains(result["diagnostics"][1]["message"].get<std::string>(),
                 "lanes 0-31 of warps 0-1 were looping at race_then_spin.cu:6"));
}

TEST_CASE("a stack overflow is reported at the user's line, not the compiled copy's") {
  // Regression: with DWARF 5 line tables addr2line named the cached .cu for function entries.
  const Outcome run = run_cli({"run", kKernels + "stack_overflow.cu", "--kernel", "recurse",
                               "--grid", "1", "--block", "32", "--arg", "i32[32]:zeros", "--json"});
  CHECK(run.exit_code == 1);
  const json result = parse_json(run);
  REQUIRE(result["diagnostics"].size() == 1);
  const json& d = result["diagnostics"][0];
  CHECK(d["kind"] == "kernel_fault");
  CHECK(contains(d["message"].get<std::string>(), "stack overflow"));
  CHECK(d["file"] == kKernels + "stack_overflow.cu");
  CHECK(d["line"].get<int>() >= 2);
  CHECK(d["line"].get<int>() <= 5);
}

TEST_CASE("a runaway kernel stops at --max-steps with exit status 1") {
  const Outcome run =
      run_cli({"run", kKernels + "butterfly_reduce.cu", "--kernel", "butterfly_reduce", "--grid",
               "1", "--block", "32", "--arg", "f32[32]:iota", "--arg", "f32[32]:zeros", "--arg",
               "i32:32", "--max-steps", "2", "--json"});
  CHECK(run.exit_code == 1);
  const json result = parse_json(run);
  CHECK(result["status"] == "step_budget_exceeded");
  REQUIRE(result["diagnostics"].size() == 1);
  CHECK(result["diagnostics"][0]["kind"] == "step_budget_exceeded");
  CHECK(contains(run.err, "step budget"));
}

TEST_CASE("a deadlock stops the run with exit status 1 and a deadlock diagnostic") {
  const fs::path trace = scratch() / "deadlock-trace.json";
  const Outcome run =
      run_cli({"run", kKernels + "deadlock.cu", "--kernel", "stuck", "--grid", "1", "--block", "32",
               "--arg", "i32[32]:zeros", "--json", "--trace", trace.string()});
  CHECK(run.exit_code == 1);
  const json result = parse_json(run);
  CHECK(result["status"] == "deadlock");
  const json& diagnostics = result["diagnostics"];
  CHECK(std::any_of(diagnostics.begin(), diagnostics.end(),
                    [](const json& d) { return d["kind"] == "deadlock" && d["line"] == 5; }));
  CHECK(contains(run.err, "deadlock"));
  json trace_json;
  CHECK_NOTHROW(trace_json = json::parse(read_text(trace)));
}

TEST_CASE("templates, namespaces, dynamic shared memory and printf work in kernel files") {
  const fs::path trace = scratch() / "features-trace.json";
  const Outcome run = run_cli({"run", kKernels + "features.cu", "--kernel", "block_sum<64>",
                               "--grid", "2", "--block", "64", "--arg", "i32[128]:iota", "--arg",
                               "i32[2]:zeros", "--json", "--trace", trace.string()});
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  const json result = parse_json(run);
  CHECK(result["kernel"] == "demo::block_sum<64>");
  CHECK(result["buffers"][1]["values"] == json::array({2016, 6112}));
  REQUIRE(result["printf"].size() == 2);
  CHECK(result["printf"][1]["text"] == "block 1: sum 6112\n");
  CHECK(result["printf"][1]["block"] == json::array({1, 0, 0}));
  const json trace_json = json::parse(read_text(trace));
  CHECK_FALSE(trace_json.empty());

  const Outcome scale =
      run_cli({"run", kKernels + "features.cu", "--kernel", "scale", "--grid", "1", "--block", "32",
               "--arg", "f32[5]:1,2,3,4.5,-0", "--arg", "f32:0.1", "--arg", "u32:5", "--json"});
  REQUIRE(scale.exit_code == 0);
  CHECK(parse_json(scale)["buffers"][0]["values"] ==
        json::array({0.100000001, 0.200000003, 0.300000012, 0.450000018, -0.0}));
}

TEST_CASE("bad input exits 2 with a message naming what is wrong") {
  const std::string file = kKernels + "butterfly_reduce.cu";
  struct Row {
    std::vector<std::string> args;
    std::string message_part;
  };
  const std::vector<Row> rows = {
      {{"run", file, "--kernel", "nope", "--grid", "1", "--block", "32"},
       "unknown kernel 'nope'; kernels in " + file + ": butterfly_reduce"},
      {{"run", file, "--kernel", "butterfly_reduce", "--grid", "1", "--block", "32", "--arg",
        "f32[32]:iota"},
       "takes 3 parameters but 1 --arg was given"},
      {{"run", file, "--kernel", "butterfly_reduce", "--grid", "1", "--block", "32", "--arg",
        "f32[32]:iota", "--arg", "i32[32]:zeros", "--arg", "i32:1"},
       "parameter 1 of 'butterfly_reduce' (--arg 2): the parameter has type 'float*' but the "
       "argument is i32[32]"},
      {{"run", file, "--kernel", "butterfly_reduce", "--grid", "1", "--block", "32", "--arg",
        "f32[32]:iota", "--arg", "f32[32]:zeros", "--arg", "f32:1"},
       "parameter 2 of 'butterfly_reduce' (--arg 3): the parameter has type 'int' but the "
       "argument is f32"},
      {{"run", file, "--kernel", "butterfly_reduce", "--grid", "1", "--block", "32", "--arg",
        "f32[32]:iota", "--arg", "f32[32]:zeros", "--arg", "i32:1", "--shared", "100000000"},
       "--shared 100000000 is more than"},
      {{"run", file, "--kernel", "butterfly_reduce", "--grid", "1", "--block", "32", "--arg",
        "f32[4]:file:/nonexistent/in.bin"},
       "--arg 1 (f32[4]): cannot read /nonexistent/in.bin: No such file or directory"},
      {{"run", "/nonexistent/k.cu", "--kernel", "k", "--grid", "1", "--block", "32"},
       "cannot read /nonexistent/k.cu: No such file or directory"},
      {{"run", file, "--kernel", "butterfly_reduce", "--grid", "0", "--block", "32"},
       "--grid: '0' has a zero extent"},
      {{"run", file, "--kernel", "butterfly_reduce", "--grid", "1", "--block", "2048"},
       "a block holds at most 1024"},
      {{"run", file, "--kernel", "butterfly_reduce", "--grid", "1", "--block", "32", "--arg",
        "f32[4]:1,2"},
       "--arg 1 'f32[4]:1,2': the list has 2 values; the buffer has 4 elements"},
      {{"run", file, "--grid", "1", "--block", "32"}, "--kernel NAME is required"},
      {{"run", file, "--kernel", "k", "--block", "32"}, "--grid is required"},
      {{"run", file, "--kernel", "k", "--grid", "1", "--block", "32", "--frobnicate"},
       "warpsim run: The following argument was not expected: --frobnicate"},
      {{"run", file, "--kernel", "k", "--grid", "1", "--block", "32", "--policy", "random"},
       "--policy: random not in {maximal,interleaved}"},
      {{"frobnicate"}, "not expected: frobnicate"},
      {{"--frobnicate"}, "not expected: --frobnicate"},
      {{"vectors", "frobnicate"}, "not expected: frobnicate"},
      {{"vectors"}, "give a subcommand"},
  };
  for (const Row& row : rows) {
    std::string command;
    for (const std::string& arg : row.args) command += arg + " ";
    CAPTURE(command);
    const Outcome run = run_cli(row.args);
    CHECK(run.exit_code == 2);
    CHECK_MESSAGE(contains(run.err, row.message_part), run.err);
  }
}

TEST_CASE("buffers load from raw little-endian files of exactly COUNT elements") {
  const fs::path input = scratch() / "input.bin";
  {
    std::ofstream out(input, std::ios::binary);
    for (int i = 0; i < 32; ++i) {
      const float value = 0.5f * static_cast<float>(i);
      out.write(reinterpret_cast<const char*>(&value), sizeof value);
    }
  }
  const std::string file = kKernels + "butterfly_reduce.cu";
  const Outcome run = run_cli({"run", file, "--kernel", "butterfly_reduce", "--grid", "1",
                               "--block", "32", "--arg", "f32[32]:file:" + input.string(), "--arg",
                               "f32[32]:zeros", "--arg", "i32:32", "--json"});
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  CHECK(parse_json(run)["buffers"][1]["values"][0] == 248);

  const Outcome wrong_size =
      run_cli({"run", file, "--kernel", "butterfly_reduce", "--grid", "1", "--block", "32", "--arg",
               "f32[33]:file:" + input.string(), "--arg", "f32[32]:zeros", "--arg", "i32:32"});
  CHECK(wrong_size.exit_code == 2);
  CHECK(contains(wrong_size.err, "has 128 bytes; f32[33] needs exactly 132"));
}

TEST_CASE("a header beside the kernel file is found, and editing it recompiles") {
  const fs::path dir = scratch() / "user-project";
  fs::create_directories(dir);
  {
    std::ofstream(dir / "helper.cuh") << "__device__ int offset() { return 1; }\n";
    std::ofstream(dir / "uses_helper.cu")
        << "#include \"helper.cuh\"\n"
           "__global__ void add_offset(int* out) { out[threadIdx.x] = offset(); }\n";
  }
  const std::vector<std::string> args{"run",      (dir / "uses_helper.cu").string(),
                                      "--kernel", "add_offset",
                                      "--grid",   "1",
                                      "--block",  "4",
                                      "--arg",    "i32[4]:zeros",
                                      "--json"};
  const Outcome first = run_cli(args);
  REQUIRE_MESSAGE(first.exit_code == 0, first.err);
  CHECK(parse_json(first)["buffers"][0]["values"] == json::array({1, 1, 1, 1}));

  std::ofstream(dir / "helper.cuh") << "__device__ int offset() { return 2; }\n";
  const Outcome second = run_cli(args);
  REQUIRE(second.exit_code == 0);
  CHECK(parse_json(second)["buffers"][0]["values"] == json::array({2, 2, 2, 2}));

  // Nothing was written beside the user's files.
  std::vector<std::string> entries;
  for (const auto& entry : fs::directory_iterator(dir)) {
    entries.push_back(entry.path().filename().string());
  }
  std::sort(entries.begin(), entries.end());
  CHECK(entries == std::vector<std::string>{"helper.cuh", "uses_helper.cu"});
}

TEST_CASE("vectors check reaches the checker and reports unreadable files") {
  const Outcome missing = run_cli({"vectors", "check", "/nonexistent/vectors.jsonl"});
  CHECK(missing.exit_code == 2);
  CHECK(contains(missing.out, "vectors: 0 cases"));
  CHECK(contains(missing.err, "/nonexistent/vectors.jsonl"));
  CHECK(run_cli({"vectors", "check"}).exit_code == 2);
  CHECK(run_cli({"vectors"}).exit_code == 2);
}

TEST_CASE("--gpu without a usable GPU says so in one line and exits 3") {
  const Outcome run =
      run_cli({"run", kKernels + "butterfly_reduce.cu", "--kernel", "butterfly_reduce", "--grid",
               "1", "--block", "32", "--arg", "f32[32]:iota", "--arg", "f32[32]:zeros", "--arg",
               "i32:32", "--gpu"});
  if (fs::exists("/dev/nvidia0")) {  // a GPU machine: both runs ran (the GPU tests compare them)
    INFO(run.err);
    CHECK(run.exit_code == 0);
    return;
  }
  CHECK(run.exit_code == 3);
  CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
  CHECK(contains(run.err, "--gpu"));
}

TEST_CASE("--gpu --json without a usable GPU prints nothing on stdout, one line on stderr") {
  const fs::path device_trace = scratch() / "no-gpu-device-trace.json";
  const Outcome run = run_cli(
      {"run", kKernels + "butterfly_reduce.cu", "--kernel", "butterfly_reduce", "--grid", "1",
       "--block", "32", "--arg", "f32[32]:iota", "--arg", "f32[32]:zeros", "--arg", "i32:32",
       "--gpu", "--json", "--gpu-trace-blocks", "2", "--gpu-trace-calls", "64",
       "--tolerance-ulps", "1", "--gpu-trace-out", device_trace.string()});
  if (fs::exists("/dev/nvidia0")) {  // a GPU machine: both ran, the report and the trace written
    INFO(run.err);
    CHECK(run.exit_code == 0);
    CHECK(nlohmann::json::accept(run.out));
    CHECK(fs::exists(device_trace));
    return;
  }
  CHECK(run.exit_code == 3);
  CHECK(run.out.empty());
  CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
  CHECK(run.err.rfind("warpsim run: --gpu: ", 0) == 0);
  CHECK_FALSE(fs::exists(device_trace));
}

TEST_CASE("--gpu's flags are checked before anything runs: bad values exit 2") {
  const std::vector<std::string> base = {
      "run",   kKernels + "butterfly_reduce.cu", "--kernel", "butterfly_reduce", "--grid", "1",
      "--block", "32", "--arg", "f32[32]:iota", "--arg", "f32[32]:zeros", "--arg", "i32:32"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cli(args);
  };
  for (const std::vector<std::string>& bad : std::vector<std::vector<std::string>>{
           {"--gpu", "--gpu-trace-blocks", "-1"},
           {"--gpu", "--gpu-trace-blocks", "four"},
           {"--gpu", "--gpu-trace-calls", "0"},
           {"--gpu", "--gpu-trace-calls", "100000000"},
           {"--gpu", "--tolerance-ulps", "1.5"},
           {"--gpu", "--tolerance-ulps"},
           {"--gpu", "--gpu-trace-out", "/nonexistent-dir/trace.json"},
           {"--tolerance-ulps", "2"},  // needs --gpu
           {"--gpu-trace-out", "t.json"}}) {
    const Outcome run = with(bad);
    INFO(bad[0] << " " << bad[1] << " -> " << run.err);
    CHECK(run.exit_code == 2);
    CHECK(run.out.empty());
    CHECK(contains(run.err, "warpsim run: "));
  }
  // Good values pass the checks and reach the device probe (exit 3 here, 0 on a GPU machine).
  const Outcome good = with({"--gpu", "--gpu-trace-blocks", "0", "--gpu-trace-calls=16",
                             "--tolerance-ulps", "4", "--json"});
  CHECK((good.exit_code == 3 || good.exit_code == 0));
}

TEST_CASE("kernels that macros declare are found, run and listed") {
  const std::string file = kKernels + "macro_kernels.cu";
  const Outcome sum = run_cli({"run", file, "--kernel", "warp_sum_int", "--grid", "1", "--block",
                               "32", "--arg", "i32[32]:iota", "--arg", "i32[1]:zeros", "--json"});
  REQUIRE_MESSAGE(sum.exit_code == 0, sum.err);
  const json result = parse_json(sum);
  CHECK(result["steps"] == 5);
  CHECK(contains(result.dump(), "496"));
  const Outcome scale = run_cli({"run", file, "--kernel", "scale_by_three", "--grid", "1",
                                 "--block", "4", "--arg", "i32[4]:1,2,3,4", "--json"});
  REQUIRE_MESSAGE(scale.exit_code == 0, scale.err);
  CHECK(contains(parse_json(scale).dump(), "[3,6,9,12]"));

  const Outcome list = run_cli({"run", file, "--list-kernels"});
  CHECK(list.exit_code == 0);
  CHECK(contains(list.out, "written_out  (line 20)"));
  CHECK(contains(list.out, "scale_by_two  (declared by a macro)"));
  CHECK(contains(list.out, "warp_sum_int  (declared by a macro)"));

  const Outcome unknown = run_cli({"run", file, "--kernel", "warp_sum_float", "--grid", "1",
                                   "--block", "32", "--arg", "f32[32]:iota"});
  CHECK(unknown.exit_code == 2);
  CHECK(contains(unknown.err, "unknown kernel 'warp_sum_float'"));
  CHECK(contains(unknown.err, "warp_sum_int"));  // the listing names the macro kernels too
}

TEST_CASE("an access past the dynamic shared memory the launch gave is out_of_bounds") {
  const auto run_with = [](const std::string& shared) {
    return run_cli({"run", kKernels + "shared_overflow.cu", "--kernel", "stride_two", "--grid", "1",
                    "--block", "32", "--arg", "i32[32]:zeros", "--shared", shared, "--json"});
  };
  const Outcome over = run_with("128");  // 32 ints; lane 16 writes the 33rd
  CHECK(over.exit_code == 1);
  const json result = parse_json(over);
  REQUIRE(result["diagnostics"].size() == 1);
  const json& d = result["diagnostics"][0];
  CHECK(d["kind"] == "out_of_bounds");
  CHECK(d["lanes"] == "0x00010000");
  CHECK(d["line"] == 4);
  CHECK(contains(d["message"].get<std::string>(), "dynamic shared memory"));
  CHECK(contains(d["message"].get<std::string>(), "at byte 128, past the 128 bytes"));

  const Outcome enough = run_with("256");
  CHECK(enough.exit_code == 0);
  CHECK(parse_json(enough)["diagnostics"].empty());
}

TEST_CASE("--list-kernels, --help and --version answer and exit 0") {
  const Outcome list = run_cli({"run", kKernels + "features.cu", "--list-kernels"});
  CHECK(list.exit_code == 0);
  CHECK(contains(list.out, "demo::block_sum<...>"));
  CHECK(contains(list.out, "scale"));
  CHECK_FALSE(contains(list.out, "not_a_kernel"));
  CHECK(run_cli({"--help"}).exit_code == 0);
  CHECK(run_cli({"help", "run"}).exit_code == 0);
  const Outcome version = run_cli({"--version"});
  CHECK(version.exit_code == 0);
  CHECK(contains(version.out, "warpsim "));
}

TEST_CASE("the walkthrough of the default lesson prints every step and the warp's sum") {
  const Outcome run = run_cli({"walkthrough"});
  INFO("stderr: " << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(contains(run.out, "The butterfly reduction"));
  CHECK(contains(run.out, "step 1 of 5 · __shfl_xor_sync · mask 0xffffffff · laneMask 16"));
  CHECK(contains(run.out, "step 5 of 5 · __shfl_xor_sync · mask 0xffffffff · laneMask 1"));
  CHECK(contains(run.out, "  from |  16  17  18  19  20  21  22  23"));
  CHECK(contains(run.out, "arg 1 after the kernel: [496, 496, 496"));
  // Each step in words, as the GUI's narrative panel says it (warpsim/step_narration.hpp).
  CHECK(contains(run.out, "  All 32 lanes took part.\n  Each lane received the value of its "
                          "partner lane i ^ 16: lane 0 received 16 from lane 16"));
}

TEST_CASE("the walkthrough refuses a folder without a lesson") {
  const Outcome run = run_cli({"walkthrough", "/nonexistent-lesson"});
  CHECK(run.exit_code == 2);
  CHECK(contains(run.err, "no lesson '/nonexistent-lesson'; lessons: "));
}

TEST_CASE("a diagnostic repeated at one line reports the union of its lanes and how often, in --json") {
  // Two warps misuse the same line: one diagnostic, lanes of both occurrences, count 2.
  const Outcome run = run_cli({"run", std::string(WARPSIM_SOURCE_DIR) + "/tests/corpus/kernels/20_misuse_tail_shfl_down.cu",
                               "--kernel", "tail_warp_sum", "--grid", "1", "--block", "64", "--arg",
                               "i32[64]:iota", "--arg", "i32[2]:zeros", "--arg", "i32:40", "--json"});
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  const json j = parse_json(run);
  REQUIRE_FALSE(j["diagnostics"].empty());
  bool repeated = false;
  for (const json& d : j["diagnostics"]) {
    REQUIRE(d.contains("occurrences"));
    repeated = repeated || d["occurrences"].get<int>() > 1;
  }
  CHECK(repeated);
}

namespace {

// The lines of `text` that start with `prefix`.
std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> found;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) == 0) found.push_back(line);
  }
  return found;
}

bool has_digit(const std::string& text) {
  return std::any_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

TEST_CASE("predict mode shows nothing that answers a question before it is asked") {
  SUBCASE("the note that names the answer waits for the answers; the out and from rows are '?'") {
    const Outcome run = run_cli({"lesson", "23", "--predict", "--all"});
    INFO("stderr: " << run.err);
    REQUIRE(run.exit_code == 0);
    const std::size_t asked = run.out.find("Predict: ");
    REQUIRE(asked != std::string::npos);
    const std::string before = run.out.substr(0, asked);
    const std::string after = run.out.substr(asked);
    const std::string note = "lane 0 (31) and lane 1 (30) swap values";
    CHECK_FALSE(contains(before, note));
    CHECK(contains(after, note));
    // The step in words names what lanes received: after the answers, never before.
    CHECK_FALSE(contains(before, "took part."));
    CHECK(contains(after, "took part."));
    const auto out_rows = lines_starting(before, "   out |");
    const auto from_rows = lines_starting(before, "  from |");
    CHECK(out_rows.size() == 4);
    CHECK(from_rows.size() == 4);
    for (const std::string& row : out_rows) CHECK_MESSAGE(!has_digit(row.substr(8)), row);
    for (const std::string& row : from_rows) CHECK_MESSAGE(!has_digit(row.substr(8)), row);
    CHECK(contains(after, "   out |  30  31  28  29  26  27  24  25"));  // then revealed
  }
  SUBCASE("a question about what lane 7 passes in hides lane 7's in cell, not the others'") {
    const Outcome run = run_cli({"lesson", "broadcast", "--predict", "--all"});
    INFO("stderr: " << run.err);
    REQUIRE(run.exit_code == 0);
    const std::size_t asked = run.out.find("Predict: ");
    REQUIRE(asked != std::string::npos);
    const auto in_rows = lines_starting(run.out.substr(0, asked), "    in |");
    REQUIRE_FALSE(in_rows.empty());
    std::string cells;
    for (const std::string& row : in_rows) cells += row.substr(8) + " ";
    // Lane i passes 100 + i: lane 7's 107 is the answer, its neighbours' are what one reasons from.
    CHECK_FALSE(contains(cells, "107"));
    CHECK(contains(cells, " 106 "));
    CHECK(contains(cells, " 108 "));
    CHECK(std::count(cells.begin(), cells.end(), '?') == 1);
    // Without --predict the same rows hold the values.
    const Outcome plain = run_cli({"lesson", "broadcast", "--all"});
    const auto shown = lines_starting(plain.out, "    in |");
    REQUIRE_FALSE(shown.empty());
    CHECK(has_digit(shown.front().substr(8)));
  }
}

TEST_CASE("predict mode keeps back the after row and note of the step before a question on inputs") {
  const Outcome run = run_cli({"lesson", "butterfly-reduction", "--predict", "--all"});
  INFO("stderr: " << run.err);
  REQUIRE(run.exit_code == 0);
  // Step 5 asks what lanes 0 and 1 bring into the last round (240 and 256): step 4's after row
  // and note say it, so they wait for the answers.
  const std::size_t asked = run.out.find("Predict: What running sums");
  REQUIRE(asked != std::string::npos);
  const std::string before = run.out.substr(0, asked);
  const std::string step4 = before.substr(before.find("step 4 of 5"));
  const auto after_rows = lines_starting(step4, "  after |");
  REQUIRE(after_rows.size() == 4);
  for (const std::string& row : after_rows) CHECK_MESSAGE(!has_digit(row.substr(9)), row);
  const std::string note = "receives 128 from lane 2: 240";
  CHECK_FALSE(contains(before, note));
  CHECK(contains(run.out.substr(asked), note));
}

TEST_CASE("a deadlocked lesson ends on where every lane waits, and for whom") {
  const Outcome run = run_cli({"lesson", "23", "--all"});
  INFO("stderr: " << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(contains(run.out, "; 1 warp-level step of block 0 warp 0, 1 in all, traced by the "
                          "simulator; then the warp deadlocks: where every lane waits)"));
  CHECK(contains(run.out, "after step 1 of 1 · where every lane waits · stopped deadlock · kernel.cu:28"));
  CHECK(contains(run.out, "  call |     shfl_up   shfl_down     shfl_up   shfl_down"));
  CHECK(contains(run.out, "  line |          28          25          28          25"));
  CHECK(contains(run.out, "  mask |  0xffffffff  0xffffffff"));
  CHECK(contains(run.out,
                 "lanes 0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30 wait in __shfl_up_sync at "
                 "kernel.cu:28 with mask 0xffffffff for lanes 1,3,5,7,9,11,13,15,17,19,21,23,25,27,"
                 "29,31, which never arrive: lanes 1,3,5,7,9,11,13,15,17,19,21,23,25,27,29,31 wait "
                 "in __shfl_down_sync at kernel.cu:25 (different calls never meet)"));
  CHECK(run.out.find("where every lane waits ·") > run.out.find("step 1 of 1 · __shfl_xor_sync"));
}

TEST_CASE("the command line's own messages read well") {
  SUBCASE("a number out of range names its bounds, not the largest double") {
    const Outcome run = run_cli({"run", "x.cu", "--max-steps", "0"});
    CHECK(run.exit_code == 2);
    CHECK(contains(run.err, "--max-steps: 0 is not allowed: it must be 1 or more"));
    CHECK_FALSE(contains(run.err, "1797693"));
    const Outcome timeout = run_cli({"run", "x.cu", "--timeout", "0"});
    CHECK(contains(timeout.err, "--timeout: 0 is not allowed: it must be from 0.001 to 86400"));
    const Outcome seed = run_cli({"run", "x.cu", "--seed", "-1"});
    CHECK(contains(seed.err, "--seed: -1 is not allowed: it must be 0 or more"));
  }
  SUBCASE("run --help lists every element type of the table") {
    const Outcome help = run_cli({"run", "--help"});
    CHECK(contains(help.out, "TYPE is i32 u32 f32 i64 u64 f64 u8 i8 u16 i16 f16 bf16 b8"));
  }
  SUBCASE("lessons lists each lesson's presets, as lesson --help says") {
    const Outcome list = run_cli({"lessons"});
    CHECK(contains(list.out, "    presets: default fixed random fixed-random"));  // lesson 23
    CHECK(contains(run_cli({"lesson", "--help"}).out, "warpsim lessons lists them"));
  }
  SUBCASE("lessons --verify --gpu without a GPU stops at once with one message") {
    if (std::filesystem::exists("/dev/nvidia0")) {
      MESSAGE("a GPU is present: the fast refusal is not what runs here");
      return;
    }
    const Outcome run = run_cli({"lessons", "--verify", "--gpu"});
    CHECK(run.exit_code == 3);
    CHECK(run.out.empty());
    CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
    CHECK(contains(run.err, "warpsim lessons: --gpu: "));
    CHECK(run.seconds < 10);
  }
}
