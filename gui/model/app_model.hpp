// The app's state and the one place that changes it (Dear ImGui's own pattern, as design.md's "GUI
// shape" puts it). `main` owns a Model (what is loaded: the run, its index, derived caches) and a
// ViewState (what the learner chose: cursor, warp, format, panels, predictions). Views are
// functions `draw_x(const Model&, const ViewState&, Commands&)`: they draw and push commands,
// never change either. After the frame, apply() executes the commands; runs are asked for here
// (Model::wanted) and started by the app on its worker thread, so nothing here blocks. The clock
// and the worker come in as commands too (Tick, WorkerIdle, RunDone, GradingDone,
// GradingProgress), and apply() returns the job it hands the worker (Work): apply() is the one
// writer of the model; refresh() only rebuilds what is derived from it.
//
//   Commands commands;
//   draw_toolbar(model, view, commands);        // pushes StepBy{+1} when "next" is pressed
//   apply(model, view, commands, now);          // moves the cursor
//   refresh(model, view);                       // decodes the new step, once
//
// Plain C++: no ImGui, no GL. Tested without a window (tests/gui/app_model_test.cpp).
#pragma once

#include <array>
#include <functional>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <memory>

#include "model/compiler_messages.hpp"
#include "model/exercise_state.hpp"
#include "model/file_stamp.hpp"
#include "model/gui_options.hpp"
#include "model/loaded_run.hpp"
#include "model/navigation.hpp"
#include "model/predict.hpp"
#include "model/tabs.hpp"
#include "model/step_figure.hpp"
#include "model/timeline.hpp"
#include "warpsim/course.hpp"
#include "warpsim/device_trace.hpp"
#include "warpsim/expected.hpp"
#include "warpsim/runner.hpp"
#include "warpsim/step_view.hpp"
#include "warpsim/wait_view.hpp"
#include "warpsim/trace_index.hpp"

namespace warpsim::gui {

inline constexpr std::size_t kNoStep = static_cast<std::size_t>(-1);

// A launch as the learner writes it: `warpsim run`'s flags as text.
struct LaunchTexts {
  std::string file, kernel, grid, block;
  std::vector<std::string> args;
  friend bool operator==(const LaunchTexts&, const LaunchTexts&) = default;
};


struct ViewState {
  std::size_t step = kNoStep;  // the cursor: an index into Trace::steps
  // Past the warp's last step, where a deadlock stopped it: where every lane waits (`step` stays
  // the last step; Left comes back to it).
  bool at_wait = false;
  WarpKey warp;                // the warp shown (the cursor's)
  bool all_warps = false;      // step through every warp in trace order
  ValueFormat format = ValueFormat::natural;
  Orientation orientation = Orientation::automatic;
  int watched_lane = -1;
  int history = 4;

  bool playing = false;
  float speed = 1.5f;       // steps per second while playing
  double play_clock = 0;    // seconds since the last played step
  double moved_at = -1e9;   // when the cursor last moved (arrows grow from there)
  bool animate = true;      // off for screenshots: arrows are drawn whole at once

  float font_size = 15;     // before the display's scale
  float content_scale = 1;  // the display's (HiDPI)
  bool show_help = false;
  Tab tab = Tab::warps;

  std::string preset;  // the lesson's preset shown ("default" first)

  // Predict mode: outputs hidden until checked; guesses per lane for the current step.
  bool predict = false;
  std::array<std::string, kWarpSize> guesses{};
  std::vector<std::size_t> revealed;  // steps whose outputs were checked (sorted)
  PredictScore score;
  std::string predict_feedback;

  // The inputs panel: the launch as text, edited, and as it last ran (Reset goes back to it).
  LaunchTexts launch, launch_ran;
  std::string inputs_error;

  std::string export_dir = ".";
  std::size_t source_scrolled_for = kNoStep;  // the step the source view last scrolled to
  std::uint64_t source_scrolled_run = 0;      // ... and the run's generation then
  std::optional<std::size_t> start_position;  // --step: applied when the first run arrives
};

struct StepCache {
  std::uint64_t generation = 0;
  std::size_t step = kNoStep;
  ValueFormat format{};
  int history = 0;
  bool at_wait = false;
  std::optional<StepView> view;
  std::vector<StepView> history_views;   // the warp's earlier steps, oldest first
  std::vector<std::string> diagnostic_lines;
  int watched_lane = -1;
  std::vector<std::string> narrative;    // narrate_step for the watched lane
  // A deadlock: where every lane of the current warp waits, shown after its last step (or, when
  // no call completed, the first deadlocked warp's, in place of the steps).
  std::optional<WaitView> wait;
};

struct Model {
  std::shared_ptr<const course::Catalogue> catalogue;  // the lesson browser's lessons
  std::shared_ptr<const course::ExerciseCatalogue> exercises;  // the exercise tab's list
  std::optional<ExerciseState> exercise;  // the exercise open, if any
  std::optional<LoadedRun> run;  // the last run that came back
  std::uint64_t next_generation = 1;
  // A run apply() asked for; the app hands it to its worker and moves it to `running`.
  std::optional<RunRequest> wanted;
  struct InFlight {
    std::uint64_t generation = 0;
    double since = 0;
    std::string what;
  };
  std::optional<InFlight> running;
  bool watch_file = true;  // rerun when the kernel file changes on disk
  double last_poll = 0;
  double exercise_poll = 0;  // when the exercise's file was last looked at

  std::string notice;  // one line for the status bar (export written, input rejected, ...)
  bool notice_is_error = false;
  std::vector<std::string> png_requests;  // figures to write as PNG: they need the app's GL
  // Where the lane view painted the figure last frame, in window pixels (for --probes).
  Point figure_origin;
  Box figure_visible;

  // Derived, rebuilt by refresh() when what they depend on changes.
  StepCache cache;
  Scope scope;
  TimelineMarks timeline;
  std::uint64_t scope_generation = 0;
  bool quit = false;
};

// ---- commands
struct GoTo { std::size_t step; };
struct StepBy { long delta; };
struct ToEnd { bool last; };
struct NextDiagnostic { bool backward = false; };
struct RunUntilChange {};  // the watched lane's next change
struct SetPlaying { bool on; };
struct SetSpeed { float steps_per_second; };
struct SelectWarp { WarpKey warp; };
struct SetAllWarps { bool on; };
struct WatchLane { int lane; };  // -1: none
struct SetFormat { ValueFormat format; };
struct SetOrientation { Orientation orientation; };
struct SetHistory { int steps; };
struct SetFontSize { float size; };
struct ShowHelp { bool on; };
struct SetTab { Tab tab; };
struct Reload {};
struct OpenLesson { std::string id; std::string preset; };  // preset empty: "default"
struct SetLaunchText {  // an edit in the inputs panel
  enum Field : std::uint8_t { file, kernel, grid, block, arg } field;
  std::size_t index = 0;  // for arg
  std::string text;
};
struct Rerun {};         // run again with the inputs panel's launch
struct ResetInputs {};   // the inputs panel back to the launch that ran
struct ExportSvg { std::string path; };         // the current step's figure
struct ExportSvgSequence { std::string dir; };  // every step of the scope
struct ExportPng { std::string path; };
struct SetExportDir { std::string dir; };
struct SetPredict { bool on; };
struct SetGuess { int lane; std::string text; };
struct CheckGuesses {};
struct SourceScrolled { std::size_t step; std::uint64_t generation = 0; };
struct GoToLine { std::uint32_t line; };  // the warp's next pass over a line of the kernel file
struct FigurePlaced { Point origin; Box visible; };
struct Quit {};
struct PngWritten { std::string path; std::string error; };  // the app wrote a png_request (or not)
struct OpenExercise { std::string id; std::string file; };  // file empty: the starter
struct Grade {};          // grade the exercise's file as it is on disk now
struct ShowHint {};       // unlock the next hint
struct OpenCase { std::size_t index; };  // step through a graded case lane by lane
struct CloseCase {};      // back to the exercise's task
struct UseOwnCopy {};     // copy the starter to the export folder as <kernel>.cu and grade that
// What the app's clock and worker thread report, as commands, so that apply() stays the one
// writer of the model:
struct Tick { double dt; };  // a frame passed: playing moves on, the kernel file is polled
struct WorkerIdle {};        // the worker can start a job: apply() hands it the wanted one (Work)
// A run came back: it replaces the shown one; the cursor stays where it was when the trace still
// has that step (a reload keeps the learner's place).
struct RunDone { std::shared_ptr<LoadedRun> run; };
// A grading came back: its result, and its first failing case opened lane by lane (from the
// grading's own detail: no run more).
struct GradingDone { std::shared_ptr<Graded> graded; };
// The cases graded so far of the grading in flight (the worker's on_case, polled each frame).
struct GradingProgress { std::vector<course::CaseResult> cases; };

using Command =
    std::variant<OpenLesson, GoTo, StepBy, ToEnd, NextDiagnostic, RunUntilChange, SetPlaying, SetSpeed,
                 SelectWarp, SetAllWarps, WatchLane, SetFormat, SetOrientation, SetHistory,
                 SetFontSize, ShowHelp, SetTab, Reload, SetLaunchText, Rerun, ResetInputs,
                 ExportSvg, ExportSvgSequence, ExportPng, SetExportDir, SetPredict, SetGuess,
                 CheckGuesses, SourceScrolled, GoToLine, FigurePlaced, Quit, OpenExercise, Grade,
                 ShowHint, OpenCase, CloseCase, UseOwnCopy, PngWritten, Tick, WorkerIdle, RunDone,
                 GradingDone, GradingProgress>;
using Commands = std::vector<Command>;

// What apply() handed to the worker at a WorkerIdle (at most one job: a run before a grading).
// From then on the model holds it as `running` (or the exercise as `grading`).
struct Work {
  std::optional<std::pair<std::uint64_t, RunRequest>> run;
  std::optional<GradingJob> grading;
};

// ---- the one place that changes state
// The state for these options: the view as asked, the first run wanted. Fails for a lesson that
// is not in `catalogue` (or no lesson folder).
// An --exercise opens it (and with --grade asks for a grading) instead of a run; `exercises`
// null: read from the lessons folder when one is asked for.
Expected<void> init(Model& model, ViewState& view, const GuiOptions& options,
                    std::shared_ptr<const course::Catalogue> catalogue,
                    std::shared_ptr<const course::ExerciseCatalogue> exercises = nullptr);
Work apply(Model& model, ViewState& view, const Commands& commands, double now);
// One command; for a test: `apply(m, v, done(run_and_load(...)), now)`.
inline Commands done(LoadedRun run) {
  return {RunDone{std::make_shared<LoadedRun>(std::move(run))}};
}
inline Commands done(Graded graded) {
  return {GradingDone{std::make_shared<Graded>(std::move(graded))}};
}
// Nothing asked for, nothing in flight, and something to show (a run, or an exercise).
bool settled(const Model& model);
// Rebuilds what the views read (the current step's description, the scope, the timeline) when
// what they depend on changed; cheap when nothing did.
void refresh(Model& model, const ViewState& view);

// ---- what the views read
bool has_steps(const Model& model);
// The current step's figure as the lane view draws it: `width` and `metrics` from the backend.
StepFigureOptions figure_options(const Model& model, const ViewState& view, float width,
                                 const FontMetrics& metrics, double now);
// Whether the current step's outputs are hidden (predict mode, not yet checked).
bool outputs_hidden(const Model& model, const ViewState& view);
// The lanes whose inputs are hidden too (course::hidden_lanes): a lesson question asks what
// lanes passed in. Reads the refreshed cache.
LaneMask hidden_inputs(const Model& model, const ViewState& view);
// Whether the end of the run (the lesson's outro, the buffers after the kernel) stays hidden:
// predict mode, and the warp's last step is not yet checked.
bool ending_hidden(const Model& model, const ViewState& view);
// "kernel.cu · butterfly_sum · grid 1 · block 32", or "Lesson 4: The butterfly reduction · random"
std::string launch_title(const RunRequest& request);
// The lesson's note for the current step (its focus warp, its line and pass), or null.
const course::Note* current_note(const Model& model, const ViewState& view);
// The lesson's questions at the current step.
std::vector<const course::Question*> current_questions(const Model& model, const ViewState& view);

// Writes every step of the scope as DIR/step-NNN.svg (a lesson's notes as captions); the number
// written, or an error.
Expected<std::size_t> export_svg_sequence(const Model& model, const ViewState& view,
                                          const std::string& dir);

}  // namespace warpsim::gui
