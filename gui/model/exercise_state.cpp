#include "model/exercise_state.hpp"

#include <filesystem>
#include <fstream>

#include "warpsim/runner.hpp"
#include "warpsim/text_lines.hpp"

namespace warpsim::gui {
namespace {

namespace fs = std::filesystem;

}  // namespace

Graded run_grading(const GradingJob& job,
                   const std::function<void(const course::CaseResult&)>& on_case) {
  Graded g;
  g.generation = job.generation;
  g.stamp = stamp_of(job.file);
  // As `warpsim grade` grades it: the same sandbox, the same seed (course::grading_options).
  course::GradeSettings settings;
  settings.seed = job.seed;
  auto options = course::grading_options(*job.exercise, settings);
  if (!options) {
    g.result.exercise = job.exercise->id;
    g.result.submission = job.file;
    g.result.seed = job.seed;
    g.result.status = course::GradeStatus::bad_submission;
    g.result.message = options.error().message;
    return g;
  }
  options->on_case = on_case;
  g.result = course::grade(*job.exercise, job.file, *options);
  return g;
}

Expected<course::Schedule> schedule_named(const course::Exercise& exercise, std::uint64_t seed,
                                          std::size_t case_index, const std::string& name) {
  auto cases = course::make_cases(exercise, seed);
  if (!cases) return cases.error();
  if (case_index >= cases->size()) {
    return fail(exercise.id + " has no case " + std::to_string(case_index + 1));
  }
  const std::vector<course::Schedule> schedules =
      course::schedules_for(exercise, (*cases)[case_index], seed, case_index);
  for (const course::Schedule& s : schedules) {
    if (s.name == name) return s;
  }
  return schedules.front();
}

std::string case_title(const CaseRef& ref) {
  std::string s =
      (ref.exercise ? ref.exercise->title : std::string("exercise")) + " · case " + ref.name;
  if (!ref.schedule.empty() && ref.schedule != "in order") s += " (" + ref.schedule + ")";
  return s;
}

Expected<ExerciseState> open_exercise(const course::ExerciseCatalogue& catalogue,
                                      const std::string& id, const std::string& file) {
  ExerciseState e;
  std::error_code error;
  if (const course::Exercise* found = course::find_exercise(catalogue, id)) {
    e.exercise = std::make_shared<const course::Exercise>(*found);
  } else if (fs::is_regular_file(fs::path(id) / "exercise.json", error)) {
    auto loaded = course::load_exercise(id);
    if (!loaded) return loaded.error();
    e.exercise = std::make_shared<const course::Exercise>(std::move(*loaded));
  } else {
    std::string known;
    for (const course::Exercise& x : catalogue.exercises)
      known += (known.empty() ? "" : ", ") + x.id;
    return fail("no exercise '" + id + "'; exercises: " + (known.empty() ? "none found" : known));
  }
  e.starter = file.empty();
  e.file = e.starter ? e.exercise->starter_file().string() : file;
  if (!fs::is_regular_file(e.file, error)) {
    return fail("no file " + e.file + " (start from the exercise's starter: cp " +
                e.exercise->starter_file().string() + " " + e.file + ")");
  }
  e.seed = course::default_seed(*e.exercise);  // `warpsim grade`'s
  auto statement = runner::read_text_file(e.exercise->statement_file().string());
  e.statement = statement ? *statement : e.exercise->contract;
  if (auto cases = course::make_cases(*e.exercise, e.seed)) e.case_count = cases->size();
  e.stamp = stamp_of(e.file);
  e.source_lines = read_lines(e.file);
  return e;
}

Expected<std::string> use_own_copy(ExerciseState& e, const std::string& dir) {
  if (!e.starter) return fail("already grading your own file, " + e.file);
  const fs::path target = fs::path(dir.empty() ? "." : dir) / (e.exercise->kernel + ".cu");
  std::error_code error;
  std::string what;
  if (fs::exists(target, error)) {
    what = target.string() + " is already there: grading it (not overwritten)";
  } else {
    fs::copy_file(e.exercise->starter_file(), target, error);
    if (error) return fail("could not copy the starter to " + target.string() + ": " + error.message());
    what = "copied the starter to " + target.string() + ": edit it in your editor, then grade";
  }
  e.file = target.string();
  e.starter = false;
  e.result.reset();
  e.compiler_messages.clear();
  e.open_case.reset();
  e.stamp = stamp_of(e.file);
  e.source_lines = read_lines(e.file);
  e.changed_at = -1;
  return what;
}

bool reread_file(ExerciseState& e, double now) {
  const FileStamp stamp = stamp_of(e.file);
  if (stamp == e.stamp) return false;
  e.stamp = stamp;
  e.source_lines = read_lines(e.file);
  e.changed_at = now;
  return true;
}

GradingJob grading_job(const ExerciseState& e, std::uint64_t generation) {
  return {generation, e.exercise, e.file, e.seed};
}

void finish_grading(ExerciseState& e, Graded graded) {
  if (e.grading && *e.grading == graded.generation) e.grading.reset();
  e.progress.clear();
  e.graded_stamp = graded.stamp;
  e.compiler_messages.clear();
  if (graded.result.status == course::GradeStatus::bad_submission &&
      !graded.result.details.empty()) {
    e.compiler_messages = parse_compiler_messages(graded.result.details, e.file);
  }
  e.case_count = graded.result.cases.empty() ? e.case_count : graded.result.cases.size();
  e.result = std::move(graded.result);
  e.open_case.reset();
}

bool changed_since_graded(const ExerciseState& e) {
  return e.result.has_value() && e.stamp != e.graded_stamp;
}

std::optional<std::size_t> first_failing_case(const ExerciseState& e) {
  if (!e.result || e.result->status != course::GradeStatus::failed) return std::nullopt;
  if (e.result->failure) return e.result->failure->case_index;
  for (std::size_t i = 0; i < e.result->cases.size(); ++i) {
    if (!e.result->cases[i].passed()) return i;
  }
  return std::nullopt;
}

std::optional<CaseRef> case_ref(const ExerciseState& e, std::size_t index) {
  if (!e.result || index >= e.result->cases.size()) return std::nullopt;
  const course::CaseResult& c = e.result->cases[index];
  return CaseRef{e.exercise, e.result->seed, index, c.name, c.schedule, !c.finding.empty()};
}

std::string score_text(const ExerciseState& e) {
  if (e.grading || e.wanted) {
    return "grading: " + std::to_string(e.progress.size()) + " of " + std::to_string(e.case_count) +
           " cases done";
  }
  if (!e.result) return "not graded yet";
  const course::GradeResult& r = *e.result;
  switch (r.status) {
    case course::GradeStatus::passed:
      return "all " + std::to_string(r.cases.size()) + " cases pass";
    case course::GradeStatus::failed:
      return std::to_string(r.cases_passed()) + " of " + std::to_string(r.cases.size()) +
             " cases pass";
    case course::GradeStatus::incomplete:
      return std::to_string(r.cases_passed()) + " of " + std::to_string(r.cases.size()) +
             " cases pass; " + std::to_string(r.cases_incomplete()) +
             " not run (time budget spent, or the machine too busy: not failed)";
    case course::GradeStatus::bad_submission:
      return e.compiler_messages.empty() && r.details.empty() ? "could not be graded"
                                                              : "does not compile";
    case course::GradeStatus::broken_exercise:
      return "the exercise itself is broken";
  }
  return {};
}

int grading_exit_status(const ExerciseState& e) {
  if (!e.result) return 2;
  return course::exit_status(e.result->status);
}

}  // namespace warpsim::gui
