// `warpsim walkthrough [LESSON_DIR]`: a lesson's kernel, run through the same path as
// `warpsim run`, then its trace shown step by step in the terminal with the lesson's narrative.
// Interactive on a terminal (Enter: next, b: back, q: quit); prints every step otherwise.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "commands.hpp"
#include "trace_text.hpp"
#include "warpsim/runner.hpp"

namespace warpsim::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path default_lesson() {
  if (const char* dir = std::getenv("WARPSIM_LESSONS_DIR")) return fs::path(dir) / "01-butterfly-reduction";
  return fs::path(WARPSIM_LESSONS_DIR) / "01-butterfly-reduction";
}

void print_lines(const json& lines) {
  for (const json& line : lines) std::cout << line.get<std::string>() << '\n';
}

struct Lesson {
  json text;
  runner::RunOptions run;
};

int load_lesson(const fs::path& dir, Lesson& lesson) {
  std::ifstream file(dir / "lesson.json");
  if (!file) {
    std::fprintf(stderr, "warpsim walkthrough: no lesson at %s (lesson.json not readable)\n",
                 dir.c_str());
    return kExitUsage;
  }
  try {
    lesson.text = json::parse(file);
    runner::RunOptions& r = lesson.run;
    r.file = (dir / "kernel.cu").string();
    r.kernel = lesson.text.at("kernel").get<std::string>();
    const auto grid = runner::parse_dim3(lesson.text.at("grid").get<std::string>());
    const auto block = runner::parse_dim3(lesson.text.at("block").get<std::string>());
    if (!grid || !block) throw std::invalid_argument(grid ? block.error : grid.error);
    r.grid = *grid;
    r.block = *block;
    for (const json& a : lesson.text.at("args")) {
      auto spec = runner::parse_arg_spec(a.get<std::string>());
      if (!spec) throw std::invalid_argument(a.get<std::string>() + ": " + spec.error);
      r.args.push_back(*spec);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "warpsim walkthrough: %s/lesson.json: %s\n", dir.c_str(), e.what());
    return kExitUsage;
  }
  return 0;
}

// Runs the lesson's kernel; fills the trace and the run's JSON report.
int simulate(Lesson& lesson, Trace& trace, json& report) {
  char trace_path[] = "/tmp/warpsim-walkthrough-XXXXXX";
  const int fd = mkstemp(trace_path);
  if (fd < 0) {
    std::perror("warpsim walkthrough: temporary trace file");
    return 1;
  }
  close(fd);
  lesson.run.trace_path = trace_path;
  lesson.run.json = true;
  std::ostringstream out, err;
  const int status = runner::run_kernel_file(lesson.run, out, err);
  std::ifstream in(trace_path);
  std::string error;
  const bool read = in && read_trace_json(in, trace, error);
  std::remove(trace_path);
  if (status != 0) {
    std::cerr << err.str();
    return status;
  }
  if (!read) {
    std::fprintf(stderr, "warpsim walkthrough: %s\n", error.c_str());
    return 1;
  }
  report = json::parse(out.str(), nullptr, false);
  return 0;
}

}  // namespace

int walkthrough_command(const Args& args) {
  if (args.size() > 1 || (args.size() == 1 && args[0].rfind("-", 0) == 0)) {
    std::fprintf(stderr, "usage: warpsim walkthrough [LESSON_DIR]\n");
    return kExitUsage;
  }
  const fs::path dir = args.empty() ? default_lesson() : fs::path(args[0]);
  Lesson lesson;
  if (const int status = load_lesson(dir, lesson); status != 0) return status;
  Trace trace;
  json report;
  if (const int status = simulate(lesson, trace, report); status != 0) return status;

  const bool interactive = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
  const TextStyle style{interactive};
  const json& notes = lesson.text.value("steps", json::array());
  std::cout << lesson.text.value("title", "Lesson") << "\n\n";
  print_lines(lesson.text.value("intro", json::array()));
  std::cout << "\n(" << lesson.run.file << ", kernel " << lesson.run.kernel << ", "
            << trace.steps.size() << " warp-level steps traced by the simulator)\n\n";

  std::size_t i = 0;
  while (i < trace.steps.size()) {
    if (i < notes.size()) std::cout << notes[i].get<std::string>() << '\n';
    print_step(std::cout, trace, i, style);
    std::cout << '\n';
    if (!interactive) {
      ++i;
      continue;
    }
    std::cout << "[Enter] next  [b] back  [q] quit > " << std::flush;
    std::string answer;
    if (!std::getline(std::cin, answer) || answer == "q") return 0;
    if (answer == "b") {
      i = i > 0 ? i - 1 : 0;
    } else {
      ++i;
    }
  }
  print_lines(lesson.text.value("outro", json::array()));
  if (report.is_object()) {
    for (const json& buffer : report.value("buffers", json::array())) {
      std::cout << "\narg " << buffer.value("arg", 0) << " after the kernel: " << buffer.at("values").dump() << '\n';
    }
  }
  if (!trace.diagnostics.empty()) {
    std::cout << "\ndiagnostics:\n";
    print_diagnostics(std::cout, trace, style);
  }
  return 0;
}

}  // namespace warpsim::cli
