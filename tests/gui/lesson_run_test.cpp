// The app model over a real lesson, run the way the app runs it (compiled, in a child process):
// the lesson's notes at their steps, its questions scored in predict mode, its SVG sequence.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "model/app_model.hpp"
#include "model/live_gpu.hpp"

using namespace warpsim;
using namespace warpsim::gui;

namespace {

struct Opened {
  Model m;
  ViewState v;
};

// Opens `args` as warpsim-gui would and runs the first request on this thread.
void open(Opened& o, const std::vector<std::string>& args, const LiveGpu& live = {}) {
  auto catalogue = std::make_shared<const course::Catalogue>(
      course::load_catalogue(std::filesystem::path(WARPSIM_SOURCE_DIR) / "lessons"));
  REQUIRE(init(o.m, o.v, *parse_gui_options(args), catalogue));
  RunRequest request = std::move(*o.m.wanted);
  o.m.wanted.reset();
  apply(o.m, o.v, done(run_and_load(1, request, live)), 0);
  refresh(o.m, o.v);
  REQUIRE_MESSAGE(o.m.run->result.status == runner::RunStatus::completed, o.m.run->result.message);
}

}  // namespace

TEST_CASE("the butterfly lesson: its notes at their passes, its questions scored") {
  Opened o;
  open(o, {"butterfly-reduction"});
  Model& m = o.m;
  ViewState& v = o.v;
  CHECK(m.run->index.step_count() == 5);
  const course::Note* note = current_note(m, v);
  REQUIRE(note != nullptr);
  CHECK(note->text.starts_with("Offset 16: lanes 0-15 pair with lanes 16-31."));
  REQUIRE(current_questions(m, v).size() == 1);
  // Predict mode: lanes 0 and 17 receive 16 and 1.
  apply(m, v, {SetPredict{true}, SetGuess{0, "16"}, SetGuess{17, "2"}, CheckGuesses{}}, 0);
  CHECK(v.score == PredictScore{1, 2});
  CHECK(v.predict_feedback == "1 of 2 right: lane 17 received 1, not 2.");
  // The third pass asks for source lanes.
  apply(m, v, {StepBy{2}}, 0);
  refresh(m, v);
  REQUIRE(current_questions(m, v).size() == 1);
  apply(m, v, {SetGuess{5, "1"}, SetGuess{30, "26"}, CheckGuesses{}}, 0);
  CHECK(v.score == PredictScore{3, 4});
  // The lesson's recorded H100 run of the preset: every lane of every step agrees.
  REQUIRE_MESSAGE(m.run->gpu.has_value(), m.run->gpu_note);
  CHECK(provenance(m.run->gpu->device).find("H100") != std::string::npos);
  CHECK(m.run->gpu->comparison.matches());
  CHECK(m.run->gpu->differing_steps.empty());
  REQUIRE(m.cache.view->has_other);
  CHECK(m.cache.view->other_differs == 0);
}

TEST_CASE("a recorded GPU run that disagrees is shown as loudly as a diagnostic") {
  // The butterfly's recorded run with lane 3's first result changed (tests/gui/data).
  Opened o;
  open(o, {"butterfly-reduction", "--gpu-record",
           std::string(WARPSIM_SOURCE_DIR) + "/tests/gui/data/butterfly-default-lane3-differs.json.gz"});
  REQUIRE_MESSAGE(o.m.run->gpu.has_value(), o.m.run->gpu_note);
  CHECK(o.m.run->gpu->differing_steps == std::vector<std::size_t>{0});
  CHECK(o.m.cache.view->other_differs == lane_bit(3));
  const Figure f = build_step_figure(*o.m.cache.view, {}, figure_options(o.m, o.v, 1200, {}, 1e9));
  const bool banner = std::any_of(f.shapes.begin(), f.shapes.end(), [](const Shape& s) {
    const Text* t = std::get_if<Text>(&s);
    return t != nullptr && t->text.starts_with("! The GPU's result differs from the simulator's at lane 3");
  });
  CHECK(banner);
}

TEST_CASE("--gpu: the same launch on this machine's GPU, or one line saying why not") {
  Opened o;
  open(o, {"butterfly-reduction", "--gpu"}, run_live_gpu);
  CHECK(o.m.run->request.live_gpu);
  CHECK_FALSE(o.m.run->result.initial_buffers.empty());  // what the GPU starts from
  if (o.m.run->gpu) {
    // A machine with a CUDA device: the live run, traced, agrees lane by lane.
    CHECK(o.m.run->gpu->source == "live run on this machine's GPU");
    CHECK(o.m.run->gpu->comparison.matches());
    REQUIRE(o.m.run->gpu->comparison.steps.has_value());
    CHECK(o.m.run->gpu->comparison.steps->identical());
    CHECK(o.m.cache.view->has_other);
    MESSAGE("live GPU: " << provenance(o.m.run->gpu->device));
  } else {
    // Elsewhere: no GPU side, and the GPU tab says why in one line.
    CHECK_FALSE(o.m.run->gpu_note.empty());
    CHECK(o.m.run->gpu_note.find('\n') == std::string::npos);
    MESSAGE("no live GPU: " << o.m.run->gpu_note);
  }
}

TEST_CASE("a lesson as a sequence of SVG figures, its notes as captions") {
  Opened o;
  open(o, {"butterfly-reduction"});
  const auto dir = std::filesystem::temp_directory_path() / "warpsim-gui-lesson-svg";
  std::filesystem::remove_all(dir);
  const auto written = export_svg_sequence(o.m, o.v, dir.string());
  REQUIRE(written);
  CHECK(*written == 5);
  std::ifstream first(dir / "step-001.svg");
  std::stringstream text;
  text << first.rdbuf();
  CHECK(text.str().find("Offset 16: lanes 0-15 pair with lanes 16-31.") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("a kernel file that does not compile: its errors on their lines, no steps") {
  Opened o;
  auto catalogue = std::make_shared<const course::Catalogue>();
  const std::string file = std::string(WARPSIM_SOURCE_DIR) + "/tests/gui/kernels/compile_error.cu";
  REQUIRE(init(o.m, o.v,
               *parse_gui_options({file, "--kernel", "broken", "--grid", "1", "--block", "32",
                                   "--arg", "i32[32]:iota", "--arg", "i32[32]:zeros"}),
               catalogue));
  const RunRequest request = *o.m.wanted;
  apply(o.m, o.v, done(run_and_load(1, request)), 0);
  CHECK(o.m.run->result.status == runner::RunStatus::bad_input);
  REQUIRE_FALSE(o.m.run->compiler_messages.empty());
  CHECK(o.m.run->compiler_messages[0].line == 6);
  CHECK(o.m.run->compiler_messages[0].severity == "error");
  CHECK(o.m.notice_is_error);
  CHECK_FALSE(has_steps(o.m));
}

namespace {

// Whether a figure promises a hit whose tooltip starts with `text`.
bool has_tip(const Figure& f, const std::string& text) {
  return std::any_of(f.hits.begin(), f.hits.end(),
                     [&](const Hit& h) { return h.tooltip.rfind(text, 0) == 0; });
}

bool has_text(const Figure& f, const std::string& part) {
  return std::any_of(f.shapes.begin(), f.shapes.end(), [&](const Shape& s) {
    const Text* t = std::get_if<Text>(&s);
    return t != nullptr && t->text.find(part) != std::string::npos;
  });
}

// Opens `args` (a run that may stop, e.g. in a deadlock) as warpsim-gui would.
void open_any(Opened& o, const std::vector<std::string>& args,
              std::shared_ptr<const course::Catalogue> catalogue = nullptr) {
  if (!catalogue) {
    catalogue = std::make_shared<const course::Catalogue>(
        course::load_catalogue(std::filesystem::path(WARPSIM_SOURCE_DIR) / "lessons"));
  }
  REQUIRE(init(o.m, o.v, *parse_gui_options(args), catalogue));
  RunRequest request = std::move(*o.m.wanted);
  o.m.wanted.reset();
  apply(o.m, o.v, done(run_and_load(1, request)), 0);
  refresh(o.m, o.v);
}

}  // namespace

TEST_CASE("predict mode: the asked lane's input is hidden, and the end of the lesson waits for the last answer") {
  Opened o;
  open(o, {"broadcast"});
  Model& m = o.m;
  ViewState& v = o.v;
  apply(m, v, {SetPredict{true}}, 0);
  refresh(m, v);
  // Lesson 3's first step asks what lane 7 passes in: its in cell is hidden with the outputs;
  // the other lanes' inputs (all different from lane 7's) are what the learner reasons from.
  REQUIRE(outputs_hidden(m, v));
  REQUIRE(hidden_inputs(m, v) == lane_bit(7));
  // Its only step is its last: the outro and the buffers after the kernel wait for the answers.
  REQUIRE(m.run->index.step_count() == 1);
  CHECK(ending_hidden(m, v));
  Figure f = build_step_figure(*m.cache.view, {}, figure_options(m, v, 1200, {}, 1e9));
  CHECK_FALSE(has_tip(f, "lane 7 passed in"));
  CHECK(has_tip(f, "lane 7: what does it pass in?"));
  CHECK(has_tip(f, "lane 6 passed in"));
  CHECK_FALSE(has_tip(f, "lane 0 received"));
  apply(m, v, {SetGuess{7, "0"}, CheckGuesses{}}, 0);
  refresh(m, v);
  CHECK(hidden_inputs(m, v) == 0);
  f = build_step_figure(*m.cache.view, {}, figure_options(m, v, 1200, {}, 1e9));
  CHECK(has_tip(f, "lane 7 passed in"));
  CHECK(has_tip(f, "lane 0 received"));
  CHECK_FALSE(ending_hidden(m, v));
}

TEST_CASE("predict mode: a step before a question about inputs keeps its after row and note back") {
  Opened o;
  open(o, {"butterfly-reduction"});
  Model& m = o.m;
  ViewState& v = o.v;
  apply(m, v, {SetPredict{true}, GoTo{3}}, 0);
  refresh(m, v);
  // Step 5 asks what lanes 0 and 1 bring into the last round: step 4's after row (240, 256) and
  // its note ("lane 0 holds 112 and receives 128 from lane 2: 240") say it.
  REQUIRE(m.cache.view->position == 3);
  CHECK(current_questions(m, v).empty());
  CHECK(current_note(m, v) == nullptr);
  Figure f = build_step_figure(*m.cache.view, {}, figure_options(m, v, 1200, {}, 1e9));
  CHECK(has_tip(f, "lane 0: what does it hold after the step?"));
  CHECK_FALSE(has_tip(f, "lane 0 holds"));
  CHECK(has_tip(f, "lane 0 passed in 112"));  // what the learner reasons from
  apply(m, v, {GoTo{4}, SetGuess{0, "240"}, SetGuess{1, "256"}, CheckGuesses{}, GoTo{3}}, 0);
  refresh(m, v);
  REQUIRE(current_note(m, v) != nullptr);
  CHECK(current_note(m, v)->text.find("240") != std::string::npos);
}

TEST_CASE("predict mode: a ballot's word and a match's groups are hidden with the outputs") {
  Opened o;
  open(o, {"argmax-ballot"});
  Model& m = o.m;
  ViewState& v = o.v;
  apply(m, v, {SetPredict{true}}, 0);
  // Every step of the warp: where a vote is drawn, its word's bits are not.
  for (int i = 0; i < 40; ++i) {
    refresh(m, v);
    if (m.cache.view->family == IntrinsicFamily::vote) {
      const Figure f = build_step_figure(*m.cache.view, {}, figure_options(m, v, 1200, {}, 1e9));
      CHECK(has_text(f, "which bits are set?"));
      CHECK_FALSE(has_text(f, "bit i = lane i's predicate"));
      break;
    }
    apply(m, v, {StepBy{1}}, 0);
  }
}

TEST_CASE("a deadlock is drawn: where every lane waits, the warp listed as deadlocked") {
  SUBCASE("lesson 23: after its one step") {
    Opened o;
    open_any(o, {"23"});
    CHECK(o.m.run->result.status == runner::RunStatus::deadlock);
    const auto warps = o.m.run->index.warps();
    REQUIRE(warps.size() == 1);
    CHECK(warps[0].deadlocked);
    CHECK(warps[0].steps == 1);
    REQUIRE(o.m.cache.wait.has_value());
    REQUIRE(o.m.cache.wait->lines.size() == 2);
    CHECK(o.m.cache.wait->lines[0].starts_with("lanes 0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30 "
                                               "wait in __shfl_up_sync at kernel.cu:28"));
    CHECK(o.m.cache.diagnostic_lines.back() ==
          "then the warp deadlocks: step on (Right) to see where every lane waits");
    // One step on: the wait itself, drawn; the step before it a band above; back again.
    apply(o.m, o.v, {StepBy{1}}, 0);
    refresh(o.m, o.v);
    CHECK(o.v.at_wait);
    REQUIRE(o.m.cache.view->waits);
    CHECK(o.m.cache.history_views.size() == 1);
    CHECK(o.m.cache.diagnostic_lines == o.m.cache.wait->lines);
    const Figure f = build_step_figure(*o.m.cache.view, o.m.cache.history_views,
                                       figure_options(o.m, o.v, 1200, {}, 1e9));
    CHECK(has_text(f, "where every lane waits"));
    CHECK(has_text(f, "after step 1 of 1"));
    apply(o.m, o.v, {StepBy{-1}}, 0);
    refresh(o.m, o.v);
    CHECK_FALSE(o.v.at_wait);
    CHECK_FALSE(o.m.cache.view->waits);
    // Play from the first step stops on the wait, not on the step before it.
    apply(o.m, o.v, {ToEnd{false}, SetPlaying{true}}, 0);
    for (int i = 0; i < 5 && o.v.playing; ++i) apply(o.m, o.v, {Tick{1.0}}, 1.0 + i);
    CHECK_FALSE(o.v.playing);
    CHECK(o.v.at_wait);
  }
  SUBCASE("a kernel that deadlocks at its first call: no step, the wait drawn instead") {
    Opened o;
    const std::string file =
        std::string(WARPSIM_SOURCE_DIR) + "/tests/corpus/kernels/23_misuse_branch_deadlock.cu";
    open_any(o,
             {file, "--kernel", "filtered_diff_sum", "--grid", "1", "--block", "32", "--arg",
              "i32[32]:iota", "--arg", "i32[1]:zeros", "--arg", "i32:10"},
             std::make_shared<const course::Catalogue>());
    CHECK(o.m.run->result.status == runner::RunStatus::deadlock);
    CHECK_FALSE(has_steps(o.m));
    REQUIRE(o.m.cache.wait.has_value());
    CHECK(o.m.cache.wait->view.warp_steps == 0);
    CHECK(o.m.cache.wait->waiting == ~LaneMask{0});
    CHECK(o.m.cache.wait->never_arrive == ~LaneMask{0});
    const Figure f = build_step_figure(o.m.cache.wait->view, {}, figure_options(o.m, o.v, 1200, {}, 1e9));
    CHECK(has_text(f, "before any step"));
    CHECK(std::any_of(f.probes.begin(), f.probes.end(),
                      [](const Probe& p) { return p.what == "deadlock bar"; }));
    REQUIRE_FALSE(o.m.run->index.warps().empty());
    CHECK(o.m.run->index.warps()[0].deadlocked);
  }
}
