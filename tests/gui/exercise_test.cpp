// An exercise in the app model: opening one, grading a right variant of warp-sum and a wrong one
// of inclusive-scan (their right/ and wrong/ files) the way the app's worker does, the first
// failing case opened lane by lane with the reference's values as the "expected" row, a file that
// does not compile, a file changed since it was graded, bad input. No window; gradings run here, on
// this thread.
#include <doctest/doctest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "model/app_model.hpp"
#include "model/text_blocks.hpp"

using namespace warpsim;
using namespace warpsim::gui;

namespace {

namespace fs = std::filesystem;

const fs::path kLessons = fs::path(WARPSIM_SOURCE_DIR) / "lessons";
const fs::path kWarpSum = kLessons / "04-butterfly-reduction" / "exercises" / "warp-sum";
const fs::path kScan = kLessons / "07-scan" / "exercises" / "inclusive-scan";

std::shared_ptr<const course::ExerciseCatalogue> exercises() {
  return std::make_shared<const course::ExerciseCatalogue>(course::load_exercises(kLessons));
}

struct App {
  Model m;
  ViewState v;
};

// The app as `warpsim-gui ARGS` starts it.
Expected<void> start(App& app, const std::vector<std::string>& args) {
  const auto options = parse_gui_options(args);
  REQUIRE(options);
  return init(app.m, app.v, *options, nullptr, exercises());
}

// What the app's loop does with a grading: the worker runs it, the result comes back.
std::size_t grade_now(App& app) {
  REQUIRE(app.m.exercise);
  REQUIRE(app.m.exercise->wanted);
  ExerciseState& e = *app.m.exercise;
  e.grading = e.wanted->generation;
  const GradingJob job = *e.wanted;
  e.wanted.reset();
  std::size_t reported = 0;
  Graded graded = run_grading(job, [&](const course::CaseResult&) { ++reported; });
  apply(app.m, app.v, done(std::move(graded)), 1);
  refresh(app.m, app.v);
  return reported;
}

// A run the model asked for (a case to explain), run here.
void run_wanted(App& app) {
  REQUIRE(app.m.wanted);
  const RunRequest request = *app.m.wanted;
  app.m.wanted.reset();
  apply(app.m, app.v, done(run_and_load(app.m.next_generation++, request)), 2);
  refresh(app.m, app.v);
}

fs::path scratch_file(const std::string& name, const std::string& text) {
  const fs::path dir =
      fs::temp_directory_path() / ("warpsim-exercise-test-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / name) << text;
  return dir / name;
}

}  // namespace

TEST_CASE("--exercise ID [FILE] [--grade]: what is graded, and what does not go with it") {
  const auto o = parse_gui_options({"--exercise", "warp-sum", "mine.cu", "--grade"});
  REQUIRE(o);
  CHECK(o->exercise == "warp-sum");
  CHECK(o->exercise_file == "mine.cu");
  CHECK(o->grade);
  CHECK(o->lesson.empty());
  CHECK_FALSE(parse_gui_options({"--exercise", "warp-sum", "--kernel", "k"}));
  CHECK_FALSE(parse_gui_options({"--grade"}));
  CHECK(parse_gui_options({"--exercise", "warp-sum", "--tab", "exercise"}));
}

TEST_CASE("bad input: an unknown exercise, a file that is not there") {
  App a;
  const auto unknown = start(a, {"--exercise", "no-such-exercise"});
  REQUIRE_FALSE(unknown);
  CHECK(unknown.error().message.find("no exercise 'no-such-exercise'; exercises: ") == 0);
  CHECK(unknown.error().message.find("warp-sum") != std::string::npos);
  App b;
  const auto missing = start(b, {"--exercise", "warp-sum", "/no/such/file.cu"});
  REQUIRE_FALSE(missing);
  CHECK(missing.error().message.find("no file /no/such/file.cu") == 0);
  CHECK(missing.error().message.find("starter.cu") != std::string::npos);
  // Opened from inside the GUI: the same message in the status line, nothing else changes.
  App c;
  REQUIRE(start(c, {"--exercise", "warp-sum"}));
  apply(c.m, c.v, {OpenExercise{"nope", ""}}, 0);
  CHECK(c.m.notice_is_error);
  CHECK(c.m.notice.find("no exercise 'nope'") == 0);
  CHECK(c.m.exercise->exercise->id == "warp-sum");
}

TEST_CASE("an exercise opens on its starter, its task, no run; Grade asks the worker") {
  App a;
  REQUIRE(start(a, {"--exercise", "warp-sum"}));
  REQUIRE(a.m.exercise);
  const ExerciseState& e = *a.m.exercise;
  CHECK(e.starter);
  CHECK(fs::path(e.file) == kWarpSum / "starter.cu");
  CHECK(e.statement.find("# Warp sum") == 0);
  CHECK(e.case_count == 12);
  CHECK_FALSE(e.source_lines.empty());
  CHECK(a.v.tab == Tab::exercise);
  CHECK_FALSE(a.m.wanted);
  CHECK_FALSE(e.wanted);
  CHECK(settled(a.m));
  CHECK(score_text(e) == "not graded yet");
  apply(a.m, a.v, {Grade{}}, 1);
  REQUIRE(a.m.exercise->wanted);
  CHECK(a.m.exercise->wanted->file == e.file);
  CHECK_FALSE(settled(a.m));
  CHECK(score_text(*a.m.exercise) == "grading: 0 of 12 cases done");
  apply(a.m, a.v, {Grade{}}, 1);  // once is enough
  CHECK(a.m.notice == "already grading");
  apply(a.m, a.v, {ShowHint{}, ShowHint{}}, 1);
  CHECK(a.m.exercise->hints == 2);
}

TEST_CASE("a right variant: every case passes, each reported as it finished") {
  App a;
  REQUIRE(start(
      a, {"--exercise", "warp-sum", (kWarpSum / "right" / "shfl-down.cu").string(), "--grade"}));
  const std::size_t reported = grade_now(a);
  const ExerciseState& e = *a.m.exercise;
  REQUIRE(e.result);
  CHECK(e.result->passed());
  CHECK(reported == e.result->cases.size());
  CHECK(score_text(e) == "all 12 cases pass");
  CHECK(grading_exit_status(e) == 0);
  CHECK_FALSE(first_failing_case(e));
  CHECK_FALSE(a.m.run);  // nothing to open: the task stays on screen
  CHECK(settled(a.m));
  CHECK_FALSE(changed_since_graded(e));
  // A passing case opens too, on the worker. This variant shuffles down where the reference
  // shuffles by xor: no "expected" row (the calls do not line up), and the detail says why.
  apply(a.m, a.v, {OpenCase{0}}, 2);
  REQUIRE(a.m.wanted);
  REQUIRE(a.m.wanted->exercise_case);
  CHECK(a.m.wanted->exercise_case->name == "one-warp");
  run_wanted(a);
  REQUIRE(has_steps(a.m));
  REQUIRE(a.m.cache.view);
  CHECK(a.m.cache.view->name == "__shfl_down_sync");
  CHECK_FALSE(a.m.cache.view->has_other);
  REQUIRE(a.m.run->detail);
  CHECK(a.m.run->detail->step_reason.find("stop lining up with the reference's") !=
        std::string::npos);
  CHECK(launch_title(a.m.run->request) == "Warp sum · case one-warp");
  apply(a.m, a.v, {CloseCase{}}, 3);
  CHECK_FALSE(a.m.run);
  CHECK_FALSE(a.m.exercise->open_case);
}

TEST_CASE("a wrong variant: the first failing case opens lane by lane, at its step") {
  App a;
  // inclusive-scan's off-by-one: lane d leaves out lane 0's contribution. Its shuffles are the
  // reference's, so every step has the reference lanes' values beside the submission's.
  REQUIRE(start(a, {"--exercise", "inclusive-scan", (kScan / "wrong" / "off-by-one.cu").string(),
                    "--grade"}));
  grade_now(a);
  const ExerciseState& e = *a.m.exercise;
  REQUIRE(e.result);
  CHECK(e.result->status == course::GradeStatus::failed);
  CHECK(grading_exit_status(e) == 1);
  CHECK(score_text(e) == std::to_string(e.result->cases_passed()) + " of " +
                             std::to_string(e.case_count) + " cases pass");
  CHECK(e.result->cases_passed() < e.case_count);
  const auto first = first_failing_case(e);
  REQUIRE(first);
  CHECK(e.result->cases[*first].name == "one-warp");
  CHECK(e.result->cases[*first].message.find("out[1] is") != std::string::npos);
  // Opened from the grading's own detail, no run more.
  CHECK_FALSE(a.m.wanted);
  REQUIRE(a.m.run);
  CHECK(e.open_case == first);
  REQUIRE(a.m.run->detail);
  REQUIRE(a.m.run->detail->step);
  CHECK(a.v.step == a.m.run->detail->step->step);
  CHECK_FALSE(a.m.run->detail->table.empty());
  REQUIRE(a.m.cache.view);
  CHECK(a.m.cache.view->has_other);
  bool labelled = false;
  for (const StepRow& r : a.m.cache.view->rows) labelled |= r.label == "expected";
  CHECK(labelled);
  CHECK(launch_title(a.m.run->request) == "Inclusive scan of a warp · case one-warp");
  // Stepping keeps the "expected" row: every step of the case lines up with the reference.
  apply(a.m, a.v, {ToEnd{false}}, 3);
  refresh(a.m, a.v);
  REQUIRE(a.m.cache.view);
  CHECK(a.m.cache.view->has_other);
  // The same case explained again on the worker (another case, or the file changed) gives the
  // same step.
  const std::size_t step = a.m.run->detail->step->step;
  apply(a.m, a.v, {CloseCase{}}, 4);
  a.m.exercise->graded_stamp = {};  // as if the file changed since
  apply(a.m, a.v, {OpenCase{*first}}, 4);
  run_wanted(a);
  REQUIRE(a.m.run->detail);
  CHECK(a.v.step == step);
}

TEST_CASE("a race the checks named: the case opens with it among the diagnostics, its line marked") {
  App a;
  const fs::path file = kLessons / "08-ballot-compaction" / "exercises" / "ballot-compact" /
                        "wrong" / "no-syncthreads.cu";
  REQUIRE(start(a, {"--exercise", "ballot-compact", file.string(), "--grade"}));
  grade_now(a);
  const ExerciseState& e = *a.m.exercise;
  REQUIRE(e.result);
  const auto first = first_failing_case(e);
  REQUIRE(first);
  const std::string& finding = e.result->cases[*first].finding;
  REQUIRE(finding.rfind("data race on warp_count", 0) == 0);
  const auto check_open = [&] {
    REQUIRE(a.m.run);
    REQUIRE(a.m.run->detail);
    CHECK(a.m.run->detail->checked);
    const auto& diagnostics = a.m.run->result.trace.diagnostics;
    REQUIRE_FALSE(diagnostics.empty());
    CHECK(diagnostics.front().kind == DiagnosticKind::data_race);
    CHECK(finding.rfind(diagnostics.front().message, 0) == 0);
    // The racing write's line (no-syncthreads.cu:13) carries the diagnostic mark in the source.
    const std::uint32_t line = diagnostics.front().where.line;
    REQUIRE(line > 0);
    REQUIRE(line <= a.m.run->line_marks.size());
    CHECK((a.m.run->line_marks[line - 1] & kLineHasDiagnostic) != 0);
    // And the other access's line (the read of warp_count at 16 or 20, or the write at 13).
    const std::uint32_t other = diagnostics.front().other_where.line;
    REQUIRE(other > 0);
    CHECK(other != line);
    REQUIRE(other <= a.m.run->line_marks.size());
    CHECK((a.m.run->line_marks[other - 1] & kLineHasDiagnostic) != 0);
    // The lane view opens on the last step recorded before the racing access.
    REQUIRE(diagnostics.front().step_before >= 0);
    CHECK(a.v.step == static_cast<std::size_t>(diagnostics.front().step_before));
    // The timeline counts what it cannot mark, as the Diagnostics tab lists it.
    refresh(a.m, a.v);
    CHECK(a.m.timeline.stepless_diagnostics == diagnostics.size());
    CHECK(timeline_label(a.m.timeline, "block 0, warp 0")
              .ends_with(" · " + std::to_string(diagnostics.size()) +
                         " not on a step (Diagnostics tab)"));
  };
  check_open();
  // Opened again on the worker (the file changed since): under the checks again.
  apply(a.m, a.v, {CloseCase{}}, 3);
  a.m.exercise->graded_stamp = {};
  apply(a.m, a.v, {OpenCase{*first}}, 3);
  run_wanted(a);
  check_open();
}

TEST_CASE("a file that does not compile: the compiler's lines, exit status 2, no case") {
  const fs::path file =
      scratch_file("broken.cu",
                   "__global__ void warp_sum(const float* in, float* out, int n) {\n"
                   "  this is not CUDA;\n}\n");
  App a;
  REQUIRE(start(a, {"--exercise", "warp-sum", file.string(), "--grade"}));
  grade_now(a);
  const ExerciseState& e = *a.m.exercise;
  REQUIRE(e.result);
  CHECK(e.result->status == course::GradeStatus::bad_submission);
  CHECK(grading_exit_status(e) == 2);
  CHECK(score_text(e) == "does not compile");
  REQUIRE_FALSE(e.compiler_messages.empty());
  CHECK(e.compiler_messages.front().line == 2);
  CHECK_FALSE(a.m.run);
  CHECK(a.m.notice_is_error);

  // Fixed on disk: noticed as a change since the grading.
  std::ofstream(file) << "// fixed\n";
  fs::last_write_time(file, fs::last_write_time(file) + std::chrono::seconds(2));
  CHECK(reread_file(*a.m.exercise, 5));
  CHECK(changed_since_graded(*a.m.exercise));
  CHECK(a.m.exercise->source_lines == std::vector<std::string>{"// fixed"});
  CHECK_FALSE(reread_file(*a.m.exercise, 6));
}

TEST_CASE("a statement as blocks: headings, paragraphs joined, bullets, code kept") {
  const auto blocks = text_blocks(
      "# Warp sum\n\n*Lesson 04.* Grade `it`: `t = a * b`, 2*3.\n\n```cuda\nint a;\n  int "
      "b;\n```\n\nOne\nparagraph.\n\n"
      "    out[w] = in[32w]\n\n- a bullet\n  continued\n- another\n## How\n");
  using K = TextBlock::Kind;
  const std::vector<TextBlock> expected = {
      {K::heading, 1, "Warp sum"},      {K::paragraph, 0, "Lesson 04. Grade it: t = a * b, 2*3."},
      {K::code, 0, "int a;\n  int b;"}, {K::paragraph, 0, "One paragraph."},
      {K::code, 0, "out[w] = in[32w]"}, {K::bullet, 0, "a bullet continued"},
      {K::bullet, 0, "another"},        {K::heading, 2, "How"}};
  CHECK(blocks == expected);
}

TEST_CASE("the starter copied to <kernel>.cu and graded from then on; a file there is kept") {
  const fs::path dir = scratch_file("placeholder", "").parent_path() / "copy";
  fs::create_directories(dir);
  App a;
  REQUIRE(start(a, {"--exercise", "warp-sum"}));
  a.v.export_dir = dir.string();
  apply(a.m, a.v, {UseOwnCopy{}}, 1);
  CHECK_FALSE(a.m.notice_is_error);
  CHECK(a.m.notice.find("copied the starter to ") == 0);
  const ExerciseState& e = *a.m.exercise;
  CHECK_FALSE(e.starter);
  CHECK(fs::path(e.file) == dir / "warp_sum.cu");
  CHECK_FALSE(e.source_lines.empty());
  CHECK(fs::file_size(dir / "warp_sum.cu") == fs::file_size(kWarpSum / "starter.cu"));
  apply(a.m, a.v, {UseOwnCopy{}}, 2);  // once is enough
  CHECK(a.m.notice_is_error);

  std::ofstream(dir / "warp_sum.cu") << "// mine\n";
  App b;
  REQUIRE(start(b, {"--exercise", "warp-sum"}));
  b.v.export_dir = dir.string();
  apply(b.m, b.v, {UseOwnCopy{}}, 1);
  CHECK(b.m.notice.find("is already there: grading it (not overwritten)") != std::string::npos);
  CHECK(b.m.exercise->source_lines == std::vector<std::string>{"// mine"});
}

TEST_CASE("Grade in the GUI grades as `warpsim grade` does: the exercise's own seed, the sandbox") {
  App a;
  REQUIRE(start(a, {"--exercise", "warp-sum", (kWarpSum / "right" / "shfl-down.cu").string()}));
  const ExerciseState& e = *a.m.exercise;
  const std::uint64_t seed = course::default_seed(*e.exercise);
  CHECK(seed != 1);
  CHECK(e.seed == seed);  // what the exercise tab shows
  apply(a.m, a.v, {Grade{}}, 1);
  REQUIRE(a.m.exercise->wanted);
  CHECK(a.m.exercise->wanted->seed == seed);
  grade_now(a);
  REQUIRE(a.m.exercise->result);
  const course::GradeResult& r = *a.m.exercise->result;
  CHECK(r.passed());
  CHECK(r.seed == seed);
  // The options come from the one function the CLI uses too.
  const auto options = course::grading_options(*e.exercise);
  REQUIRE(options);
  CHECK(options->seed == seed);
  CHECK(r.sandbox == runner::describe(options->sandbox));
  if (options->sandbox.active()) CHECK(r.sandbox != runner::describe(runner::Sandbox{}));
  MESSAGE("sandbox: " << r.sandbox);
}
