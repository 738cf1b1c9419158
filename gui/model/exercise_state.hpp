// An exercise open in the GUI (lessons/README.md, "Exercises"): its task, the file graded (the
// student edits it in their own editor: each grading reads it from disk again), the last
// grading's result as course::grade returns it, the cases as they come in while a grading runs
// on the worker thread, the hints asked for, and the case stepped through lane by lane. Grading
// itself is course's; this is the state around it. Plain C++ (tests/gui/exercise_test.cpp).
//
//   ExerciseState e = *open_exercise(catalogue, "warp-sum", "alice.cu");
//   e.wanted = grading_job(e, generation);        // apply(Grade{}) does this
//   Graded g = run_grading(*e.wanted, on_case);   // on the worker thread
//   finish_grading(e, std::move(g));              // the result, the compiler's messages
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/compiler_messages.hpp"
#include "model/file_stamp.hpp"
#include "warpsim/expected.hpp"
#include "warpsim/grading.hpp"

namespace warpsim::gui {

// A grading for the worker thread.
struct GradingJob {
  std::uint64_t generation = 0;
  std::shared_ptr<const course::Exercise> exercise;
  std::string file;
  std::uint64_t seed = 1;
};

// A grading that came back.
struct Graded {
  std::uint64_t generation = 0;
  FileStamp stamp;  // the file's, when the grading began (a change during it still shows)
  course::GradeResult result;
};

// Grades the job's file as `warpsim grade` does (course::grading_options: its sandbox, and the
// job's seed, the exercise's default); blocks: the worker thread calls it. `on_case` after each
// case.
Graded run_grading(const GradingJob& job,
                   const std::function<void(const course::CaseResult&)>& on_case = {});

// A case of a grading, to be stepped through: course::explain_case runs the file on it (and the
// reference solution, whose lanes' values become each step's "expected" row).
struct CaseRef {
  std::shared_ptr<const course::Exercise> exercise;
  std::uint64_t seed = 1;
  std::size_t index = 0;  // into the grading's cases
  std::string name;       // "several-blocks"
  std::string schedule;   // the run that failed ("order 2"); empty: in order
  bool checked = false;   // run under the memory checks: they named the case's bug
  friend bool operator==(const CaseRef& a, const CaseRef& b) {
    return a.exercise == b.exercise && a.seed == b.seed && a.index == b.index &&
           a.schedule == b.schedule;
  }
};
// The schedule named `name` among the case's (course::schedules_for), else the case's first (in
// order); an error when the exercise's cases cannot be made or there is no such case.
Expected<course::Schedule> schedule_named(const course::Exercise& exercise, std::uint64_t seed,
                                          std::size_t case_index, const std::string& name);
// "Warp sum · case several-blocks (order 2)"
std::string case_title(const CaseRef& ref);

struct ExerciseState {
  std::shared_ptr<const course::Exercise> exercise;
  std::string file;       // the file graded: the student's, or the exercise's starter
  bool starter = false;   // file is the exercise's own starter.cu
  std::string statement;  // statement.md, as written
  std::uint64_t seed = 1;  // course::default_seed of the exercise: `warpsim grade`'s seed

  // The file as it is on disk now: what the source view shows while no case is open.
  std::vector<std::string> source_lines;
  FileStamp stamp;
  double changed_at = -1;  // when it was last seen to change (-1: not since it was opened)

  std::optional<GradingJob> wanted;  // a grading apply() asked for; the app hands it to its worker
  std::optional<std::uint64_t> grading;  // the generation in flight
  double grading_since = 0;
  std::vector<course::CaseResult> progress;  // the cases graded so far, while grading
  std::size_t case_count = 0;                // how many cases the grading has

  std::optional<course::GradeResult> result;       // the last grading
  FileStamp graded_stamp;                          // the file's stamp when it was graded
  std::vector<CompilerMessage> compiler_messages;  // the last grading's, when it did not compile
  std::size_t hints = 0;                           // hints unlocked
  std::optional<std::size_t> open_case;            // the case shown lane by lane
};

// The exercise `id` (an id of the catalogue, or an exercise folder) with `file` graded (empty:
// its starter). Errors: no such exercise (the message lists them), no such file.
Expected<ExerciseState> open_exercise(const course::ExerciseCatalogue& catalogue,
                                      const std::string& id, const std::string& file);
// Grading the starter: copies it to DIR/<kernel>.cu (warp_sum.cu) and grades that from now on; a
// file already there is the student's own: it is graded, not overwritten. What happened, in a
// sentence, or why it could not (not grading the starter, the copy failed).
Expected<std::string> use_own_copy(ExerciseState& e, const std::string& dir);
// Reads the file again when its stamp changed; whether it did.
bool reread_file(ExerciseState& e, double now);
// The next grading of the file as it is now.
GradingJob grading_job(const ExerciseState& e, std::uint64_t generation);
// A grading came back: keeps its result, parses the compiler's messages.
void finish_grading(ExerciseState& e, Graded graded);
// Whether the file changed since it was last graded.
bool changed_since_graded(const ExerciseState& e);
// The case the student should look at first: the grading's first failure (none when it passed or
// the file did not compile).
std::optional<std::size_t> first_failing_case(const ExerciseState& e);
// The case `index` of the last grading, as a reference to open.
std::optional<CaseRef> case_ref(const ExerciseState& e, std::size_t index);
// "7 of 12 cases pass", "grading: 3 of 12 cases ...", "does not compile".
std::string score_text(const ExerciseState& e);
// The exit status of a headless grading, as `warpsim grade` has it: 0 passed, 1 failed, 2 the
// file could not be graded (or no grading came back).
int grading_exit_status(const ExerciseState& e);

}  // namespace warpsim::gui
