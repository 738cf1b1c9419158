#include "model/app_model.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "model/narrate.hpp"
#include "model/svg.hpp"

namespace warpsim::gui {
namespace {

namespace fs = std::filesystem;

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

std::vector<std::string> read_lines(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

void say(Model& m, std::string text, bool error = false) {
  m.notice = std::move(text);
  m.notice_is_error = error;
}

void move_to(Model& m, ViewState& v, std::size_t step, double now) {
  if (!has_steps(m)) return;
  step = std::min(step, m.run->index.step_count() - 1);
  if (step != v.step) {
    v.step = step;
    v.moved_at = now;
    v.guesses = {};
    v.predict_feedback.clear();
  }
  v.warp = m.run->index.info(step).warp;
}

Scope scope_of(const Model& m, const ViewState& v) {
  return Scope(m.run->index, v.warp, v.all_warps);
}

// The launch the inputs panel describes, or why it is not one.
runner::Result<runner::KernelFileRequest> edited_request(const Model& m, const ViewState& v) {
  using R = runner::Result<runner::KernelFileRequest>;
  runner::KernelFileRequest r = m.run ? m.run->request : runner::KernelFileRequest{};
  const LaunchTexts& t = v.launch;
  if (t.file.empty()) return R::fail("give a kernel file");
  if (t.kernel.empty()) return R::fail("give the kernel's name");
  r.file = t.file;
  r.kernel = t.kernel;
  const auto grid = runner::parse_dim3(t.grid);
  if (!grid) return R::fail("grid: " + grid.error);
  const auto block = runner::parse_dim3(t.block);
  if (!block) return R::fail("block: " + block.error);
  r.grid = *grid;
  r.block = *block;
  r.args.clear();
  for (std::size_t i = 0; i < t.args.size(); ++i) {
    const auto spec = runner::parse_arg_spec(t.args[i]);
    if (!spec) return R::fail("argument " + std::to_string(i) + ": " + spec.error);
    r.args.push_back(*spec);
  }
  if (const std::string shape = runner::check_launch_shape(r.grid, r.block); !shape.empty()) {
    return R::fail(shape);
  }
  return R::ok(std::move(r));
}

void want_run(Model& m, runner::KernelFileRequest request) { m.wanted = std::move(request); }

bool revealed(const ViewState& v, std::size_t step) {
  return std::binary_search(v.revealed.begin(), v.revealed.end(), step);
}

void check_guesses(Model& m, ViewState& v) {
  if (!m.cache.view) return;
  const StepView& s = *m.cache.view;
  const StepRow* out = nullptr;
  for (const StepRow& r : s.rows) {
    if (r.kind == RowKind::output) out = &r;
  }
  if (out == nullptr) {
    v.predict_feedback = "This step has no result to predict.";
    return;
  }
  int right = 0, asked = 0;
  std::string wrong;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const std::string& guess = v.guesses[static_cast<std::size_t>(lane)];
    if (guess.empty() || !has_lane(s.participants, lane)) continue;
    ++asked;
    const std::string& answer = out->cells[static_cast<std::size_t>(lane)].text;
    if (guess_matches(guess, answer)) {
      ++right;
    } else {
      wrong += (wrong.empty() ? "" : "; ") + std::string("lane ") + std::to_string(lane) +
               " received " + answer + ", not " + guess;
    }
  }
  if (asked == 0) {
    v.predict_feedback = "Type a guess for at least one lane first (click a lane's output).";
    return;
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

std::vector<std::string> diagnostic_lines(const Trace& trace, const StepView& step) {
  std::vector<std::string> lines;
  for (const std::size_t d : step.diagnostics) {
    const Diagnostic& diag = trace.diagnostics[d];
    lines.push_back(std::string(to_string(diag.kind)) + " (lanes " + format_lanes(diag.lanes) +
                    "): " + diag.message);
  }
  return lines;
}

FileStamp stamp_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  return {true, static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec,
          static_cast<std::uintmax_t>(st.st_size)};
}

LoadedRun make_loaded_run(std::uint64_t generation, const runner::KernelFileRequest& request,
                          runner::KernelFileResult result, double seconds) {
  LoadedRun r;
  r.generation = generation;
  r.request = request;
  r.stamp = stamp_of(request.file);
  r.source_lines = read_lines(request.file);
  std::string text;
  for (const std::string& line : r.source_lines) text += line + "\n";
  r.kernels = runner::scan_kernels(text);
  if (result.status == runner::RunStatus::bad_input) {
    r.compiler_messages = parse_compiler_messages(result.message, request.file);
  }
  r.result = std::move(result);
  r.index = TraceIndex(r.result.trace);
  r.seconds = seconds;
  // Which of the trace's files is the kernel file (the runner names it by absolute path).
  std::error_code error;
  const fs::path wanted = fs::weakly_canonical(request.file, error);
  for (std::uint32_t f = 0; f < r.result.trace.files.size(); ++f) {
    std::error_code e;
    if (fs::weakly_canonical(r.result.trace.files[f], e) == wanted) r.kernel_file = f;
  }
  r.line_marks.assign(r.source_lines.size(), 0);
  const auto mark = [&](SourceLine where, std::uint8_t bit) {
    if (r.kernel_file && where.file == *r.kernel_file && where.line >= 1 &&
        where.line <= r.line_marks.size()) {
      r.line_marks[where.line - 1] |= bit;
    }
  };
  for (const SourceLine line : r.index.lines()) mark(line, kLineHasSteps);
  for (const Diagnostic& d : r.result.trace.diagnostics) mark(d.where, kLineHasDiagnostic);
  return r;
}

LoadedRun run_and_load(std::uint64_t generation, const runner::KernelFileRequest& request) {
  const auto start = std::chrono::steady_clock::now();
  runner::KernelFileResult result = runner::run_kernel_file(request);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return make_loaded_run(generation, request, std::move(result), seconds);
}

void init(Model& model, ViewState& view, const GuiOptions& options) {
  view.all_warps = options.all_warps;
  view.format = options.format;
  view.watched_lane = options.watch;
  view.predict = options.predict;
  view.history = options.history;
  if (options.font_size > 0) view.font_size = options.font_size;
  if (options.warp) view.warp = *options.warp;
  if (options.step) view.start_position = *options.step - 1;
  view.launch = {options.request.file, options.request.kernel, options.grid_text,
                 options.block_text, options.arg_texts};
  view.launch_ran = view.launch;
  want_run(model, options.request);
}

void finish_run(Model& m, ViewState& v, LoadedRun run, double now) {
  const bool same_launch = m.run && m.run->request.file == run.request.file &&
                           m.run->request.kernel == run.request.kernel;
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
    v.start_position.reset();
    return;
  }
  if (same_launch && v.step != kNoStep && v.step < index.step_count()) {
    move_to(m, v, v.step, now);
    return;
  }
  const Scope scope(index, first_warp(index).value_or(WarpKey{}), v.all_warps);
  v.step = kNoStep;
  move_to(m, v, scope.step_at(0), now);
}

void apply(Model& m, ViewState& v, const Commands& commands, double now) {
  for (const Command& command : commands) {
    std::visit(
        Overloaded{
            [&](const GoTo& c) { move_to(m, v, c.step, now); },
            [&](const StepBy& c) {
              if (has_steps(m)) move_to(m, v, step_by(scope_of(m, v), v.step, c.delta), now);
            },
            [&](const ToEnd& c) {
              if (!has_steps(m)) return;
              const Scope s = scope_of(m, v);
              move_to(m, v, s.step_at(c.last ? s.size() - 1 : 0), now);
            },
            [&](const NextDiagnostic& c) {
              if (!has_steps(m)) return;
              if (const auto step = next_diagnostic(m.run->index, scope_of(m, v), v.step, c.backward)) {
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
                v.inputs_error = request.error;
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
              write_file(m, path, to_svg(build_step_figure(*m.cache.view, m.cache.history_views, o)));
            },
            [&](const ExportSvgSequence& c) {
              const auto written = export_svg_sequence(m, v, c.dir.empty() ? v.export_dir : c.dir);
              if (!written) return say(m, written.error, true);
              say(m, "wrote " + std::to_string(*written) + " SVG files to " +
                         (c.dir.empty() ? v.export_dir : c.dir));
            },
            [&](const ExportPng& c) {
              if (!has_steps(m)) return say(m, "nothing to export: no step", true);
              m.png_requests.push_back(
                  c.path.empty() ? export_path(v, "warpsim-step-" + std::to_string(v.step + 1) + ".png")
                                 : c.path);
            },
            [&](const SetExportDir& c) { v.export_dir = c.dir; },
            [&](const SetPredict& c) {
              v.predict = c.on;
              v.guesses = {};
              v.predict_feedback.clear();
              if (c.on) v.tab = Tab::predict;
            },
            [&](const SetGuess& c) {
              if (c.lane >= 0 && c.lane < kWarpSize) v.guesses[static_cast<std::size_t>(c.lane)] = c.text;
            },
            [&](const CheckGuesses&) { check_guesses(m, v); },
            [&](const SourceScrolled& c) { v.source_scrolled_for = c.step; },
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
        },
        command);
  }
}

void tick(Model& m, ViewState& v, double now, double dt) {
  if (v.playing && has_steps(m)) {
    v.play_clock += dt;
    const double period = 1.0 / std::max(0.1f, v.speed);
    if (v.play_clock >= period) {
      v.play_clock = std::fmod(v.play_clock, period);
      const Scope s = scope_of(m, v);
      const std::size_t next = step_by(s, v.step, 1);
      if (next == v.step) {
        v.playing = false;  // the end
      } else {
        move_to(m, v, next, now);
      }
    }
  }
  if (m.watch_file && m.run && !m.running && !m.wanted && now - m.last_poll >= 0.5) {
    m.last_poll = now;
    if (stamp_of(m.run->request.file) != m.run->stamp) {
      say(m, "the file changed: running it again");
      want_run(m, m.run->request);
    }
  }
}

bool has_steps(const Model& m) { return m.run && m.run->index.step_count() > 0; }

bool outputs_hidden(const Model& m, const ViewState& v) {
  return v.predict && has_steps(m) && !revealed(v, v.step);
}

void refresh(Model& m, const ViewState& v) {
  if (!has_steps(m) || v.step == kNoStep) {
    m.cache = {};
    m.scope = {};
    m.timeline = {};
    return;
  }
  const LoadedRun& run = *m.run;
  const std::uint64_t gen = run.generation;
  if (m.scope_generation != gen || m.scope.warp() != v.warp || m.scope.all_warps() != v.all_warps) {
    m.scope = Scope(run.index, v.warp, v.all_warps);
    m.timeline = make_timeline(run.index, m.scope);
    m.scope_generation = gen;
  }
  StepCache& c = m.cache;
  if (c.generation == gen && c.step == v.step && c.format == v.format && c.history == v.history) {
    if (c.watched_lane != v.watched_lane) {
      c.watched_lane = v.watched_lane;
      c.narrative = narrate_step(*c.view, v.watched_lane);
    }
    return;
  }
  c = {};
  c.generation = gen;
  c.step = v.step;
  c.format = v.format;
  c.history = v.history;
  const StepViewOptions options{.format = v.format};
  c.view = describe_step(run.result.trace, run.index, v.step, options);
  for (const std::size_t h : history_of(run.index, v.step, static_cast<std::size_t>(v.history))) {
    c.history_views.push_back(describe_step(run.result.trace, run.index, h, options));
  }
  c.diagnostic_lines = diagnostic_lines(run.result.trace, *c.view);
  c.watched_lane = v.watched_lane;
  c.narrative = narrate_step(*c.view, v.watched_lane);
}

StepFigureOptions figure_options(const Model& m, const ViewState& v, float width,
                                 const FontMetrics& metrics, double now) {
  StepFigureOptions o;
  o.width = width;
  o.metrics = metrics;
  o.orientation = v.orientation;
  o.watched_lane = v.watched_lane;
  o.hide_outputs = outputs_hidden(m, v);
  o.guesses = v.guesses;
  // Arrows grow over a quarter of a second after each move (or over most of a played step).
  const double grow = std::min(0.25, 0.6 / std::max(0.1f, v.speed));
  o.reveal = v.animate ? static_cast<float>(std::clamp((now - v.moved_at) / grow, 0.0, 1.0)) : 1.0f;
  o.diagnostics = m.cache.diagnostic_lines;
  o.contract = false;  // on screen the narrative panel says it; exports set it back
  return o;
}

std::string launch_title(const runner::KernelFileRequest& r) {
  const std::string file = fs::path(r.file).filename().string();
  const auto dim = [](Dim3 d) {
    std::string s = std::to_string(d.x);
    if (d.y != 1 || d.z != 1) s += "," + std::to_string(d.y) + "," + std::to_string(d.z);
    return s;
  };
  return file + " · " + r.kernel + " · grid " + dim(r.grid) + " · block " + dim(r.block);
}

runner::Result<std::size_t> export_svg_sequence(const Model& m, const ViewState& v,
                                                const std::string& dir) {
  using R = runner::Result<std::size_t>;
  if (!has_steps(m)) return R::fail("nothing to export: the run has no steps");
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) return R::fail("could not create " + dir + ": " + error.message());
  const LoadedRun& run = *m.run;
  const Scope scope(run.index, v.warp, v.all_warps);
  const StepViewOptions options{.format = v.format};
  std::vector<StepView> history;
  for (std::size_t p = 0; p < scope.size(); ++p) {
    const std::size_t step = scope.step_at(p);
    const StepView view = describe_step(run.result.trace, run.index, step, options);
    // Earlier steps of the same warp, as on screen.
    history.clear();
    for (const std::size_t h : history_of(run.index, step, static_cast<std::size_t>(v.history))) {
      history.push_back(describe_step(run.result.trace, run.index, h, options));
    }
    StepFigureOptions o;
    o.orientation = v.orientation;
    o.watched_lane = v.watched_lane;
    o.diagnostics = diagnostic_lines(run.result.trace, view);
    char name[32];
    std::snprintf(name, sizeof name, "step-%03zu.svg", p + 1);
    std::ofstream out(fs::path(dir) / name, std::ios::binary);
    out << to_svg(build_step_figure(view, history, o));
    if (!out) return R::fail("could not write " + (fs::path(dir) / name).string());
  }
  return R::ok(scope.size());
}

}  // namespace warpsim::gui
