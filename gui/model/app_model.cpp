// The model's writers: init, apply (every command the views send), tick, and the worker's
// results (finish_run, finish_grading). What the views read at the current step is derived in
// current_step.cpp.
#include "model/app_model.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "model/svg.hpp"
#include "warpsim/compared_buffers.hpp"
#include "warpsim/text_lines.hpp"

namespace warpsim::gui {
namespace {

namespace fs = std::filesystem;

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;


void say(Model& m, std::string text, bool error = false) {
  m.notice = std::move(text);
  m.notice_is_error = error;
}

void move_to(Model& m, ViewState& v, std::size_t step, double now) {
  if (!has_steps(m)) return;
  step = std::min(step, m.run->index.step_count() - 1);
  if (step != v.step || v.at_wait) {
    v.step = step;
    v.at_wait = false;
    v.moved_at = now;
    v.guesses = {};
    v.predict_feedback.clear();
  }
  v.warp = m.run->index.info(step).warp;
}

// Whether the cursor may step past `v.step` onto where the warp's lanes wait: it is the last
// step of a warp that a deadlock stopped (one warp at a time, not in all-warps order).
bool wait_follows(const Model& m, const ViewState& v) {
  if (!has_steps(m) || v.all_warps || v.step == kNoStep) return false;
  const WarpKey warp = m.run->index.info(v.step).warp;
  const auto steps = m.run->index.steps_of(warp);
  if (steps.empty() || steps.back() != v.step) return false;
  const auto warps = m.run->index.warps();
  return std::any_of(warps.begin(), warps.end(),
                     [&](const WarpSummary& w) { return w.warp == warp && w.deadlocked; });
}

void move_to_wait(Model& m, ViewState& v, double now) {
  if (!wait_follows(m, v) || v.at_wait) return;
  v.at_wait = true;
  v.moved_at = now;
  v.guesses = {};
  v.predict_feedback.clear();
}

Scope scope_of(const Model& m, const ViewState& v) {
  return Scope(m.run->index, v.warp, v.all_warps);
}

// The launch the inputs panel describes, or why it is not one. A lesson keeps its kernel file
// and kernel; its preset's inputs are replaced by the edited ones.
Expected<RunRequest> edited_request(const Model& m, const ViewState& v) {
  if (!m.run) return fail("nothing has run yet");
  RunRequest r = m.run->request;
  if (r.exercise_case) {
    return fail(
        "a grading case runs the exercise's own inputs: grade again, or open the file "
        "with warpsim gui FILE.cu --kernel ... to try other inputs");
  }
  const LaunchTexts& t = v.launch;
  if (!r.lesson) {
    if (t.file.empty()) return fail("give a kernel file");
    if (t.kernel.empty()) return fail("give the kernel's name");
    r.file.file = t.file;
    r.file.kernel = t.kernel;
  }
  const auto grid = runner::parse_dim3(t.grid);
  if (!grid) return fail("grid: " + grid.error().message);
  const auto block = runner::parse_dim3(t.block);
  if (!block) return fail("block: " + block.error().message);
  r.file.grid = *grid;
  r.file.block = *block;
  r.file.args.clear();
  for (std::size_t i = 0; i < t.args.size(); ++i) {
    const auto spec = runner::parse_arg_spec(t.args[i]);
    if (!spec) return fail("argument " + std::to_string(i) + ": " + spec.error().message);
    r.file.args.push_back(*spec);
  }
  if (const auto shape = check_launch_shape(r.file.grid, r.file.block); !shape) return shape.error();
  if (r.lesson) {
    course::Preset edited = *r.preset;
    edited.launch.grid = r.file.grid;
    edited.launch.block = r.file.block;
    edited.launch.args = r.file.args;
    edited.launch.arg_texts = t.args;
    const course::Preset* own = r.lesson->preset(edited.name);
    r.edited = own == nullptr || own->launch.arg_texts != t.args || !(own->launch.grid == r.file.grid) ||
               !(own->launch.block == r.file.block);
    r.preset = std::make_shared<const course::Preset>(std::move(edited));
  }
  return r;
}

// The request that runs `preset` of `lesson`.
RunRequest lesson_request(std::shared_ptr<const course::Lesson> lesson, const course::Preset& preset,
                          const runner::KernelFileRequest& settings) {
  RunRequest r;
  course::RunSettings run_settings;
  run_settings.policy = settings.policy;
  run_settings.seed = settings.seed;
  run_settings.timeout_seconds = settings.timeout_seconds;
  run_settings.keep_initial_buffers = settings.keep_initial_buffers;
  r.file = course::request_for(lesson->kernel_file(), preset.launch, run_settings);
  r.preset = std::make_shared<const course::Preset>(preset);
  r.lesson = std::move(lesson);
  return r;
}

LaunchTexts texts_of(const RunRequest& r) {
  const auto dim = [](Dim3 d) {
    std::string s = std::to_string(d.x);
    if (d.y != 1 || d.z != 1) s += "," + std::to_string(d.y) + "," + std::to_string(d.z);
    return s;
  };
  LaunchTexts t{r.file.file, r.file.kernel, dim(r.file.grid), dim(r.file.block), {}};
  if (r.preset) t.args = r.preset->launch.arg_texts;
  return t;
}

// A lesson by id in the catalogue, or a lesson folder.
Expected<std::shared_ptr<const course::Lesson>> find(const Model& m, const std::string& id) {
  if (m.catalogue) {
    if (const course::Lesson* l = course::find_lesson(*m.catalogue, id)) {
      return std::shared_ptr<const course::Lesson>(m.catalogue, l);
    }
  }
  std::error_code error;
  if (fs::is_directory(id, error)) {
    auto lesson = course::load_lesson(id);
    if (!lesson) return lesson.error();
    return std::make_shared<const course::Lesson>(std::move(*lesson));
  }
  return fail("no lesson '" + id + "' (warpsim lessons lists them)");
}

void want_run(Model& m, RunRequest request) { m.wanted = std::move(request); }

void check_guesses(Model& m, ViewState& v) {
  if (!m.cache.view) return;
  const StepView& s = *m.cache.view;
  int right = 0, asked = 0;
  std::string wrong;
  const auto judge = [&](int lane, bool correct, const std::string& answer) {
    const std::string& guess = v.guesses[static_cast<std::size_t>(lane)];
    ++asked;
    if (correct) {
      ++right;
    } else {
      wrong += (wrong.empty() ? "" : "; ") + std::string("lane ") + std::to_string(lane) + " " +
               answer + ", not " + (guess.empty() ? "(nothing)" : guess);
    }
  };
  const std::vector<const course::Question*> questions = current_questions(m, v);
  if (!questions.empty()) {
    // The lesson's own questions: every lane they ask about counts, answered or not.
    for (const course::Question* q : questions) {
      const auto answers = course::answers(*m.run, *q);
      if (!answers) {
        v.predict_feedback = answers.error().message;
        return;
      }
      const std::string verb = q->value == course::AskedValue::input    ? "passed in "
                               : q->value == course::AskedValue::source ? "read lane "
                                                                        : "received ";
      for (const course::Answer& a : *answers) {
        judge(a.lane, course::is_correct(a, v.guesses[static_cast<std::size_t>(a.lane)]),
              verb + a.text);
      }
    }
  } else {
    const StepRow* out = nullptr;
    for (const StepRow& r : s.rows) {
      if (r.kind == RowKind::output) out = &r;
    }
    if (out == nullptr) {
      v.predict_feedback = "This step has no result to predict.";
      return;
    }
    for (int lane = 0; lane < kWarpSize; ++lane) {
      const std::string& guess = v.guesses[static_cast<std::size_t>(lane)];
      if (guess.empty() || !has_lane(s.participants, lane)) continue;
      const std::string& answer = out->cells[static_cast<std::size_t>(lane)].text;
      judge(lane, guess_matches(guess, answer), "received " + answer);
    }
    if (asked == 0) {
      v.predict_feedback = "Type a guess for at least one lane first.";
      return;
    }
  }
  v.score.right += right;
  v.score.asked += asked;
  v.predict_feedback = std::to_string(right) + " of " + std::to_string(asked) + " right" +
                       (wrong.empty() ? "." : ": " + wrong + ".");
  v.revealed.insert(std::upper_bound(v.revealed.begin(), v.revealed.end(), v.step), v.step);
}

std::string export_path(const ViewState& v, const std::string& name) {
  return (fs::path(v.export_dir.empty() ? "." : v.export_dir) / name).string();
}

void write_file(Model& m, const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) {
    say(m, "could not write " + path, true);
  } else {
    say(m, "wrote " + path);
  }
}

}  // namespace

Expected<void> init(Model& model, ViewState& view, const GuiOptions& options,
                    std::shared_ptr<const course::Catalogue> catalogue,
                    std::shared_ptr<const course::ExerciseCatalogue> exercises) {
  model.catalogue = std::move(catalogue);
  model.exercises = std::move(exercises);
  view.all_warps = options.all_warps;
  view.format = options.format;
  view.watched_lane = options.watch;
  view.predict = options.predict;
  view.history = options.history;
  if (options.font_size > 0) view.font_size = options.font_size;
  if (options.warp) view.warp = *options.warp;
  if (options.step) view.start_position = *options.step - 1;
  view.show_help = options.show_help;
  if (const std::optional<Tab> tab = tab_named(options.tab)) view.tab = *tab;
  if (options.predict && options.tab.empty()) view.tab = Tab::predict;
  if (!options.exercise.empty()) {
    if (!model.exercises) {
      model.exercises = std::make_shared<const course::ExerciseCatalogue>(
          course::load_exercises(course::lesson_folders(options.lesson_dirs)));
    }
    auto opened = open_exercise(*model.exercises, options.exercise, options.exercise_file);
    if (!opened) return opened.error();
    model.exercise = std::move(*opened);
    if (options.tab.empty()) view.tab = Tab::exercise;
    if (options.grade) apply(model, view, {Grade{}}, 0);
    return {};
  }
  RunRequest request;
  if (!options.lesson.empty()) {
    auto lesson = find(model, options.lesson);
    if (!lesson) return lesson.error();
    const std::string preset_name = options.preset.empty() ? "default" : options.preset;
    const course::Preset* preset = (*lesson)->preset(preset_name);
    if (preset == nullptr) {
      std::string names;
      for (const course::Preset& p : (*lesson)->presets) names += (names.empty() ? "" : ", ") + p.name;
      return fail("lesson " + (*lesson)->id + " has no preset '" + preset_name + "' (it has " + names + ")");
    }
    request = lesson_request(*lesson, *preset, options.request);
    view.preset = preset->name;
    if (!options.warp) view.warp = (*lesson)->focus;
  } else {
    request.file = options.request;
  }
  request.gpu_record = options.gpu_record;
  request.live_gpu = options.live_gpu;
  // A GPU run starts from the bytes the simulator's buffers started with.
  request.file.keep_initial_buffers = options.live_gpu;
  view.launch = texts_of(request);
  if (!request.lesson) view.launch.args = options.arg_texts;
  view.launch_ran = view.launch;
  want_run(model, std::move(request));
  return {};
}

namespace {

void finish_run(Model& m, ViewState& v, LoadedRun run, double now) {
  const bool same_launch = m.run && m.run->request.file.file == run.request.file.file &&
                           m.run->request.file.kernel == run.request.file.kernel &&
                           m.run->request.lesson == run.request.lesson &&
                           m.run->request.exercise_case == run.request.exercise_case;
  if (m.running && m.running->generation == run.generation) m.running.reset();
  m.run = std::move(run);
  const TraceIndex& index = m.run->index;
  if (m.run->result.status == runner::RunStatus::bad_input) {
    say(m, "could not run: see the source panel", true);
  } else if (!m.notice_is_error || same_launch) {
    say(m, "ran in " + std::to_string(static_cast<int>(std::lround(m.run->seconds * 1000))) + " ms");
  }
  v.revealed.clear();
  if (index.step_count() == 0) {
    v.step = kNoStep;
    return;
  }
  if (v.start_position) {
    // --step N of --warp B:W (or of the first warp).
    const auto warps = index.warps();
    const bool known = std::any_of(warps.begin(), warps.end(), [&](const WarpSummary& w) {
      return w.warp == v.warp && w.steps > 0;
    });
    if (!known) v.warp = first_warp(index).value_or(WarpKey{});
    const Scope scope(index, v.warp, v.all_warps);
    move_to(m, v, scope.step_at(*v.start_position), now);
    if (*v.start_position == scope.size() && wait_follows(m, v)) {
      move_to_wait(m, v, now);  // the step after the last: where the lanes wait
    } else if (*v.start_position >= scope.size()) {
      // Not clamped in silence: the learner asked for a step that is not there.
      say(m,
          "--step " + std::to_string(*v.start_position + 1) + ": " +
              (v.all_warps ? std::string("the trace") : "this warp") + " has " +
              std::to_string(scope.size()) + (scope.size() == 1 ? " step" : " steps") +
              "; showing the last",
          true);
    }
    v.start_position.reset();
    return;
  }
  if (same_launch && v.step != kNoStep && v.step < index.step_count()) {
    move_to(m, v, v.step, now);
    return;
  }
  // A grading case starts at the step its detail points to (its first diagnostic, or the first
  // value that differs from the reference's).
  if (m.run->detail && m.run->detail->step && m.run->detail->step->step < index.step_count()) {
    v.step = kNoStep;
    move_to(m, v, m.run->detail->step->step, now);
    return;
  }
  // A run with a memory finding (a race, an uninitialised read) starts at the last step before
  // the access it names, as the source panel opens on its lines.
  if (const auto at = finding_step(*m.run); at && *at < index.step_count()) {
    v.step = kNoStep;
    move_to(m, v, *at, now);
    return;
  }
  // A lesson starts at its focus warp; a kernel file at its first warp with steps.
  WarpKey start = first_warp(index).value_or(WarpKey{});
  if (m.run->request.lesson && !index.steps_of(m.run->request.lesson->focus).empty()) {
    start = m.run->request.lesson->focus;
  }
  const Scope scope(index, start, v.all_warps);
  v.step = kNoStep;
  move_to(m, v, scope.step_at(0), now);
}


// Case `index` of the last grading, lane by lane: the grading's own detail when that is the case
// and the file has not changed since, else a run of it on the worker.
void open_case(Model& m, ViewState& v, std::size_t index, double now) {
  ExerciseState& e = *m.exercise;
  const std::optional<CaseRef> ref = case_ref(e, index);
  if (!ref) return say(m, "no case " + std::to_string(index + 1) + " to open: grade first", true);
  e.open_case = index;
  RunRequest request;
  request.file.file = e.file;
  request.file.kernel = e.exercise->kernel;
  request.exercise_case = ref;
  const course::GradeResult& result = *e.result;
  if (result.failure && result.failure->case_index == index && !changed_since_graded(e)) {
    course::FailureDetail detail = *result.failure;
    finish_run(m, v, load_case(m.next_generation++, std::move(request), std::move(detail), 0), now);
    say(m, "case " + ref->name + ": the grading's first failure");
    return;
  }
  want_run(m, std::move(request));
}

void close_case(Model& m, ViewState& v) {
  m.run.reset();
  m.wanted.reset();
  v.step = kNoStep;
  v.playing = false;
  if (m.exercise) m.exercise->open_case.reset();
}

void finish_grading(Model& m, ViewState& v, Graded graded, double now) {
  if (!m.exercise) return;
  ExerciseState& e = *m.exercise;
  const double seconds = graded.result.seconds;
  finish_grading(e, std::move(graded));
  const course::GradeResult& r = *e.result;
  char took[32];
  std::snprintf(took, sizeof took, " (%.1f s)", seconds);
  say(m,
      "graded " + std::filesystem::path(e.file).filename().string() + ": " + score_text(e) + took,
      !r.passed());
  close_case(m, v);
  if (const auto first = first_failing_case(e)) open_case(m, v, *first, now);
}

std::optional<std::pair<std::uint64_t, RunRequest>> take_wanted_run(Model& m, double now) {
  if (!m.wanted) return std::nullopt;
  const std::uint64_t generation = m.next_generation++;
  m.running = Model::InFlight{generation, now, launch_title(*m.wanted)};
  std::pair<std::uint64_t, RunRequest> taken{generation, std::move(*m.wanted)};
  m.wanted.reset();
  return taken;
}

std::optional<GradingJob> take_wanted_grading(Model& m, double now) {
  if (!m.exercise || !m.exercise->wanted) return std::nullopt;
  m.exercise->grading = m.exercise->wanted->generation;
  m.exercise->grading_since = now;
  GradingJob job = std::move(*m.exercise->wanted);
  m.exercise->wanted.reset();
  return job;
}

void grading_progress(Model& m, std::vector<course::CaseResult> cases) {
  if (m.exercise && m.exercise->grading) m.exercise->progress = std::move(cases);
}

void tick(Model& m, ViewState& v, double now, double dt);

// The job a WorkerIdle hands over: the wanted run, else the wanted grading.
Work take_work(Model& m, double now) {
  Work work;
  work.run = take_wanted_run(m, now);
  if (!work.run) work.grading = take_wanted_grading(m, now);
  return work;
}

}  // namespace

bool settled(const Model& m) {
  const bool grading = m.exercise && (m.exercise->grading || m.exercise->wanted);
  return !m.running && !m.wanted && !grading && (m.run || m.exercise);
}

Work apply(Model& m, ViewState& v, const Commands& commands, double now) {
  Work work;
  for (const Command& command : commands) {
    std::visit(
        Overloaded{
            [&](const OpenLesson& c) {
              auto lesson = find(m, c.id);
              if (!lesson) return say(m, lesson.error().message, true);
              const course::Preset* preset =
                  (*lesson)->preset(c.preset.empty() ? "default" : c.preset);
              if (preset == nullptr) return say(m, "no preset '" + c.preset + "'", true);
              RunRequest r = lesson_request(*lesson, *preset,
                                            m.run ? m.run->request.file : runner::KernelFileRequest{});
              if (m.run) {
                r.live_gpu = m.run->request.live_gpu;
                r.file.keep_initial_buffers = r.live_gpu;
              }
              v.preset = preset->name;
              v.launch = v.launch_ran = texts_of(r);
              v.inputs_error.clear();
              v.revealed.clear();
              want_run(m, std::move(r));
            },
            [&](const GoTo& c) { move_to(m, v, c.step, now); },
            [&](const StepBy& c) {
              if (!has_steps(m)) return;
              if (v.at_wait && c.delta < 0) {  // back from the wait onto the last step
                v.at_wait = false;
                v.moved_at = now;
                if (c.delta == -1) return;
              }
              const std::size_t to = step_by(scope_of(m, v), v.step, c.delta);
              if (to == v.step && c.delta > 0) {
                move_to_wait(m, v, now);
                return;
              }
              move_to(m, v, to, now);
            },
            [&](const ToEnd& c) {
              if (!has_steps(m)) return;
              const Scope s = scope_of(m, v);
              move_to(m, v, s.step_at(c.last ? s.size() - 1 : 0), now);
              if (c.last) move_to_wait(m, v, now);
            },
            [&](const NextDiagnostic& c) {
              if (!has_steps(m)) return;
              std::span<const std::size_t> gpu;
              if (m.run->gpu) gpu = m.run->gpu->differing_steps;
              if (const auto step = next_diagnostic(m.run->index, scope_of(m, v), v.step, c.backward, gpu)) {
                move_to(m, v, *step, now);
              } else {
                say(m, c.backward ? "no diagnostic before this step" : "no diagnostic after this step");
              }
            },
            [&](const RunUntilChange&) {
              if (!has_steps(m)) return;
              if (v.watched_lane < 0) {
                say(m, "watch a lane first: click a lane (or press w)");
                return;
              }
              const auto step = m.run->index.next_change(m.run->result.trace, v.warp,
                                                         v.watched_lane, v.step);
              if (step) {
                move_to(m, v, *step, now);
                say(m, "lane " + std::to_string(v.watched_lane) + " changed here");
              } else {
                say(m, "lane " + std::to_string(v.watched_lane) +
                           "'s value does not change after this step");
              }
            },
            [&](const SetPlaying& c) {
              v.playing = c.on && has_steps(m);
              v.play_clock = 0;
            },
            [&](const SetSpeed& c) { v.speed = std::clamp(c.steps_per_second, 0.1f, 60.0f); },
            [&](const SelectWarp& c) {
              if (!has_steps(m)) return;
              const auto steps = m.run->index.steps_of(c.warp);
              if (steps.empty()) return;
              // The same position in the other warp, so warps can be compared step by step.
              const std::size_t position =
                  v.step == kNoStep ? 0 : m.run->index.info(v.step).position;
              move_to(m, v, steps[std::min(position, steps.size() - 1)], now);
            },
            [&](const SetAllWarps& c) { v.all_warps = c.on; },
            [&](const WatchLane& c) {
              v.watched_lane = c.lane >= 0 && c.lane < kWarpSize ? c.lane : -1;
            },
            [&](const SetFormat& c) { v.format = c.format; },
            [&](const SetOrientation& c) { v.orientation = c.orientation; },
            [&](const SetHistory& c) { v.history = std::clamp(c.steps, 0, 16); },
            [&](const SetFontSize& c) { v.font_size = std::clamp(c.size, 8.0f, 48.0f); },
            [&](const ShowHelp& c) { v.show_help = c.on; },
            [&](const SetTab& c) { v.tab = c.tab; },
            [&](const Reload&) {
              if (m.run) want_run(m, m.run->request);
            },
            [&](const SetLaunchText& c) {
              LaunchTexts& t = v.launch;
              switch (c.field) {
                case SetLaunchText::file:
                  t.file = c.text;
                  break;
                case SetLaunchText::kernel:
                  t.kernel = c.text;
                  break;
                case SetLaunchText::grid:
                  t.grid = c.text;
                  break;
                case SetLaunchText::block:
                  t.block = c.text;
                  break;
                case SetLaunchText::arg:
                  if (c.index >= t.args.size()) t.args.resize(c.index + 1);
                  t.args[c.index] = c.text;
                  break;
              }
            },
            [&](const Rerun&) {
              auto request = edited_request(m, v);
              if (!request) {
                v.inputs_error = request.error().message;
                return;
              }
              v.inputs_error.clear();
              v.launch_ran = v.launch;
              want_run(m, std::move(*request));
            },
            [&](const ResetInputs&) {
              v.launch = v.launch_ran;
              v.inputs_error.clear();
            },
            [&](const ExportSvg& c) {
              if (!has_steps(m)) return say(m, "nothing to export: no step", true);
              const std::string path =
                  c.path.empty() ? export_path(v, "warpsim-step-" + std::to_string(v.step + 1) + ".svg")
                                 : c.path;
              StepFigureOptions o = figure_options(m, v, 1200, FontMetrics{}, 1e9);
              o.contract = true;
              o.reveal = 1;
              if (const course::Note* note = current_note(m, v)) o.caption = {note->text};
              write_file(m, path, to_svg(build_step_figure(*m.cache.view, m.cache.history_views, o)));
            },
            [&](const ExportSvgSequence& c) {
              const auto written = export_svg_sequence(m, v, c.dir.empty() ? v.export_dir : c.dir);
              if (!written) return say(m, written.error().message, true);
              say(m, "wrote " + std::to_string(*written) + " SVG files to " +
                         (c.dir.empty() ? v.export_dir : c.dir));
            },
            [&](const ExportPng& c) {
              if (!has_steps(m)) return say(m, "nothing to export: no step", true);
              m.png_requests.push_back(
                  c.path.empty() ? export_path(v, "warpsim-step-" + std::to_string(v.step + 1) + ".png")
                                 : c.path);
            },
            [&](const PngWritten& c) {
              std::erase(m.png_requests, c.path);
              c.error.empty() ? say(m, "wrote " + c.path) : say(m, c.error, true);
            },
            [&](const SetExportDir& c) { v.export_dir = c.dir; },
            [&](const SetPredict& c) {
              v.predict = c.on;
              v.guesses = {};
              v.predict_feedback.clear();
              if (c.on) v.tab = Tab::predict;
            },
            [&](const SetGuess& c) {
              if (c.lane >= 0 && c.lane < kWarpSize)
                v.guesses[static_cast<std::size_t>(c.lane)] = c.text;
            },
            [&](const CheckGuesses&) { check_guesses(m, v); },
            [&](const SourceScrolled& c) {
              v.source_scrolled_for = c.step;
              v.source_scrolled_run = c.generation;
            },
            [&](const GoToLine& c) {
              if (!has_steps(m) || !m.run->kernel_file) return;
              // The first step of the warp at that line after the cursor, else the first at all.
              const SourceLine line{*m.run->kernel_file, c.line};
              const auto steps = m.run->index.steps_of(v.warp);
              std::optional<std::size_t> first, next;
              for (const std::size_t s : steps) {
                if (!(m.run->index.info(s).where == line)) continue;
                if (!first) first = s;
                if (s > v.step) {
                  next = s;
                  break;
                }
              }
              if (next || first) {
                move_to(m, v, next ? *next : *first, now);
              } else {
                say(m, "warp " + std::to_string(v.warp.warp) + " of block " +
                           std::to_string(v.warp.block) + " has no step at line " +
                           std::to_string(c.line));
              }
            },
            [&](const FigurePlaced& c) {
              m.figure_origin = c.origin;
              m.figure_visible = c.visible;
            },
            [&](const Quit&) { m.quit = true; },
            [&](const OpenExercise& c) {
              if (!m.exercises) return say(m, "no exercises loaded", true);
              auto opened = open_exercise(*m.exercises, c.id, c.file);
              if (!opened) return say(m, opened.error().message, true);
              close_case(m, v);
              m.exercise = std::move(*opened);
              v.tab = Tab::exercise;
              say(m, "opened exercise " + m.exercise->exercise->id + ": press Grade (G) to grade " +
                         fs::path(m.exercise->file).filename().string());
            },
            [&](const Grade&) {
              if (!m.exercise) return say(m, "open an exercise first (the Exercise tab)", true);
              ExerciseState& e = *m.exercise;
              if (e.grading || e.wanted) return say(m, "already grading");
              reread_file(e, now);
              e.wanted = grading_job(e, m.next_generation++);
              e.progress.clear();
            },
            [&](const ShowHint&) {
              if (!m.exercise) return;
              ExerciseState& e = *m.exercise;
              if (e.exercise->hints.empty()) return say(m, e.exercise->id + " has no hints");
              if (e.hints >= e.exercise->hints.size()) return say(m, "that is every hint");
              ++e.hints;
            },
            [&](const OpenCase& c) {
              if (!m.exercise) return;
              open_case(m, v, c.index, now);
            },
            [&](const CloseCase&) { close_case(m, v); },
            [&](const UseOwnCopy&) {
              if (!m.exercise) return;
              const auto done = use_own_copy(*m.exercise, v.export_dir);
              if (!done) return say(m, done.error().message, true);
              close_case(m, v);
              say(m, *done);
            },
            [&](const Tick& c) { tick(m, v, now, c.dt); },
            [&](const WorkerIdle&) {
              if (!work.run && !work.grading) work = take_work(m, now);
            },
            [&](const RunDone& c) {
              if (c.run) finish_run(m, v, std::move(*c.run), now);
            },
            [&](const GradingDone& c) {
              if (c.graded) finish_grading(m, v, std::move(*c.graded), now);
            },
            [&](const GradingProgress& c) { grading_progress(m, c.cases); },
        },
        command);
  }
  return work;
}

namespace {

void tick(Model& m, ViewState& v, double now, double dt) {
  if (v.playing && has_steps(m)) {
    v.play_clock += dt;
    const double period = 1.0 / std::max(0.1f, v.speed);
    if (v.play_clock >= period) {
      v.play_clock = std::fmod(v.play_clock, period);
      const Scope s = scope_of(m, v);
      const std::size_t next = step_by(s, v.step, 1);
      if (next == v.step) {
        // The end; a deadlocked warp's lanes wait after its last step: play stops there.
        move_to_wait(m, v, now);
        v.playing = false;
      } else {
        move_to(m, v, next, now);
      }
    }
  }
  if (m.exercise && now - m.exercise_poll >= 0.5) {
    m.exercise_poll = now;
    if (reread_file(*m.exercise, now) && !m.run) {
      say(m, fs::path(m.exercise->file).filename().string() +
                 " changed: press Grade (G) to grade it again");
    }
  }
  if (m.watch_file && m.run && !m.running && !m.wanted && now - m.last_poll >= 0.5) {
    m.last_poll = now;
    if (stamp_of(m.run->request.file.file) != m.run->stamp) {
      say(m, "the file changed: running it again");
      want_run(m, m.run->request);
    }
  }
}

}  // namespace
}  // namespace warpsim::gui
