// `warpsim walkthrough [LESSON_DIR]`: a lesson's kernel, run through the same path as
// `warpsim run` (runner::run_kernel_file), then its trace shown step by step in the terminal with the lesson's narrative.
// Interactive on a terminal (Enter: next, b: back, q: quit); prints every step otherwise.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <memory>
#include <string>

#include "commands.hpp"
#include "trace_text.hpp"
#include "warpsim/runner.hpp"
#include "warpsim/trace_index.hpp"

namespace warpsim::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The lessons folder: $WARPSIM_LESSONS_DIR, else the installed one beside the executable
// (<prefix>/share/warpsim/lessons), else the source tree's.
fs::path lessons_dir() {
  if (const char* dir = std::getenv("WARPSIM_LESSONS_DIR")) return dir;
  std::error_code error;
  const fs::path installed =
      fs::read_symlink("/proc/self/exe", error).parent_path().parent_path() / "share/warpsim/lessons";
  if (!error && fs::is_directory(installed)) return installed;
  return WARPSIM_LESSONS_DIR;
}

fs::path default_lesson() { return lessons_dir() / "04-butterfly-reduction"; }

void print_lines(const json& lines) {
  for (const json& line : lines) std::cout << line.get<std::string>() << '\n';
}

struct Lesson {
  json text;
  runner::KernelFileRequest run;
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
    runner::KernelFileRequest& r = lesson.run;
    r.file = (dir / "kernel.cu").string();
    r.kernel = lesson.text.at("kernel").get<std::string>();
    const auto grid = runner::parse_dim3(lesson.text.at("grid").get<std::string>());
    const auto block = runner::parse_dim3(lesson.text.at("block").get<std::string>());
    if (!grid || !block) throw std::invalid_argument(grid ? block.error().message : grid.error().message);
    r.grid = *grid;
    r.block = *block;
    for (const json& a : lesson.text.at("args")) {
      auto spec = runner::parse_arg_spec(a.get<std::string>());
      if (!spec) throw std::invalid_argument(a.get<std::string>() + ": " + spec.error().message);
      r.args.push_back(*spec);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "warpsim walkthrough: %s/lesson.json: %s\n", dir.c_str(), e.what());
    return kExitUsage;
  }
  return 0;
}

// "[496, 496, ...]": a buffer's elements as the lesson's reader reads them.
std::string buffer_text(const runner::OutputBuffer& buffer) {
  const ValueType type = value_type_from_string(runner::to_string(buffer.type)).value_or(ValueType::none);
  const std::size_t size = runner::element_size(buffer.type);
  std::string text = "[";
  for (std::size_t at = 0; at + size <= buffer.bytes.size(); at += size) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, buffer.bytes.data() + at, size);
    text += (at > 0 ? ", " : "") + format_value(bits, type);
  }
  return text + "]";
}

}  // namespace

int walkthrough(const std::string& lesson_dir) {
  const fs::path dir = lesson_dir.empty() ? default_lesson() : fs::path(lesson_dir);
  Lesson lesson;
  if (const int status = load_lesson(dir, lesson); status != 0) return status;
  const runner::KernelFileResult result = runner::run_kernel_file(lesson.run);
  if (result.status != runner::RunStatus::completed) {
    std::fprintf(stderr, "%swarpsim walkthrough: %s\n", result.details.c_str(), result.message.c_str());
    return result.exit_status();
  }
  const Trace& trace = result.trace;

  const bool interactive = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
  const TextStyle style{interactive};
  const json& notes = lesson.text.value("steps", json::array());
  std::cout << lesson.text.value("title", "Lesson") << "\n\n";
  print_lines(lesson.text.value("intro", json::array()));
  std::cout << "\n(" << lesson.run.file << ", kernel " << lesson.run.kernel << ", "
            << trace.steps.size() << " warp-level steps traced by the simulator)\n\n";

  const TraceIndex index(trace);
  std::size_t i = 0;
  while (i < trace.steps.size()) {
    if (i < notes.size()) std::cout << notes[i].get<std::string>() << '\n';
    print_step(std::cout, describe_step(trace, index, i), style);
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
  for (const runner::OutputBuffer& buffer : result.buffers) {
    std::cout << "\narg " << buffer.arg << " after the kernel: " << buffer_text(buffer) << '\n';
  }
  if (!trace.diagnostics.empty()) {
    std::cout << "\ndiagnostics:\n";
    print_diagnostics(std::cout, trace, style);
  }
  return 0;
}

int open_default() { return walkthrough({}); }

CommandRun add_walkthrough_command(CLI::App& app) {
  auto dir = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand(
      "walkthrough", "step through a lesson's trace in the terminal (default: the butterfly reduction)");
  sub->add_option("lesson", *dir, "the lesson's folder");
  return [dir] { return walkthrough(*dir); };
}

}  // namespace warpsim::cli
