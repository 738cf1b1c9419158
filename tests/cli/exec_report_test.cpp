// The views of `warpsim exec` (cli/exec_report.cpp): the report of a program's launches and the
// comparison of the simulated program's output with the GPU's.
#include <doctest/doctest.h>

#include <sstream>

#include "exec_report.hpp"

using namespace warpsim;

namespace {

runner::ProgramResult two_launches() {
  runner::ProgramResult r;
  r.status = runner::ProgramStatus::exited;
  r.exit_code = 0;
  r.seconds = 0.5;
  runner::ProgramLaunch first;
  first.record.index = 0;
  first.record.kernel = "reduce<256>";
  first.record.file = "/src/prog.cu";
  first.record.line = 40;
  first.record.grid = {8, 1, 1};
  first.record.block = {256, 1, 1};
  first.record.status = "completed";
  first.record.steps = 120;
  runner::ProgramLaunch second = first;
  second.record.index = 1;
  second.record.kernel = "scan";
  second.record.grid = {2, 3, 1};
  second.record.shared_bytes = 1024;
  second.record.diagnostics = 1;
  second.trace.grid = second.record.grid;
  second.trace.diagnostics.push_back(
      {DiagnosticKind::undefined_source, "lane 8 read lane 16", 0x100, 0, 0, -1, {}, 1, {}, 0});
  r.launches = {first, second};
  return r;
}

}  // namespace

TEST_CASE("the exec report lists each launch with its shape, steps and diagnostics") {
  std::ostringstream out;
  cli::write_exec_text(out, {"dir/prog.cu"}, two_launches(), {});
  const std::string text = out.str();
  CAPTURE(text);
  CHECK(text.find("warpsim exec: prog.cu: 2 launches, 1 diagnostic\n") == 0);
  CHECK(text.find("  1. reduce<256><<<8, 256>>>  prog.cu:40  120 steps  completed\n") !=
        std::string::npos);
  CHECK(text.find("  2. scan<<<2,3,1, 256, 1024>>>") != std::string::npos);
  CHECK(text.find("lane 8 read lane 16") != std::string::npos);
  CHECK(text.find("the program exited with status 0 (0.50 s)") != std::string::npos);
  CHECK(text.find("exit status 123") != std::string::npos);
  CHECK(runner::exec_exit_status(two_launches()) == runner::kExecKernelProblem);
}

TEST_CASE("a program of several files is named by all of them; the JSON keeps the first as file") {
  std::ostringstream out;
  cli::write_exec_text(out, {"src/main.cpp", "src/kernels.cu"}, two_launches(), {});
  CHECK(out.str().find("warpsim exec: main.cpp + kernels.cu: 2 launches, 1 diagnostic\n") == 0);
  const nlohmann::ordered_json json =
      cli::exec_json({"src/main.cpp", "src/kernels.cu"}, two_launches());
  CHECK(json["file"] == "src/main.cpp");
  CHECK(json["files"] == nlohmann::ordered_json::array({"src/main.cpp", "src/kernels.cu"}));
}

TEST_CASE("the exec JSON report has every launch and warpsim's exit status") {
  const nlohmann::ordered_json json = cli::exec_json({"prog.cu"}, two_launches());
  CHECK(json["file"] == "prog.cu");
  CHECK(json["files"] == nlohmann::ordered_json::array({"prog.cu"}));
  CHECK(json["status"] == "exited");
  CHECK(json["exit_code"] == 0);
  CHECK(json["warpsim_exit_status"] == 123);
  REQUIRE(json["launches"].size() == 2);
  CHECK(json["launches"][1]["kernel"] == "scan");
  CHECK(json["launches"][1]["shared_bytes"] == 1024);
  CHECK(json["launches"][1]["diagnostics"].size() == 1);
  CHECK(json["launches"][0]["diagnostics"].empty());
}

TEST_CASE("exec_exit_status keeps the program's status and names warpsim's own endings") {
  runner::ProgramResult r;
  r.status = runner::ProgramStatus::exited;
  r.exit_code = 7;
  CHECK(runner::exec_exit_status(r) == 7);
  r.status = runner::ProgramStatus::timeout;
  CHECK(runner::exec_exit_status(r) == 124);
  r.status = runner::ProgramStatus::crashed;
  r.signal = 11;
  CHECK(runner::exec_exit_status(r) == 139);
  r.status = runner::ProgramStatus::bad_input;
  CHECK(runner::exec_exit_status(r) == 125);
  r.status = runner::ProgramStatus::kernel_stopped;
  CHECK(runner::exec_exit_status(r) == 123);
}

TEST_CASE("compare_programs finds the first differing line and a differing exit status") {
  const cli::ProgramComparison same = cli::compare_programs("a\nb\n", 0, "a\nb\n", 0);
  CHECK(same.identical());
  CHECK(same.first_different_line == 0);

  const cli::ProgramComparison differ = cli::compare_programs("a\nb\nc\n", 0, "a\nx\nc\n", 1);
  CHECK_FALSE(differ.identical());
  CHECK_FALSE(differ.same_exit_status);
  CHECK(differ.first_different_line == 2);
  CHECK(differ.sim_line == "b");
  CHECK(differ.gpu_line == "x");

  const cli::ProgramComparison shorter = cli::compare_programs("a\n", 0, "a\nmore\n", 0);
  CHECK(shorter.first_different_line == 2);
  CHECK(shorter.sim_line.empty());
  CHECK(shorter.gpu_line == "more");

  std::ostringstream out;
  cli::write_comparison_text(out, differ, 0, 1);
  CHECK(out.str().find("stdout differs, exit status differs (simulator 0, GPU 1)") !=
        std::string::npos);
  CHECK(out.str().find("first difference at line 2") != std::string::npos);
}
