// Classroom exercises as data (lessons/README.md, "Exercises") and their grading: a submission
// runs in the simulator on the exercise's adversarial and seeded random cases, each under several
// block and warp orders and the interleaved convergence policy, and is compared with what the
// exercise's reference solution (solution.cu) computes on the same inputs. Grading is runs and
// comparisons; the CLI and the GUI render the values returned here.
//
//   const ExerciseCatalogue catalogue = load_exercises(default_lessons_dir());
//   const Exercise* exercise = find_exercise(catalogue, "warp-sum");
//   GradeResult result = grade(*exercise, "alice.cu", {.seed = 42});
//   for (const CaseResult& c : result.cases) show(c.name, c.passed(), c.message);
//   if (result.failure) {            // the first failing case, lane by lane
//     show(result.failure->table);   // inputs, expected and got around the first wrong element
//     if (result.failure->step) draw(*result.failure->step);  // StepView, "expected" row included
//   }
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warpsim/device_trace.hpp"
#include "warpsim/expected.hpp"
#include "warpsim/runner.hpp"
#include "warpsim/step_view.hpp"
#include "warpsim/trace_index.hpp"

namespace warpsim::course {

// ---------------------------------------------------------------------------------------------
// The exercise, as exercise.json says it

// Integer arithmetic over named values: + - * / % and parentheses, min(a, b), max(a, b), unary
// minus. Sizes and scalar arguments are written this way ("threads / 32", "n - 1").
struct Expression {
  std::string text;
};
// Evaluates `expr` with `vars`; the error names the unknown name or the malformed text.
Expected<std::int64_t> evaluate(const Expression& expr,
                                const std::map<std::string, std::int64_t>& vars);

// How a buffer's elements are made: a base, then sorting and single elements set. Values are
// numbers or strings the element type reads ("nan", "-0", "inf", "0x7fc00001" for bits).
struct Generator {
  enum class Base : std::uint8_t { fill, list, iota, random, choice };
  Base base = Base::fill;
  std::vector<std::string>
      values;                  // fill: one value; list: cycled to the count; choice: picked from
  double start = 0, step = 1;  // iota: start + i * step; random: low + k * step, k uniform
  double low = 0, high = 0;    // random: values in [low, high] on the grid of `step`
  std::string sort;            // "", "ascending" or "descending"
  std::optional<Expression>
      runs;  // sort each run of this many elements (default: the whole buffer)
  std::vector<std::pair<Expression, std::string>> set;  // (index, value): applied last
};

struct ExerciseParam {
  std::string name;
  runner::ElementType type = runner::ElementType::i32;
  bool is_buffer = false;
  Expression count;      // buffers: the number of elements
  Expression value;      // scalars: the value (floats: an integer expression)
  Generator init;        // buffers: the contents before the launch (default: zeros)
  bool checked = false;  // an output compared with the reference's
  // Checked buffers: compare only the first N elements, N = element 0 of this parameter's buffer as
  // the reference left it (a count the kernel writes); empty: every element.
  std::string length_from;
  // The failing case's table shows this parameter's elements from this index on (32 of them);
  // `i` is the first wrong element of the first checked buffer that differs. Default: 32 * (i /
  // 32).
  Expression window;
};

// A case written out in exercise.json: a launch, values for the variables, generators that
// replace the parameters' defaults.
struct CaseSpec {
  std::string name;
  std::string summary;      // what it is there to catch
  std::string grid, block;  // "X" or "X,Y,Z"; random cases pick from the lists below
  std::vector<std::string> grids, blocks;
  std::vector<std::pair<std::string, Expression>> vars;  // in order
  // Random cases: values drawn per case, from [low, high] or from a list of choices.
  struct RandomVar {
    std::string name;
    Expression low, high;
    std::vector<Expression> choices;  // when not empty: one of these
  };
  std::vector<RandomVar> random_vars;
  std::map<std::string, Generator> inputs;
  std::size_t count = 1;  // random cases: how many to draw
  bool random = false;
};

enum class Comparison : std::uint8_t {
  bits,    // bit for bit
  values,  // floats as numbers: +0 equals -0, any NaN equals any NaN (and ulps below, when set)
};

// A submission that the grader must fail, and how (tests check each one).
struct WrongSolution {
  std::string file;          // in wrong/
  std::string bug;           // what is wrong with it, for instructors
  std::string failing_case;  // the first case that must fail
  std::string message;       // a phrase the failure message must contain
};

// Another right solution (in right/): it must pass, whatever the seed.
struct RightSolution {
  std::string file;
  std::string note;
};

struct Exercise {
  std::string id;      // the folder's name: "warp-sum"
  std::string lesson;  // the lesson folder it belongs to: "04-butterfly-reduction"
  std::filesystem::path dir;
  std::string title, summary, kernel, signature;
  std::string contract;               // what the kernel must compute, which lanes hold what
  std::string inputs;                 // what inputs it will see
  std::vector<std::string> hints;     // unlocked one at a time
  std::vector<ExerciseParam> params;  // in kernel parameter order
  std::vector<std::pair<std::string, Expression>> vars;  // defaults, in order
  std::size_t shared_bytes = 0;
  Comparison comparison = Comparison::bits;
  std::uint64_t tolerance_ulps = 0;
  std::vector<CaseSpec> cases;    // fixed cases then random generators, in file order
  std::uint32_t orders = 2;       // seeded block and warp orders per case (launches of 2+ warps)
  std::uint32_t interleaved = 2;  // runs under the interleaved policy per case
  double time_limit_seconds = 5;  // per run
  // Per run: a runaway loop of warp-level calls stops within a second.
  std::uint64_t max_steps = 200'000;
  std::vector<WrongSolution> wrong;
  std::vector<RightSolution> right;

  std::filesystem::path statement_file() const { return dir / "statement.md"; }
  std::filesystem::path starter_file() const { return dir / "starter.cu"; }
  std::filesystem::path solution_file() const { return dir / "solution.cu"; }
  std::filesystem::path wrong_file(const WrongSolution& w) const { return dir / "wrong" / w.file; }
  std::filesystem::path right_file(const RightSolution& r) const { return dir / "right" / r.file; }
  const ExerciseParam* param(std::string_view name) const;  // nullptr when there is none
};

// Reads and checks one exercise folder (exercise.json, statement.md, starter.cu, solution.cu,
// the wrong/ and right/ files it lists); the error names the file and the field.
Expected<Exercise> load_exercise(const std::filesystem::path& dir);

struct ExerciseCatalogue {
  std::vector<Exercise> exercises;  // in lesson order, then folder order
  std::vector<Error> problems;      // folders that did not load
};
// Every lessons/<lesson>/exercises/<id>/ folder.
ExerciseCatalogue load_exercises(const std::filesystem::path& lessons_dir);
// The exercises of every folder in `roots` (lesson_folders()): a folder holding exercise.json is
// one exercise, one holding exercises/ a lesson's, any other a folder of lessons. An id taken
// already is a problem, named with both folders.
ExerciseCatalogue load_exercises(const std::vector<std::filesystem::path>& roots);
const Exercise* find_exercise(const ExerciseCatalogue& catalogue, std::string_view id);

// ---------------------------------------------------------------------------------------------
// Cases and schedules

// One case made concrete: a launch and every argument's bits.
struct GradeCase {
  std::string name;  // "tail-17", "random-2"
  std::string summary;
  bool random = false;
  Dim3 grid{}, block{};
  std::map<std::string, std::int64_t> vars;  // threads, warps, blocks, block, and the case's own
  std::vector<runner::ArgSpec> args;         // one per parameter, buffers as lists of bits
  std::uint64_t warps() const;               // warps of the launch
};

// The seed an exercise is graded with unless another is asked for: fixed per exercise (from its
// id), so that partial scores are the same from one grading to the next.
std::uint64_t default_seed(const Exercise& exercise);

// Every case of `exercise` for `seed`: the fixed cases as written, then the random generators'
// draws (the same seed draws the same inputs on every machine).
Expected<std::vector<GradeCase>> make_cases(const Exercise& exercise, std::uint64_t seed);

// How one run is scheduled.
struct Schedule {
  std::string name;  // "in order", "order 2", "interleaved 1"
  ConvergencePolicy policy = ConvergencePolicy::maximal;
  std::uint64_t seed = 1;        // the interleaved policy's order
  std::uint64_t order_seed = 0;  // block and warp order (0: in order)
};
// In order first, then `exercise.orders` seeded orders (only where the launch has several warps),
// then `exercise.interleaved` interleaved runs (in seeded orders too, with several warps).
std::vector<Schedule> schedules_for(const Exercise& exercise, const GradeCase& grade_case,
                                    std::uint64_t seed, std::size_t case_index);
// The run of `file` (the submission, or the reference solution) on one case under one schedule,
// with the exercise's shared memory, step and time limits.
runner::KernelFileRequest request_for_case(const Exercise& exercise,
                                           const std::filesystem::path& file,
                                           const GradeCase& grade_case, const Schedule& schedule,
                                           bool record_steps);

// ---------------------------------------------------------------------------------------------
// Grading one submission

// The reference solution's runs, by exercise, seed and case: gradings of the same exercise with
// the same seed (a class, a test suite) share them instead of running the reference again.
// Safe to share between threads (grade_class grades several submissions at once).
class ReferenceRuns {
 public:
  const runner::KernelFileResult* find(const std::string& key) const;
  const runner::KernelFileResult& add(std::string key, runner::KernelFileResult result);
  // The run stored under `key`, made by `run` the first time (once, whichever thread asks first;
  // the others wait for it).
  const runner::KernelFileResult& run_once(const std::string& key,
                                           const std::function<runner::KernelFileResult()>& run);

 private:
  struct Entry {
    std::once_flag once;
    bool done = false;
    runner::KernelFileResult result;
  };
  mutable std::mutex mutex_;
  std::map<std::string, std::unique_ptr<Entry>> runs_;
};

enum class CaseOutcome : std::uint8_t {
  passed,
  wrong_output,  // completed without diagnostics, but a checked buffer differs
  misuse,        // completed with a diagnostic (mask misuse, an undefined read, ...)
  stopped,       // deadlock, runaway, crash or time limit (the sandbox's stops among them)
  // Not run: the time budget was spent, or an earlier case ran away. Never a failure: the
  // submission's grade is not known for it (GradeStatus::incomplete when nothing failed).
  incomplete,
};
std::string_view to_string(CaseOutcome outcome);

struct CaseResult {
  std::string name, summary;
  bool random = false;
  std::string launch;  // "grid 3, block 128, n = 384"
  CaseOutcome outcome = CaseOutcome::passed;
  std::string schedule;  // the run that failed ("in order", "order 2", ...)
  std::string message;   // one line: why it failed (empty when it passed)
  std::string headline;  // the same, short, for a table of cases
  // The failing run once more under the race, uninitialised-read and bounds checks (`warpsim run
  // --check all`): what they found, in the checker's words ("data race on sdata[3] ..."), which
  // message and headline then lead with; empty when they found nothing (or did not run).
  std::string finding;
  std::size_t runs = 0;  // runs made of the submission (the checked run not counted)
  double seconds = 0;
  std::string gpu;       // with a GPU: "agrees", or why it was not run there; empty without one
  bool passed() const { return outcome == CaseOutcome::passed; }
  bool incomplete() const { return outcome == CaseOutcome::incomplete; }
  bool failed() const { return !passed() && !incomplete(); }
};

struct GradeOptions {
  std::uint64_t seed = 1;  // grading_options gives default_seed(exercise)
  // Stop once this much wall time is spent (a kernel that crawls without hanging); the cases
  // left are not run: incomplete, not failed.
  double budget_seconds = 60;
  // The sandbox of the submission's compile and runs (the reference solution's run outside it).
  // When active, grade() gives each submission its own scratch folder (removed afterwards) and
  // adds to `hidden` the exercise's lessons folder and the submission's folder, and to `visible`
  // the submission itself. Inactive (the default): the submission runs with the user's rights.
  runner::Sandbox sandbox{};
  bool detail = true;  // work out the first failing case's table and step (one more run)
  // Each failing case's run again under the memory checks, to name the bug (CaseResult::finding):
  // a second, instrumented compile of a submission that fails.
  bool check_failures = true;
  std::optional<double> time_limit_seconds{};  // per run, instead of the exercise's
  ReferenceRuns* references = nullptr;         // shared reference runs (none: each grading its own)
  std::size_t jobs = 0;  // grade_class: submissions graded at once (0: one per core)
  // Called after each case (from the grading thread), for progress in a view.
  std::function<void(const CaseResult&)> on_case{};
  // The GPU, when there is one: runs the same launch on the device (with the simulator's initial
  // buffers; `sim` was run with keep_initial_buffers) and returns what it did. Each case that
  // passes in the simulator then also runs there and must give the expected outputs, so that a
  // submission right only in the simulator fails too. Empty: simulator only.
  std::function<Expected<GpuRun>(const runner::KernelFileRequest& request,
                                 const runner::KernelFileResult& sim)>
      gpu{};
};

// One row of the failing case's table: elements `first` .. `first + cells.size() - 1` of a
// parameter: an input as it was before the launch, or a checked output as expected and as got.
struct ElementRow {
  enum class Kind : std::uint8_t { input, expected, got };
  Kind kind = Kind::input;
  std::string label;  // "in", "out expected", "out got"
  std::size_t arg = 0;
  std::uint64_t first = 0;
  std::vector<std::string> cells;
  std::vector<bool> differs;  // got rows: the element differs from the expected one
};

// The first failing case, lane by lane.
struct FailureDetail {
  std::size_t case_index = 0;  // into GradeResult::cases
  GradeCase grade_case;
  Schedule schedule;
  runner::KernelFileResult submission;  // the failing run again, steps recorded
  bool checked = false;  // ... under the memory checks: their findings among its diagnostics
  runner::KernelFileResult reference;   // the reference on the same case, steps recorded
  TraceIndex index;                     // over submission.trace
  // The first wrong element: (parameter index, element index); none when the outputs matched
  // (a diagnostic or a stop failed the case).
  std::optional<std::pair<std::size_t, std::uint64_t>> first_wrong;
  std::vector<ElementRow> table;
  // The step to look at: the first diagnostic's, else the first whose values differ from the
  // reference's at the same call of the same lanes. Its `other` row holds what the reference's
  // lanes received there (label "expected"), where the two line up.
  std::optional<StepView> step;
  std::string step_reason;  // why this step, or why there is none, in a sentence
  std::string source_line;  // the submission's text at the step's line
};

enum class GradeStatus : std::uint8_t {
  passed,
  failed,
  incomplete,       // no case failed, but some did not run (the time budget was spent)
  bad_submission,   // no such file, it did not compile, the kernel or its parameters do not fit
  broken_exercise,  // the reference solution failed on a case (the exercise's fault)
};
std::string_view to_string(GradeStatus status);
// `warpsim grade`'s exit status (and the GUI's headless grading's): 0 passed, 1 failed, 2 not
// gradable (bad submission, broken exercise), 3 incomplete (nothing failed, some cases not run).
int exit_status(GradeStatus status);

struct GradeResult {
  std::string exercise;    // its id
  std::string submission;  // the file as given
  // How a rerun command names the exercise: as the command was given it (a folder, or an id);
  // empty: its id.
  std::string exercise_named_as;
  std::uint64_t seed = 0;
  GradeStatus status = GradeStatus::failed;
  std::string message;  // bad_submission / broken_exercise: one line
  std::string details;  // the compiler's output, when it did not compile
  std::vector<CaseResult> cases;
  std::optional<FailureDetail> failure;
  double seconds = 0;
  double budget_seconds = 0;  // the time budget it was graded with
  std::string sandbox;        // what isolated it: runner::describe of the sandbox used
  bool passed() const { return status == GradeStatus::passed; }
  std::size_t cases_passed() const;
  std::size_t cases_failed() const;
  std::size_t cases_incomplete() const;
  // Cases passed over cases in all (0 with no cases): stable for a seed, as long as no case is
  // incomplete.
  double score() const;
};

GradeResult grade(const Exercise& exercise, const std::filesystem::path& submission,
                  const GradeOptions& options = {});

// Any case of a grading lane by lane (a view that shows a case other than the first failing
// one): case `case_index` of make_cases(exercise, seed), run by the submission under `schedule`
// and by the reference in order, both with steps. The error: no such case, or the exercise's
// cases cannot be made.
// `sandbox`: where the submission runs (grading_sandbox's; inactive: as the user). `checked`:
// its steps recorded under the memory checks (the case's CaseResult::finding is not empty), so
// that the race or uninitialised read they found is among the run's diagnostics.
Expected<FailureDetail> explain_case(const Exercise& exercise,
                                     const std::filesystem::path& submission, std::uint64_t seed,
                                     std::size_t case_index, const Schedule& schedule,
                                     const runner::Sandbox& sandbox = {}, bool checked = false);

// What the reference's lanes received at the same call as `step` of the submission's run: each
// lane's k-th warp-level call against the reference lane's k-th call, where both are the same
// intrinsic on the same type (else nullopt: the two kernels do different things there). The
// "expected" row of FailureDetail::step, for any step of a case (a view stepping through one).
std::array<std::optional<std::uint64_t>, kWarpSize> expected_outputs(const Trace& submission,
                                                                     const TraceIndex& index,
                                                                     std::size_t step,
                                                                     const Trace& reference);

// ---------------------------------------------------------------------------------------------
// Grading a class: a folder of submissions, one file per student or one folder each

struct Submission {
  std::string student;  // the file's name without .cu, or the folder's name
  std::filesystem::path file;
  std::string problem;  // why it could not be graded at all (no .cu in the folder, several)
  std::filesystem::path folder;  // one folder per student: the student's; else empty
};
// The submissions in `dir`, by student name: every *.cu file, and every folder holding exactly
// one .cu file (or a file named like the exercise's starter, starter.cu / solution.cu aside).
std::vector<Submission> find_submissions(const std::filesystem::path& dir);

struct StudentGrade {
  Submission submission;
  GradeResult result;
};
// Each submission graded with the same seed; a submission that crashes, hangs or does not
// compile fails its own row only. With an active options.sandbox, the submissions' folder is
// hidden from each, all but its own file or folder; a submission that is a link to a file
// outside its folder is not graded. class_jobs(options) submissions are graded at once (each
// compiled once, its cases run one after another); `on_graded` is called as each is done (index
// into `submissions`), one call at a time, from the grading threads. The grades come back in the
// order of `submissions`.
std::vector<StudentGrade> grade_class(
    const Exercise& exercise, const std::vector<Submission>& submissions,
    const GradeOptions& options = {},
    const std::function<void(std::size_t, const StudentGrade&)>& on_graded = {});
// How many submissions grade_class grades at once: options.jobs, or one per core (0), at most
// one per submission.
std::size_t class_jobs(const GradeOptions& options, std::size_t submissions);

// ---------------------------------------------------------------------------------------------
// How a student's work is graded, one way for `warpsim grade` and the GUI's Grade

// `--sandbox MODE`: auto (the strongest this machine can make: bwrap, else namespaces, else
// limits), bwrap, namespaces, limits or none. `private_files`: what the grading writes (CSV,
// reports), hidden from every submission. The error: no such mode, or the machine cannot make it.
Expected<runner::Sandbox> grading_sandbox(std::string_view mode,
                                          const std::vector<std::string>& private_files = {});

struct GradeSettings {
  std::optional<std::uint64_t> seed;  // none: default_seed(exercise)
  std::string sandbox = "auto";       // as grading_sandbox takes it
  double budget_seconds = GradeOptions{}.budget_seconds;
  std::optional<double> time_limit_seconds{};
  std::vector<std::string> private_files;
};
// The options every grading of `exercise` starts from (a view adds its progress callback, the
// CLI its GPU): the exercise's fixed seed unless settings give one, the sandbox settings name.
Expected<GradeOptions> grading_options(const Exercise& exercise, const GradeSettings& settings = {});

// ---------------------------------------------------------------------------------------------
// Checking an exercise before students see it (`warpsim exercises --verify DIR`, and the tests of
// the repository's own)

struct ExerciseCheck {
  std::string what;  // "the reference solution passes", "wrong/no-sync.cu fails on case block-256"
  std::string file;  // the file graded
  bool ok = false;
  bool incomplete = false;  // not ok only because cases did not run (time budget): rerun it
  std::string detail;  // why not, or the message the check looked at
};
// The reference solution passes, the starter does not, each wrong/ file fails on the case it
// names with the words it names, each right/ file passes: all graded with `options` (their seed;
// the sandbox too, where one is given). In that order.
std::vector<ExerciseCheck> verify_exercise(const Exercise& exercise, const GradeOptions& options);

// The hints unlocked so far: hints 1..n (n is clamped to the number of hints).
std::vector<std::string> hints_up_to(const Exercise& exercise, std::size_t n);

}  // namespace warpsim::course
