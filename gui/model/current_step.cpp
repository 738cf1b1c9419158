// What the model shows at the current step, derived from the run and the view state and never
// written by a view: the step cache (refresh), the figure's options, what predict mode hides,
// the lesson's note and questions there, a launch's title, and the SVG export of a scope.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "model/app_model.hpp"
#include "model/svg.hpp"
#include "warpsim/step_narration.hpp"

namespace warpsim::gui {
namespace {

namespace fs = std::filesystem;

bool step_revealed(const ViewState& v, std::size_t step) {
  return std::binary_search(v.revealed.begin(), v.revealed.end(), step);
}

// Predict mode: the next step asks what lanes pass in, and is not answered yet: this step's
// after row and note would give the answer away.
bool gives_away_next(const Model& m, const ViewState& v) {
  if (!v.predict || !m.run || m.run->lesson == nullptr || v.at_wait) return false;
  const course::NarratedStep* next = course::asks_inputs_next(m.run->narrative, v.step);
  return next != nullptr && !step_revealed(v, next->step);
}

}  // namespace

bool has_steps(const Model& m) { return m.run && m.run->index.step_count() > 0; }

bool outputs_hidden(const Model& m, const ViewState& v) {
  return v.predict && has_steps(m) && !v.at_wait && !step_revealed(v, v.step);
}

LaneMask hidden_inputs(const Model& m, const ViewState& v) {
  if (!outputs_hidden(m, v) || !m.cache.view) return 0;
  for (const StepRow& r : m.cache.view->rows) {
    if (r.kind == RowKind::input) return course::hidden_lanes(r, current_questions(m, v));
  }
  return 0;
}

bool ending_hidden(const Model& m, const ViewState& v) {
  if (!v.predict || !has_steps(m)) return false;
  const std::span<const std::size_t> steps = m.run->index.steps_of(m.run->index.info(v.step).warp);
  return !steps.empty() && !step_revealed(v, steps.back());
}

void refresh(Model& m, const ViewState& v) {
  if (!has_steps(m) || v.step == kNoStep) {
    m.cache = {};
    m.scope = {};
    m.timeline = {};
    if (m.run) {
      for (const WarpSummary& w : m.run->index.warps()) {
        if (!w.deadlocked) continue;
        m.cache.wait = describe_wait(m.run->result.trace, m.run->index, w.warp);
        break;
      }
    }
    return;
  }
  const LoadedRun& run = *m.run;
  const std::uint64_t gen = run.generation;
  if (m.scope_generation != gen || m.scope.warp() != v.warp || m.scope.all_warps() != v.all_warps) {
    m.scope = Scope(run.index, v.warp, v.all_warps);
    m.timeline = make_timeline(run.index, m.scope,
                               run.gpu ? std::span<const std::size_t>(run.gpu->differing_steps)
                                       : std::span<const std::size_t>());
    m.scope_generation = gen;
  }
  StepCache& c = m.cache;
  if (c.generation == gen && c.step == v.step && c.format == v.format && c.history == v.history &&
      c.at_wait == v.at_wait) {
    if (c.watched_lane != v.watched_lane && !c.view->waits) {
      c.watched_lane = v.watched_lane;
      c.narrative = narrate_step(*c.view, v.watched_lane);
    }
    return;
  }
  c = {};
  c.generation = gen;
  c.step = v.step;
  c.at_wait = v.at_wait;
  c.format = v.format;
  c.history = v.history;
  StepViewOptions options{.format = v.format, .after = true};
  std::array<std::optional<std::uint64_t>, kWarpSize> expected{};
  if (run.gpu) {
    options.other = run.gpu->steps.at(v.step);
    options.other_label = short_device_name(run.gpu->device);
  } else if (run.detail) {
    // A grading case: what the reference solution's lanes received at the same call.
    expected =
        course::expected_outputs(run.result.trace, run.index, v.step, run.detail->reference.trace);
    if (std::any_of(expected.begin(), expected.end(),
                    [](const auto& x) { return x.has_value(); })) {
      options.other = &expected;
      options.other_label = "expected";
    }
  }
  c.view = describe_step(run.result.trace, run.index, v.step, options);
  options.other = nullptr;
  for (const std::size_t h : history_of(run.index, v.step, static_cast<std::size_t>(v.history))) {
    c.history_views.push_back(describe_step(run.result.trace, run.index, h, options));
  }
  c.diagnostic_lines = diagnostic_lines(run.result.trace, *c.view);
  // At its warp's last step, what stopped the warp for good (a deadlock, a crash) is part of
  // what the learner must see: those diagnostics belong to no step.
  if (c.view->position + 1 == c.view->warp_steps) {
    std::vector<std::string> stopped;
    for (const std::size_t d : run.index.unplaced_diagnostics()) {
      const Diagnostic& diag = run.result.trace.diagnostics[d];
      if (diag.block != c.view->warp.block || diag.warp != c.view->warp.warp) continue;
      stopped.push_back(std::string(to_string(diag.kind)) + " after this step (lanes " +
                        format_lanes(diag.lanes) + "): " + readable(run.result.trace, diag.message));
    }
    c.wait = describe_wait(run.result.trace, run.index, c.view->warp);
    if (c.wait && v.at_wait) {
      // Past the last step: the wait is drawn, the last step joins the bands above it.
      c.history_views.push_back(std::move(*c.view));
      if (c.history_views.size() > static_cast<std::size_t>(v.history)) {
        c.history_views.erase(c.history_views.begin());
      }
      c.view = c.wait->view;
      // The wait says what the deadlock diagnostics say, lane by lane: those stay on the step.
      c.diagnostic_lines = c.wait->lines;
      c.watched_lane = v.watched_lane;
      return;
    }
    c.diagnostic_lines.insert(c.diagnostic_lines.end(), stopped.begin(), stopped.end());
    if (c.wait) {
      c.diagnostic_lines.push_back("then the warp deadlocks: step on (Right) to see " +
                                   std::string(kWaitTitle));
    }
  }
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
  o.hidden_inputs = hidden_inputs(m, v);
  o.hide_after = gives_away_next(m, v);
  o.guesses = v.guesses;
  // Arrows grow over a quarter of a second after each move (or over most of a played step).
  const double grow = std::min(0.25, 0.6 / std::max(0.1f, v.speed));
  o.reveal = v.animate ? static_cast<float>(std::clamp((now - v.moved_at) / grow, 0.0, 1.0)) : 1.0f;
  o.diagnostics = m.cache.diagnostic_lines;
  if (o.hide_outputs && !o.diagnostics.empty()) {
    // A diagnostic names lanes and what they read: part of the answer.
    o.diagnostics = {"A diagnostic at this step: it shows once your guesses are checked."};
  }
  if (m.run && m.run->gpu) o.other_note = provenance(m.run->gpu->device);
  if (m.run && m.run->detail) {
    o.other_is_expected = true;
  }
  o.contract = false;  // on screen the narrative panel says it; exports set it back
  return o;
}

std::string launch_title(const RunRequest& request) {
  if (request.exercise_case) return case_title(*request.exercise_case);
  if (request.lesson) {
    std::string s = request.lesson->title;
    if (request.preset && request.preset->name != "default") s += " · " + request.preset->name;
    if (request.edited) s += " (inputs edited)";
    return s;
  }
  const runner::KernelFileRequest& r = request.file;
  const std::string file = fs::path(r.file).filename().string();
  const auto dim = [](Dim3 d) {
    std::string s = std::to_string(d.x);
    if (d.y != 1 || d.z != 1) s += "," + std::to_string(d.y) + "," + std::to_string(d.z);
    return s;
  };
  return file + " · " + r.kernel + " · grid " + dim(r.grid) + " · block " + dim(r.block);
}

namespace {

const course::NarratedStep* narrated(const Model& m, std::size_t step) {
  if (!m.run || m.run->lesson == nullptr) return nullptr;
  const auto& n = m.run->narrative;
  const auto it = std::lower_bound(n.begin(), n.end(), step, [](const course::NarratedStep& s,
                                                                 std::size_t at) { return s.step < at; });
  return it != n.end() && it->step == step ? &*it : nullptr;
}

}  // namespace

const course::Note* current_note(const Model& m, const ViewState& v) {
  if (v.at_wait || gives_away_next(m, v)) return nullptr;
  const course::NarratedStep* s = narrated(m, v.step);
  return s == nullptr ? nullptr : s->note;
}

std::vector<const course::Question*> current_questions(const Model& m, const ViewState& v) {
  if (v.at_wait) return {};
  const course::NarratedStep* s = narrated(m, v.step);
  return s == nullptr ? std::vector<const course::Question*>{} : s->questions;
}

Expected<std::size_t> export_svg_sequence(const Model& m, const ViewState& v,
                                          const std::string& dir) {
  if (!has_steps(m)) return fail("nothing to export: the run has no steps");
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) return fail(ErrorKind::file, "could not create " + dir + ": " + error.message());
  const LoadedRun& run = *m.run;
  const Scope scope(run.index, v.warp, v.all_warps);
  const StepViewOptions options{.format = v.format, .after = true};
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
    if (const course::NarratedStep* n = narrated(m, step); n != nullptr && n->note != nullptr) {
      o.caption = {n->note->text};
    }
    char name[32];
    std::snprintf(name, sizeof name, "step-%03zu.svg", p + 1);
    std::ofstream out(fs::path(dir) / name, std::ios::binary);
    out << to_svg(build_step_figure(view, history, o));
    if (!out) return fail(ErrorKind::file, "could not write " + (fs::path(dir) / name).string());
  }
  return scope.size();
}

}  // namespace warpsim::gui
