// `warpsim lessons`, `warpsim lesson ID` (walkthrough, --predict, --verify, --gpu --record) and
// `warpsim walkthrough`, the default lesson's walkthrough.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "commands.hpp"
#include "gpu_hooks.hpp"
#include "gpu_report.hpp"
#include "run_report.hpp"
#include "trace_text.hpp"
#include "warpsim/course.hpp"
#include "warpsim/step_narration.hpp"
#include "warpsim/step_view.hpp"
#include "warpsim/wait_view.hpp"

namespace warpsim::cli {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

struct LessonFlags {
  std::string id;
  std::string preset;  // empty: default (or every preset, with --verify/--record)
  bool all = false;
  bool predict = false;
  bool verify = false;
  bool gpu = false;
  bool record = false;
  bool json = false;
  std::string format = "natural";
  std::string policy = "maximal";
  std::uint64_t seed = 1;
};

// "1 warp-level step", "5 warp-level steps".
std::string count_of(std::size_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

bool color_wanted() { return isatty(STDOUT_FILENO) != 0 && std::getenv("NO_COLOR") == nullptr; }

// The lesson an argument names: an id of the catalogue or a lesson folder's path.
Expected<course::Lesson> find(const std::string& id) {
  if (fs::exists(fs::path(id) / "lesson.json")) return course::load_lesson(id);
  const course::Catalogue catalogue = course::load_catalogue(course::lesson_folders());
  if (const course::Lesson* lesson = course::find_lesson(catalogue, id)) return *lesson;
  for (const Error& problem : catalogue.problems) {
    if (problem.message.find(id) != std::string::npos) return problem;
  }
  std::string known;
  for (const course::Lesson& lesson : catalogue.lessons) known += (known.empty() ? "" : ", ") + lesson.short_id;
  return fail("no lesson '" + id + "'; lessons: " + (known.empty() ? "none found in " +
                                                                         course::default_lessons_dir().string()
                                                                   : known));
}

std::string source_line(const course::Lesson& lesson, std::uint32_t line) {
  std::istringstream in(lesson.source);
  std::string text;
  for (std::uint32_t n = 1; std::getline(in, text); ++n) {
    if (n == line) return text;
  }
  return {};
}

void print_paragraphs(const std::vector<std::string>& paragraphs) {
  for (const std::string& p : paragraphs) std::cout << p << "\n\n";
}

// One step as the walkthrough shows it: the note, the source line, the lane table, the step in
// words (warpsim/step_narration.hpp, as the GUI's narrative panel says it), its diagnostics. With
// `hide_answers` (predict mode, before the step's questions are answered) the cells that answer
// them are "?", and the note, the words and the diagnostics (which may name the answers) wait for
// the answered table.
// With `hide_after` (predict mode, the next step asks what lanes pass in) the after row is "?",
// and the note, the words and the diagnostics wait for that step's answers.
// A note that covers several steps (one without a pass) is printed in full at the first only.
void print_note(const course::LessonRun& run, const course::NarratedStep& s) {
  if (s.note == nullptr) return;
  if (&s != &run.narrative[s.note_first]) {
    std::cout << "(the note of step " << s.note_first + 1 << " goes on here)\n";
    return;
  }
  std::cout << s.note->text << "\n";
}

void show_step(const course::LessonRun& run, const course::NarratedStep& s, ValueFormat format,
               const TextStyle& style, bool hide_answers, bool with_note = true,
               bool hide_after = false) {
  if (with_note && !hide_answers && !hide_after) print_note(run, s);
  const StepInfo& info = run.index.info(s.step);
  const std::string line = source_line(*run.lesson, info.where.line);
  if (!line.empty()) std::cout << "  " << info.where.line << " |" << line << "\n";
  StepView view = describe_step(run.result.trace, run.index, s.step, {.format = format, .after = true});
  if (hide_answers || hide_after) {
    for (StepRow& row : view.rows) {
      const LaneMask hidden = hide_answers ? course::hidden_lanes(row, s.questions)
                              : row.kind == RowKind::after ? ~LaneMask{0}
                                                           : LaneMask{0};
      for (int lane = 0; lane < kWarpSize; ++lane) {
        if (!has_lane(hidden, lane)) continue;
        LaneCell& cell = row.cells[static_cast<std::size_t>(lane)];
        if (!cell.text.empty()) cell.text = "?";
        cell.undefined = false;
        cell.changed = false;
        cell.differs = false;
      }
    }
  }
  print_step(std::cout, view, style);
  if (hide_answers || hide_after) return;
  for (const std::string& sentence : narrate_step(view, -1)) std::cout << "  " << sentence << "\n";
  for (const std::size_t d : view.diagnostics) {
    std::cout << "  ";
    print_step_diagnostic(std::cout, run.result.trace, run.result.trace.diagnostics[d], style);
  }
}

// Asks the step's questions; returns (right, asked).
std::pair<int, int> ask(const course::LessonRun& run, const course::NarratedStep& s) {
  int right = 0, asked = 0;
  for (const course::Question* q : s.questions) {
    auto expected = course::answers(run, *q);
    if (!expected) {
      std::cout << "(" << expected.error().message << ")\n";
      continue;
    }
    std::cout << "\nPredict: " << q->prompt << "\n";
    for (const course::Answer& a : *expected) {
      std::cout << "  lane " << a.lane << " (" << course::to_string(q->value) << ")? " << std::flush;
      std::string typed;
      if (!std::getline(std::cin, typed)) typed.clear();
      ++asked;
      if (course::is_correct(a, typed)) {
        ++right;
        std::cout << "  right: " << a.text << "\n";
      } else {
        std::cout << "  not quite: lane " << a.lane << " has " << a.text << "\n";
      }
    }
  }
  return {right, asked};
}

int walk(const course::Lesson& lesson, const course::Preset& preset, const LessonFlags& flags) {
  course::RunSettings settings;
  settings.policy = flags.policy == "interleaved" ? ConvergencePolicy::interleaved : ConvergencePolicy::maximal;
  settings.seed = flags.seed;
  const course::LessonRun run = course::run_lesson(lesson, preset, settings);
  if (run.result.status == runner::RunStatus::bad_input) {
    std::cerr << run.result.details;
    return usage_error("lesson", run.result.message);
  }
  const ValueFormat format = value_format_from_string(flags.format).value_or(ValueFormat::natural);
  const bool interactive = !flags.all && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
  const TextStyle style{color_wanted(), terminal_columns()};
  std::cout << lesson.title << "\n\n";
  print_paragraphs(course::intro_of(lesson, preset));
  const std::optional<WaitView> wait = describe_wait(run.result.trace, run.index, lesson.focus);
  std::cout << "(" << lesson.kernel_file().string() << ", kernel " << preset.launch.kernel
            << ", preset " << preset.name << "; " << count_of(run.narrative.size(), "warp-level step")
            << " of block " << lesson.focus.block << " warp " << lesson.focus.warp << ", "
            << run.result.steps << " in all, traced by the simulator"
            << (wait ? std::string("; then the warp deadlocks: ") + kWaitTitle : std::string())
            << ")\n";
  print_legend(std::cout);
  std::cout << "\n";

  int right = 0, asked = 0;
  std::size_t i = 0;
  const std::size_t stops = run.narrative.size() + (wait ? 1 : 0);
  while (i < stops) {
    if (i == run.narrative.size()) {
      // The deadlock's last word: where every lane waits, and for whom.
      print_step(std::cout, wait->view, style);
      for (const std::string& line : wait->lines) std::cout << "  " << line << "\n";
    } else {
      const course::NarratedStep& s = run.narrative[i];
      const bool questions = flags.predict && !s.questions.empty();
      const bool gives_away = flags.predict && course::asks_inputs_next(run.narrative, s.step);
      show_step(run, s, format, style, questions, true, gives_away);
      if (gives_away) std::cout << "  (predict: this step's note waits for the next step's question)\n";
      if (questions) {
        const auto [r, a] = ask(run, s);
        right += r;
        asked += a;
        std::cout << "\n";
        if (i > 0 && course::asks_inputs_next(run.narrative, run.narrative[i - 1].step) == &s) {
          print_note(run, run.narrative[i - 1]);  // held back at the step before
        }
        print_note(run, s);
        show_step(run, s, format, style, false, /*with_note=*/false);
      }
    }
    std::cout << "\n";
    if (!interactive) {
      ++i;
      continue;
    }
    std::cout << "[Enter] next  [b] back  [q] quit > " << std::flush;
    std::string answer;
    if (!std::getline(std::cin, answer) || answer == "q") return 0;
    i = answer == "b" ? (i > 0 ? i - 1 : 0) : i + 1;
  }
  if (run.result.status != runner::RunStatus::completed) {
    std::cout << "The run stopped: " << runner::to_string(run.result.status) << ". "
              << run.result.message << "\n\n";
  }
  print_paragraphs(course::outro_of(lesson, preset));
  for (const std::size_t arg : lesson.check) {
    for (const runner::OutputBuffer& b : run.result.buffers) {
      if (b.arg != arg) continue;
      std::cout << "arg " << arg << " after the kernel: " << buffer_text(b) << "\n";
    }
  }
  if (!run.result.trace.diagnostics.empty()) {
    std::cout << "\ndiagnostics:\n";
    print_diagnostics(std::cout, run.result.trace, style);
  }
  if (flags.predict) {
    std::cout << "\npredictions: " << right << " of " << asked << " right\n";
  }
  return 0;
}

// The presets a --verify or --record run covers.
std::vector<const course::Preset*> presets_of(const course::Lesson& lesson, const LessonFlags& flags) {
  std::vector<const course::Preset*> out;
  for (const course::Preset& p : lesson.presets) {
    if (flags.preset.empty() || p.name == flags.preset) out.push_back(&p);
  }
  return out;
}

// The preset on the live GPU (with --gpu): sim first (for the initial buffers), then the device.
Expected<GpuRun> live_gpu_run(const course::Lesson& lesson, const course::Preset& preset) {
  course::RunSettings settings;
  settings.keep_initial_buffers = true;
  const runner::KernelFileRequest request = course::request_for(lesson.kernel_file(), preset.launch, settings);
  const runner::KernelFileResult sim = runner::run_kernel_file(request);
  if (sim.status != runner::RunStatus::completed) {
    return fail("the simulation did not complete (" + std::string(runner::to_string(sim.status)) + ")");
  }
  GpuRunFlags gpu_flags;
  gpu_flags.trace_calls = 4096;
  return run_on_gpu(request, sim, gpu_flags);
}

void print_check(const course::Lesson& lesson, const course::LessonCheck& c, json& report) {
  json entry = {{"lesson", lesson.id}, {"preset", c.preset}, {"passed", c.passed()},
                {"status", runner::to_string(c.status)}};
  std::cout << (c.passed() ? "ok    " : "FAIL  ") << lesson.id << " (" << c.preset << ")";
  std::cout << ": " << runner::to_string(c.status);
  if (!c.reference.empty() && c.reference_problem.empty()) {
    const bool matches = std::all_of(c.reference.begin(), c.reference.end(),
                                     [](const BufferComparison& b) { return b.matches(); });
    std::cout << (matches ? ", reference matches" : ", differs from the reference as the lesson intends");
  }
  if (c.gpu) {
    std::cout << ", GPU " << (c.gpu->identical() ? "identical" : c.gpu->matches() ? "matches within tolerance" : "DIFFERS");
    if (c.gpu->steps) std::cout << " (" << c.gpu->steps->calls << " calls of " << c.gpu->steps->lanes << " lanes)";
    entry["gpu"] = gpu_comparison_json(*c.gpu);
  } else {
    std::cout << "; " << c.gpu_note;
    entry["gpu_note"] = c.gpu_note;
  }
  std::cout << "\n";
  json problems = json::array();
  const auto problem = [&](const std::string& text) {
    std::cout << "        " << text << "\n";
    problems.push_back(text);
  };
  if (!c.message.empty()) problem(c.message);
  if (!c.reference_problem.empty()) problem(c.reference_problem);
  for (const std::string& p : c.diagnostic_problems) problem(p);
  for (const std::string& p : c.text_problems) problem(p);
  if (c.gpu && !c.gpu->matches()) {
    std::istringstream lines(format_gpu_comparison_text(*c.gpu));
    for (std::string line; std::getline(lines, line);) {
      if (line.find("identical") == std::string::npos) problem(line.substr(line.find_first_not_of(' ')));
    }
  }
  entry["problems"] = std::move(problems);
  report.push_back(std::move(entry));
}

int verify(const course::Lesson& lesson, const LessonFlags& flags, json& report) {
  bool all_passed = true;
  for (const course::Preset* preset : presets_of(lesson, flags)) {
    std::optional<GpuRun> gpu;
    std::string gpu_error;
    if (!preset->gpu_skip) {
      auto got = flags.gpu ? live_gpu_run(lesson, *preset) : course::load_gpu_record(lesson, *preset);
      if (got) {
        gpu = std::move(*got);
      } else {
        gpu_error = got.error().message;
        if (flags.gpu) all_passed = false;  // asked for a live comparison and got none
      }
    }
    course::LessonCheck check = course::verify_lesson(lesson, *preset, gpu ? &*gpu : nullptr);
    if (!gpu_error.empty() && !check.gpu) check.gpu_note = gpu_error;
    print_check(lesson, check, report);
    all_passed = all_passed && check.passed();
  }
  return all_passed ? 0 : 1;
}

int record(const course::Lesson& lesson, const LessonFlags& flags) {
  int status = 0;
  for (const course::Preset* preset : presets_of(lesson, flags)) {
    if (preset->gpu_skip) {
      std::cout << lesson.id << " (" << preset->name << "): not recorded: " << *preset->gpu_skip << "\n";
      continue;
    }
    auto run = live_gpu_run(lesson, *preset);
    if (!run) {
      std::cerr << "warpsim lesson: " << lesson.id << " (" << preset->name << "): " << to_string(run.error()) << "\n";
      status = run.error().kind == ErrorKind::no_device ? kExitNoGpu : 1;
      continue;
    }
    if (auto saved = course::save_gpu_record(lesson, *preset, *run); !saved) {
      std::cerr << "warpsim lesson: " << saved.error().message << "\n";
      status = 1;
      continue;
    }
    std::cout << "recorded " << course::gpu_record_path(lesson, *preset).string() << " on "
              << device_text(run->device) << "\n";
  }
  return status;
}

int lesson_command(const LessonFlags& flags) {
  if (flags.record && !flags.gpu) return usage_error("lesson", "--record needs --gpu (it records the GPU's run)");
  if (flags.gpu && !flags.verify && !flags.record) return usage_error("lesson", "--gpu goes with --verify or --record");
  if (!value_format_from_string(flags.format)) {
    return usage_error("lesson", "--format is natural, decimal, hex or binary");
  }
  auto lesson = find(flags.id);
  if (!lesson) return usage_error("lesson", lesson.error().message);
  if (!flags.preset.empty() && lesson->preset(flags.preset) == nullptr) {
    std::string names;
    for (const course::Preset& p : lesson->presets) names += (names.empty() ? "" : ", ") + p.name;
    return usage_error("lesson", "no preset '" + flags.preset + "' in " + lesson->id + "; presets: " + names);
  }
  if (flags.gpu) {
    if (Expected<void> device = probe_gpu(); !device) {
      std::fprintf(stderr, "warpsim lesson: --gpu: %s\n", device.error().message.c_str());
      return kExitNoGpu;
    }
  }
  if (flags.record) return record(*lesson, flags);
  if (flags.verify) {
    json report = json::array();
    const int status = verify(*lesson, flags, report);
    if (flags.json) std::cout << report.dump() << "\n";
    return status;
  }
  const course::Preset& preset = *lesson->preset(flags.preset.empty() ? "default" : flags.preset);
  return walk(*lesson, preset, flags);
}

int lessons_command(bool as_json, bool verify_all, bool gpu) {
  if (gpu && !verify_all) return usage_error("lessons", "--gpu goes with --verify");
  const course::Catalogue catalogue = course::load_catalogue(course::lesson_folders());
  for (const Error& problem : catalogue.problems) std::cerr << "warpsim lessons: " << problem.message << "\n";
  if (verify_all && gpu) {
    // Before 114 presets run in the simulator only to find there is nothing to compare with.
    if (Expected<void> device = probe_gpu(); !device) {
      std::fprintf(stderr, "warpsim lessons: --gpu: %s\n", device.error().message.c_str());
      return kExitNoGpu;
    }
  }
  if (verify_all) {
    json report = json::array();
    int status = catalogue.problems.empty() ? 0 : 1;
    LessonFlags flags;
    flags.gpu = gpu;
    for (const course::Lesson& lesson : catalogue.lessons) {
      status = std::max(status, verify(lesson, flags, report));
    }
    if (as_json) std::cout << report.dump() << "\n";
    return status;
  }
  json list = json::array();
  for (const course::Lesson& lesson : catalogue.lessons) {
    const bool recorded = fs::exists(course::gpu_record_path(lesson, lesson.presets.front()));
    json presets = json::array();
    for (const course::Preset& p : lesson.presets) presets.push_back(p.name);
    list.push_back({{"id", lesson.id},
                    {"title", lesson.title},
                    {"summary", lesson.summary},
                    {"ops", lesson.ops},
                    {"presets", presets},
                    {"gpu_recorded", recorded},
                    {"gpu_skip", lesson.presets.front().gpu_skip ? json(*lesson.presets.front().gpu_skip) : json()}});
    if (!as_json) {
      std::cout << lesson.id << "  " << lesson.title << (recorded ? "  [H100 run]" : lesson.presets.front().gpu_skip ? "  [not for a GPU]" : "")
                << "\n    " << lesson.summary << "\n    uses:";
      for (const std::string& op : lesson.ops) std::cout << " " << op;
      std::cout << "\n    presets:";
      for (const course::Preset& p : lesson.presets) std::cout << " " << p.name;
      std::cout << "\n";
    }
  }
  if (as_json) std::cout << list.dump() << "\n";
  return catalogue.problems.empty() ? 0 : 1;
}

void add_walk_flags(CLI::App* sub, LessonFlags& f) {
  sub->add_option("--preset", f.preset, "other inputs the lesson offers (warpsim lessons lists them)");
  sub->add_flag("--all", f.all, "print every step at once instead of stepping");
  sub->add_flag("--predict", f.predict, "hide each asked value and ask for it first; score the answers");
  sub->add_option("--format", f.format, "values as natural (default), decimal, hex or binary");
  sub->add_option("--policy", f.policy, "convergence: maximal (default) or interleaved")
      ->check(CLI::IsMember({"maximal", "interleaved"}));
  sub->add_option("--seed", f.seed, "order of the interleaved policy");
}

}  // namespace

CommandRun add_lesson_commands(CLI::App& app) {
  auto f = std::make_shared<LessonFlags>();
  CLI::App* sub = app.add_subcommand("lesson", "step through a lesson in the terminal, or verify it");
  sub->add_option("id", f->id, "the lesson: 04-butterfly-reduction, butterfly-reduction or 4")->required();
  add_walk_flags(sub, *f);
  add_lessons_option(*sub);
  sub->add_flag("--verify", f->verify,
                "check the simulator against the reference and the recorded H100 run (every preset, "
                "or --preset); exit 1 on any difference");
  sub->add_flag("--gpu", f->gpu, "with --verify: compare with this machine's GPU instead of the recording");
  sub->add_flag("--record", f->record, "with --gpu: record the GPU's run into the lesson's gpu/ folder");
  sub->add_flag("--json", f->json, "with --verify: the checks as JSON");
  return [f] { return lesson_command(*f); };
}

CommandRun add_lessons_command(CLI::App& app) {
  auto as_json = std::make_shared<bool>(false);
  auto verify_all = std::make_shared<bool>(false);
  auto gpu = std::make_shared<bool>(false);
  CLI::App* sub =
      app.add_subcommand("lessons", "list the lessons (id, title, what they use, presets, GPU recording)");
  sub->add_flag("--json", *as_json, "as JSON");
  sub->add_flag("--verify", *verify_all, "verify every lesson and preset (as warpsim lesson ID --verify)");
  sub->add_flag("--gpu", *gpu, "with --verify: against this machine's GPU");
  add_lessons_option(*sub);
  return [as_json, verify_all, gpu] { return lessons_command(*as_json, *verify_all, *gpu); };
}

CommandRun add_walkthrough_command(CLI::App& app) {
  auto f = std::make_shared<LessonFlags>();
  CLI::App* sub = app.add_subcommand(
      "walkthrough", "step through a lesson in the terminal (default: the butterfly reduction)");
  sub->add_option("lesson", f->id, "a lesson id or folder");
  add_walk_flags(sub, *f);
  add_lessons_option(*sub);
  return [f] {
    LessonFlags flags = *f;
    if (flags.id.empty()) flags.id = std::string(course::kDefaultLesson);
    return lesson_command(flags);
  };
}

int open_default() {
  if (display_available() && !gui_executable().empty()) return exec_gui({});
  LessonFlags flags;
  flags.id = std::string(course::kDefaultLesson);
  return lesson_command(flags);
}

}  // namespace warpsim::cli
