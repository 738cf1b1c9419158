// The app model: commands move the cursor over the trace, runs replace it, nothing draws.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "gui_kernels.cuh"
#include "launch_traces.hpp"
#include "model/app_model.hpp"

using namespace warpsim;
using namespace warpsim::gui;

namespace {

// A model holding a run of `trace` as if the worker had brought it back.
void load(Model& m, ViewState& v, Trace trace, std::uint64_t generation = 1) {
  course::LessonRun run;
  run.result.status = runner::RunStatus::completed;
  run.result.trace = std::move(trace);
  run.index = TraceIndex(run.result.trace);
  RunRequest request = m.wanted.value_or(RunRequest{});
  if (request.file.file.empty()) {
    request.file.file = "tests/gui/no-such-file.cu";
    request.file.kernel = "k";
  }
  apply(m, v, done(make_loaded_run(generation, request, std::move(run), 0.01)), 0);
  refresh(m, v);
}

std::shared_ptr<const course::Catalogue> catalogue() {
  return std::make_shared<const course::Catalogue>(
      course::load_catalogue(std::filesystem::path(WARPSIM_SOURCE_DIR) / "lessons"));
}

Trace butterflies(std::uint32_t blocks) {
  std::vector<int> in(32 * blocks), out(32 * blocks);
  std::iota(in.begin(), in.end(), 0);
  return gui_test::run(blocks, 32, [&] {
    gui_butterfly(in.data() + 32 * blockIdx.x, out.data() + 32 * blockIdx.x);
  });
}

}  // namespace

TEST_CASE("the first run puts the cursor on the first warp's first step") {
  Model m;
  ViewState v;
  const auto options = parse_gui_options({});
  REQUIRE(init(m, v, *options, catalogue()));
  REQUIRE(m.wanted.has_value());
  CHECK(m.wanted->file.kernel == "butterfly_sum");
  REQUIRE(m.wanted->lesson != nullptr);
  CHECK(m.wanted->lesson->short_id == "butterfly-reduction");
  CHECK(m.wanted->preset->name == "default");
  CHECK(v.launch.args == std::vector<std::string>{"f32[32]:iota", "f32[32]:zeros"});
  load(m, v, butterflies(2));
  CHECK(v.step == 0);
  CHECK(v.warp == WarpKey{0, 0});
  REQUIRE(m.cache.view.has_value());
  CHECK(m.cache.view->name == "__shfl_xor_sync");
  CHECK(m.timeline.steps == 5);
}

TEST_CASE("stepping moves within the warp; all-warps scope walks the whole trace") {
  Model m;
  ViewState v;
  load(m, v, butterflies(2));
  apply(m, v, {StepBy{1}}, 1);
  CHECK(v.step == 1);
  apply(m, v, {StepBy{10}}, 1);
  CHECK(v.step == 4);  // clamped to the warp's last step
  apply(m, v, {StepBy{-2}}, 1);
  CHECK(v.step == 2);
  apply(m, v, {SelectWarp{{1, 0}}}, 1);
  CHECK(v.warp == WarpKey{1, 0});
  CHECK(m.run->index.info(v.step).position == 2);  // the same position in the other warp
  apply(m, v, {ToEnd{false}}, 1);
  CHECK(v.step == m.run->index.steps_of({1, 0})[0]);
  apply(m, v, {SetAllWarps{true}, ToEnd{true}}, 1);
  refresh(m, v);
  CHECK(v.step == 9);
  CHECK(m.timeline.steps == 10);
}

TEST_CASE("history: the warp's earlier steps are decoded with the current one") {
  Model m;
  ViewState v;
  v.history = 3;
  load(m, v, butterflies(1));
  apply(m, v, {ToEnd{true}}, 1);
  refresh(m, v);
  REQUIRE(m.cache.history_views.size() == 3);
  CHECK(m.cache.history_views[0].position == 1);
  CHECK(m.cache.history_views[2].position == 3);
}

TEST_CASE("playing steps on at the chosen speed and stops at the end") {
  Model m;
  ViewState v;
  load(m, v, butterflies(1));
  apply(m, v, {SetSpeed{2}, SetPlaying{true}}, 0);
  apply(m, v, {Tick{0.3}}, 0.3);
  CHECK(v.step == 0);
  apply(m, v, {Tick{0.3}}, 0.6);
  CHECK(v.step == 1);
  for (int i = 0; i < 20; ++i) apply(m, v, {Tick{1}}, 1 + i);
  CHECK(v.step == 4);
  CHECK_FALSE(v.playing);
}

TEST_CASE("break when the watched lane's value changes") {
  Model m;
  ViewState v;
  load(m, v, butterflies(1));
  apply(m, v, {RunUntilChange{}}, 0);
  CHECK(m.notice == "watch a lane first: click a lane (or press w)");
  apply(m, v, {WatchLane{3}, RunUntilChange{}}, 0);
  CHECK(v.step == 1);
}

TEST_CASE("jump to the next diagnostic") {
  Model m;
  ViewState v;
  std::vector<int> in(32), out(32);
  load(m, v, gui_test::run(1, 32, [&] { gui_half_shuffle(in.data(), out.data()); }));
  apply(m, v, {ToEnd{true}}, 0);
  apply(m, v, {NextDiagnostic{true}}, 0);
  CHECK(v.step == 1);  // lanes 0-15's shuffle, after lanes 16-31's
  refresh(m, v);
  const auto& lines = m.cache.diagnostic_lines;
  CHECK(std::any_of(lines.begin(), lines.end(), [](const std::string& line) {
    return line.starts_with("undefined_source (lanes 8-15): ");
  }));
  apply(m, v, {NextDiagnostic{}}, 0);
  CHECK(m.notice == "no diagnostic after this step");
}

TEST_CASE("predict mode hides outputs until the guesses are checked, and keeps score") {
  Model m;
  ViewState v;
  load(m, v, butterflies(1));
  apply(m, v, {SetPredict{true}}, 0);
  CHECK(outputs_hidden(m, v));
  CHECK(v.tab == Tab::predict);
  apply(m, v, {SetGuess{0, "16"}, SetGuess{1, "3"}, CheckGuesses{}}, 0);
  CHECK(v.score == PredictScore{1, 2});
  CHECK(v.predict_feedback == "1 of 2 right: lane 1 received 17, not 3.");
  CHECK_FALSE(outputs_hidden(m, v));
  apply(m, v, {StepBy{1}}, 0);
  CHECK(outputs_hidden(m, v));
  CHECK(v.guesses[0].empty());
}

TEST_CASE("a rerun with edited inputs is asked for; a bad spec says why and asks nothing") {
  Model m;
  ViewState v;
  REQUIRE(init(m, v, *parse_gui_options({}), catalogue()));
  load(m, v, butterflies(1));
  m.wanted.reset();
  apply(m, v, {SetLaunchText{SetLaunchText::arg, 0, "f32[32]:zeros"}, Rerun{}}, 0);
  REQUIRE(m.wanted.has_value());
  CHECK(m.wanted->file.args[0].init == runner::BufferInit::zeros);
  CHECK(m.wanted->edited);  // the lesson's preset with other inputs
  CHECK(m.wanted->preset->launch.arg_texts[0] == "f32[32]:zeros");
  CHECK(launch_title(*m.wanted) == "The butterfly reduction (inputs edited)");
  m.wanted.reset();
  apply(m, v, {SetLaunchText{SetLaunchText::grid, 0, "0"}, Rerun{}}, 0);
  CHECK_FALSE(m.wanted.has_value());
  CHECK(v.inputs_error.starts_with("grid: "));
  apply(m, v, {ResetInputs{}}, 0);
  CHECK(v.launch.grid == "1");
  CHECK(v.launch.args[0] == "f32[32]:zeros");  // what last ran
}

TEST_CASE("lessons open by id, with a preset; an unknown one says what there is") {
  Model m;
  ViewState v;
  REQUIRE(init(m, v, *parse_gui_options({"4", "--preset", "random"}), catalogue()));
  CHECK(m.wanted->lesson->id == "04-butterfly-reduction");
  CHECK(m.wanted->preset->name == "random");
  CHECK(v.preset == "random");
  CHECK(launch_title(*m.wanted) == "The butterfly reduction · random");
  const auto unknown = init(m, v, *parse_gui_options({"no-such-lesson"}), catalogue());
  REQUIRE_FALSE(unknown);
  CHECK(unknown.error().message == "no lesson 'no-such-lesson' (warpsim lessons lists them)");
  const auto preset = init(m, v, *parse_gui_options({"4", "--preset", "nope"}), catalogue());
  REQUIRE_FALSE(preset);
  CHECK(preset.error().message.starts_with("lesson 04-butterfly-reduction has no preset 'nope'"));
  apply(m, v, {OpenLesson{"broadcast", ""}}, 0);
  CHECK(m.wanted->lesson->short_id == "broadcast");
}

TEST_CASE("a reload keeps the learner's place; a new launch starts over") {
  Model m;
  ViewState v;
  load(m, v, butterflies(1), 1);
  apply(m, v, {StepBy{3}}, 0);
  load(m, v, butterflies(1), 2);
  CHECK(v.step == 3);
  CHECK(m.cache.generation == 2);
}

TEST_CASE("a kernel file that changes on disk is run again, without losing the learner's place") {
  const auto file = std::filesystem::temp_directory_path() / "warpsim-gui-reload-test.cu";
  std::ofstream(file) << "// one\n";
  Model m;
  ViewState v;
  RunRequest request;
  request.file.file = file.string();
  request.file.kernel = "k";
  m.wanted = request;
  load(m, v, butterflies(1));
  m.wanted.reset();
  apply(m, v, {StepBy{2}}, 0);
  apply(m, v, {Tick{1.0}}, 1.0);
  CHECK_FALSE(m.wanted.has_value());  // unchanged: nothing to do
  std::ofstream(file, std::ios::app) << "// two\n";
  apply(m, v, {Tick{1.0}}, 2.0);
  REQUIRE(m.wanted.has_value());
  CHECK(m.wanted->file.file == file.string());
  CHECK(m.notice == "the file changed: running it again");
  std::filesystem::remove(file);
}

TEST_CASE("the whole warp as a sequence of SVG files") {
  Model m;
  ViewState v;
  load(m, v, butterflies(1));
  const auto dir = std::filesystem::temp_directory_path() / "warpsim-gui-svg-test";
  std::filesystem::remove_all(dir);
  const auto written = export_svg_sequence(m, v, dir.string());
  REQUIRE(written);
  CHECK(*written == 5);
  CHECK(std::filesystem::file_size(dir / "step-001.svg") > 10000);
  CHECK(std::filesystem::exists(dir / "step-005.svg"));
  CHECK_FALSE(std::filesystem::exists(dir / "step-006.svg"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("the source panel opens on the lines a run's first memory finding names") {
  LoadedRun run;
  run.kernel_file = 0;
  run.result.trace.files = {"kernel.cu", "header.cuh"};
  CHECK(!finding_lines(run));
  Diagnostic misuse;  // not a memory finding: the step's line is where to look
  misuse.kind = DiagnosticKind::mask_mismatch;
  misuse.where = {0, 30};
  Diagnostic elsewhere;  // a finding in another file
  elsewhere.kind = DiagnosticKind::data_race;
  elsewhere.where = {1, 5};
  Diagnostic race;  // a race: the later access at line 16, the other at 13
  race.kind = DiagnosticKind::data_race;
  race.where = {0, 16};
  race.other_where = {0, 13};
  run.result.trace.diagnostics = {misuse, elsewhere, race};
  const auto lines = finding_lines(run);
  REQUIRE(lines);
  CHECK(lines->first == 13);
  CHECK(lines->second == 16);
  Diagnostic uninit;  // one line
  uninit.kind = DiagnosticKind::uninitialized_shared_read;
  uninit.where = {0, 9};
  run.result.trace.diagnostics = {uninit};
  CHECK(finding_lines(run) == std::optional<std::pair<std::uint32_t, std::uint32_t>>({9, 9}));
}

TEST_CASE("the lane view opens on the last step before a run's first memory finding") {
  LoadedRun run;
  CHECK(!finding_step(run));
  Diagnostic misuse;  // not a memory finding: it has a step of its own
  misuse.kind = DiagnosticKind::mask_mismatch;
  misuse.step = 1;
  Diagnostic race;
  race.kind = DiagnosticKind::data_race;
  race.step_before = 4;
  Diagnostic later;
  later.kind = DiagnosticKind::uninitialized_shared_read;
  later.step_before = 7;
  run.result.trace.diagnostics = {misuse, race, later};
  CHECK(finding_step(run) == std::optional<std::size_t>(4));
  race.step_before = -1;  // found before any step: no step to open on
  run.result.trace.diagnostics = {race, later};
  CHECK(!finding_step(run));
}
