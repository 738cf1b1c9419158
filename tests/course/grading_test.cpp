// Exercises and grading: exercise.json loads as typed data; cases are made the same way for the
// same seed; every exercise's reference solution passes, its starter fails, each wrong variant
// fails on the case and with the words its exercise.json names, each right variant passes; the
// first failing case is explained lane by lane.
//
// WARPSIM_EXERCISE=<id> limits the per-exercise checks to one exercise (CTest runs one process
// per exercise, so that they share the machine's cores).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "support/kernel_cache.hpp"
#include "warpsim/course.hpp"
#include "warpsim/grading.hpp"

namespace fs = std::filesystem;
using namespace warpsim;
using namespace warpsim::course;

namespace {

const fs::path kLessons = fs::path(WARPSIM_SOURCE_DIR) / "lessons";
constexpr std::uint64_t kSeed = 20261123;

const ExerciseCatalogue& catalogue() {
  static const ExerciseCatalogue loaded = load_exercises(kLessons);
  return loaded;
}

const Exercise& exercise(std::string_view id) {
  const Exercise* e = find_exercise(catalogue(), id);
  REQUIRE_MESSAGE(e != nullptr, "no exercise " << id);
  return *e;
}

bool selected(const Exercise& e) {
  const char* only = std::getenv("WARPSIM_EXERCISE");
  return only == nullptr || e.id == only;
}

// The tests that grade no lesson exercise run once: without WARPSIM_EXERCISE, or with "none".
bool general() {
  const char* only = std::getenv("WARPSIM_EXERCISE");
  return only == nullptr || std::string_view(only) == "none";
}

const CaseResult* case_named(const GradeResult& r, std::string_view name) {
  for (const CaseResult& c : r.cases) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

std::string summary(const GradeResult& r) {
  std::string text = std::string(to_string(r.status)) + " " + r.message + "\n";
  for (const CaseResult& c : r.cases) {
    text += "  " + c.name + ": " + std::string(to_string(c.outcome)) + " [" + c.schedule + "] " +
            c.message + "\n";
  }
  return text;
}

// An exercise folder in the build tree from its JSON and a kernel file.
fs::path scratch_exercise(const std::string& name, const std::string& json,
                          const std::string& kernel) {
  const fs::path dir =
      fs::path(WARPSIM_BINARY_DIR) / "tests" / "course" / "scratch-exercises" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "exercise.json") << json;
  for (const char* file : {"solution.cu", "starter.cu"}) std::ofstream(dir / file) << kernel;
  std::ofstream(dir / "statement.md") << "# " << name << "\n";
  return dir;
}

const char* kDoubleKernel =
    "__global__ void twice(const int* in, int* out, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) out[i] = 2 * in[i];\n"
    "}\n";

std::string double_json(const std::string& extra = "") {
  return R"J({"id": "twice", "title": "t", "lesson": "none", "summary": "s",
    "kernel": "twice", "signature": "__global__ void twice(const int* in, int* out, int n)",
    "contract": "c", "inputs": "i", "hints": ["one", "two"],
    "params": [{"name": "in", "type": "i32", "count": "n", "init": {"random": [-9, 9]}},
               {"name": "out", "type": "i32", "count": "n", "check": true},
               {"name": "n", "type": "i32", "value": "n"}],
    "vars": {"n": "threads - 3"},
    "cases": [{"name": "small", "grid": "1", "block": "32"}],
    "random": [{"name": "random", "count": 3, "grid": ["1", "2"], "block": ["32", "64"],
                "vars": {"n": {"random": [1, "threads"]}}}])J" +
         extra + "}";
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

const std::string kRandomInit = R"({"random": [-9, 9]})";

}  // namespace

TEST_CASE(
    "expressions: + - * / %, parentheses, min and max over named values; errors say what is "
    "wrong") {
  if (!general()) return;
  const std::map<std::string, std::int64_t> vars{{"threads", 96}, {"n", 17}};
  const auto eval = [&](const char* text) { return evaluate({text}, vars); };
  CHECK(*eval("threads / 32") == 3);
  CHECK(*eval("32 * (n / 32) + n % 32") == 17);
  CHECK(*eval("-n + 2 * 3") == -11);
  CHECK(*eval("min(n, 5) + max(threads, 1000)") == 1005);
  CHECK(*eval(" 7 ") == 7);
  CHECK(eval("m + 1").error().message.find("unknown name 'm'") != std::string::npos);
  CHECK(eval("n / (n - 17)").error().message.find("division by zero") != std::string::npos);
  CHECK(eval("(n + 1").error().message.find("missing ')'") != std::string::npos);
  CHECK(eval("n n").error().message.find("unexpected") != std::string::npos);
}

TEST_CASE("an exercise folder loads; a malformed one is refused with the file and the field") {
  if (!general()) return;
  const fs::path dir = scratch_exercise("twice", double_json(), kDoubleKernel);
  auto e = load_exercise(dir);
  REQUIRE_MESSAGE(e, (e ? "" : e.error().message));
  CHECK(e->id == "twice");
  CHECK(e->params.size() == 3);
  CHECK(e->params[1].checked);
  CHECK(e->hints.size() == 2);
  CHECK(hints_up_to(*e, 1) == std::vector<std::string>{"one"});
  CHECK(hints_up_to(*e, 9).size() == 2);
  CHECK(e->cases.size() == 2);
  CHECK(e->cases[1].random);
  CHECK(e->cases[1].count == 3);

  struct Row {
    const char* what;
    std::string json;
    const char* reason;
  };
  const Row rows[] = {
      {"unknown field", double_json(R"(, "tolerance": 3)"), "unknown field \"tolerance\""},
      {"ulps without values", double_json(R"(, "tolerance_ulps": 3)"),
       "goes with \"compare\": \"values\""},
      {"bad generator", replaced(double_json(), kRandomInit, R"({"fill": 1, "iota": 0})"),
       "exactly one of"},
      {"unknown name", replaced(double_json(), "threads - 3", "thread - 3"),
       "unknown name 'thread'"},
      {"wrong file missing",
       double_json(
           R"(, "wrong": [{"file": "x.cu", "bug": "b", "fails": "small", "message": "m"}])"),
       "no file wrong/x.cu"},
  };
  for (const Row& row : rows) {
    CAPTURE(row.what);
    const fs::path bad = scratch_exercise("twice", row.json, kDoubleKernel);
    auto loaded = load_exercise(bad);
    REQUIRE_FALSE(loaded);
    CHECK_MESSAGE(loaded.error().message.find(row.reason) != std::string::npos,
                  loaded.error().message);
    CHECK(loaded.error().message.find("exercise.json") != std::string::npos);
  }
}

TEST_CASE("cases: sizes come from the launch; fixed cases ignore the seed, random ones follow it") {
  if (!general()) return;
  const fs::path dir = scratch_exercise("twice", double_json(), kDoubleKernel);
  const Exercise e = *load_exercise(dir);
  const auto a = make_cases(e, 1), b = make_cases(e, 1), c = make_cases(e, 2);
  REQUIRE(a);
  REQUIRE(a->size() == 4);
  const GradeCase& small = (*a)[0];
  CHECK(small.vars.at("threads") == 32);
  CHECK(small.vars.at("n") == 29);
  CHECK(small.args[0].count == 29);
  CHECK(small.args[2].scalar_bits == 29);
  for (const std::uint64_t bits : small.args[0].list) {
    const auto v = static_cast<std::int32_t>(bits);
    CHECK(v >= -9);
    CHECK(v <= 9);
  }
  CHECK((*a)[0].args[0].list == (*c)[0].args[0].list);  // fixed: the same for every seed
  bool same_random = true, differs = false;
  for (std::size_t i = 1; i < 4; ++i) {
    same_random =
        same_random && (*a)[i].args[0].list == (*b)[i].args[0].list && (*a)[i].grid == (*b)[i].grid;
    differs = differs || (*a)[i].args[0].list != (*c)[i].args[0].list;
    CHECK((*a)[i].name == "random-" + std::to_string(i));
    CHECK((*a)[i].vars.at("n") >= 1);
    CHECK((*a)[i].vars.at("n") <= (*a)[i].vars.at("threads"));
  }
  CHECK(same_random);
  CHECK(differs);
}

TEST_CASE(
    "generators: fill, list, iota, random on a grid of steps, choice, sorted runs, single elements "
    "set") {
  if (!general()) return;
  const auto with_init = [&](const std::string& init) {
    const fs::path d =
        scratch_exercise("twice", replaced(double_json(), kRandomInit, init), kDoubleKernel);
    auto e = load_exercise(d);
    REQUIRE_MESSAGE(e, (e ? "" : e.error().message));
    auto cases = make_cases(*e, 5);
    REQUIRE_MESSAGE(cases, (cases ? "" : cases.error().message));
    std::vector<std::int32_t> values;
    for (const std::uint64_t bits : (*cases)[0].args[0].list)
      values.push_back(static_cast<std::int32_t>(bits));
    return values;  // 29 elements
  };
  CHECK(with_init(R"({"fill": -4})") == std::vector<std::int32_t>(29, -4));
  const auto list = with_init(R"({"list": [1, 2, 3]})");
  CHECK(list[0] == 1);
  CHECK(list[4] == 2);
  const auto iota = with_init(R"({"iota": 10, "step": -2})");
  CHECK(iota[0] == 10);
  CHECK(iota[28] == 10 - 56);
  for (const std::int32_t v : with_init(R"({"random": [-100, 100], "step": 25})"))
    CHECK(v % 25 == 0);
  for (const std::int32_t v : with_init(R"({"choice": [7, 9]})")) CHECK((v == 7 || v == 9));
  const auto sorted = with_init(R"({"random": [-50, 50], "sort": "descending", "runs": 8})");
  for (std::size_t i = 1; i < sorted.size(); ++i) {
    if (i % 8 != 0) CHECK(sorted[i - 1] >= sorted[i]);
  }
  const auto set = with_init(R"({"fill": 0, "set": {"n - 1": 5, "3": -1}})");
  CHECK(set[28] == 5);
  CHECK(set[3] == -1);
}

TEST_CASE(
    "schedules: in order first; seeded orders only where the launch has several warps; seeds never "
    "0") {
  if (!general()) return;
  const Exercise& e = exercise("warp-sum");
  GradeCase one_warp;
  one_warp.grid = {1};
  one_warp.block = {32};
  GradeCase two_blocks = one_warp;
  two_blocks.grid = {2};
  const std::vector<Schedule> one = schedules_for(e, one_warp, 9, 0);
  const std::vector<Schedule> two = schedules_for(e, two_blocks, 9, 0);
  REQUIRE(one.size() == 1 + e.interleaved);
  REQUIRE(two.size() == 1 + e.orders + e.interleaved);
  CHECK(one[0].name == "in order");
  CHECK(one[0].order_seed == 0);
  CHECK(one[1].policy == ConvergencePolicy::interleaved);
  CHECK(one[1].order_seed == 0);  // one warp: no order to change
  for (std::size_t i = 1; i < two.size(); ++i) {
    CHECK(two[i].order_seed != 0);
    CHECK(two[i].order_seed != two[i == 1 ? 2 : 1].order_seed);
  }
  CHECK(schedules_for(e, two_blocks, 10, 0)[1].order_seed != two[1].order_seed);
}

TEST_CASE(
    "every lesson exercise loads: at least 14, each with a lesson, hints, two wrong variants, one "
    "right") {
  if (!general()) return;
  for (const Error& problem : catalogue().problems) FAIL_CHECK(problem.message);
  CHECK(catalogue().exercises.size() >= 14);
  const Catalogue lessons = load_catalogue(kLessons);
  for (const Exercise& e : catalogue().exercises) {
    CAPTURE(e.id);
    CHECK(find_lesson(lessons, e.lesson) != nullptr);
    CHECK(e.hints.size() >= 2);
    CHECK(e.wrong.size() >= 2);
    CHECK(e.right.size() >= 1);
    const auto starter = runner::read_text_file(e.starter_file().string());
    REQUIRE(starter);
    CHECK(starter->find("TODO") != std::string::npos);
    CHECK(starter->find("Reference solution") == std::string::npos);
  }
  // Instructors rely on these ids and signatures.
  const std::map<std::string, std::string> fixed{
      {"warp-sum", "__global__ void warp_sum(const float* in, float* out, int n)"},
      {"inclusive-scan", "__global__ void inclusive_scan(const int* in, int* out)"},
      {"ballot-compact",
       "__global__ void ballot_compact(const int* in, int* out, int* count, int n)"},
      {"bitonic-sort", "__global__ void bitonic_sort(int* keys)"},
      {"mask-repair", "__global__ void tail_sum(const float* in, float* out, int n)"},
  };
  for (const auto& [id, signature] : fixed) {
    CAPTURE(id);
    CHECK(exercise(id).signature == signature);
    const auto solution = runner::read_text_file(exercise(id).solution_file().string());
    CHECK(solution->find(signature.substr(0, signature.find('('))) != std::string::npos);
  }
}

TEST_CASE(
    "every exercise: the reference passes, the starter fails, wrong variants fail where and as "
    "named, right ones pass") {
  warpsim::test::use_test_kernel_cache();
  for (const Exercise& e : catalogue().exercises) {
    if (!selected(e)) continue;
    CAPTURE(e.id);
    ReferenceRuns references;
    GradeOptions options{.seed = kSeed, .detail = false, .references = &references};

    const GradeResult solution = grade(e, e.solution_file(), options);
    CHECK_MESSAGE(solution.passed(), summary(solution));

    const GradeResult starter = grade(e, e.starter_file(), options);
    CHECK_MESSAGE(starter.status == GradeStatus::failed, summary(starter));

    for (const WrongSolution& w : e.wrong) {
      CAPTURE(w.file);
      const GradeResult r = grade(e, e.wrong_file(w), options);
      REQUIRE_MESSAGE(r.status == GradeStatus::failed, summary(r));
      const CaseResult* c = case_named(r, w.failing_case);
      REQUIRE(c != nullptr);
      CHECK_MESSAGE(!c->passed(), summary(r));
      CHECK_MESSAGE(c->message.find(w.message) != std::string::npos, summary(r));
    }
    for (const RightSolution& right : e.right) {
      CAPTURE(right.file);
      const GradeResult r = grade(e, e.right_file(right), options);
      CHECK_MESSAGE(r.passed(), summary(r));
    }
  }
}

TEST_CASE(
    "order and lockstep: right solutions pass under other seeds, order-dependent ones fail under "
    "every seed") {
  warpsim::test::use_test_kernel_cache();
  for (const char* id : {"ballot-compact", "block-reduction", "inclusive-scan"}) {
    const Exercise& e = exercise(id);
    if (!selected(e)) continue;
    CAPTURE(e.id);
    for (const std::uint64_t seed : {1u, 2u, 3u}) {
      CAPTURE(seed);
      GradeOptions options{.seed = seed, .detail = false};
      for (const RightSolution& right : e.right) {
        CAPTURE(right.file);
        const GradeResult r = grade(e, e.right_file(right), options);
        CHECK_MESSAGE(r.passed(), summary(r));
      }
      if (e.id == "ballot-compact") {
        // Right in order, wrong whenever a later warp's atomic runs first.
        const GradeResult r = grade(e, e.dir / "wrong" / "atomic-offsets.cu", options);
        REQUIRE(r.status == GradeStatus::failed);
        const CaseResult* c = case_named(r, "several-warps");
        REQUIRE(c != nullptr);
        CHECK(c->outcome == CaseOutcome::wrong_output);
        CHECK(c->schedule != "in order");
        CHECK(c->message.find("depends on the order") != std::string::npos);
      }
      if (e.id == "inclusive-scan") {
        const GradeResult r = grade(e, e.dir / "wrong" / "shared-no-syncwarp.cu", options);
        CHECK(r.status == GradeStatus::failed);
      }
    }
  }
}

TEST_CASE(
    "the first failing case is explained lane by lane: its elements, the step where it departs, "
    "that step's line") {
  warpsim::test::use_test_kernel_cache();
  const Exercise& scan = exercise("inclusive-scan");
  if (!selected(scan)) return;
  const GradeResult r = grade(scan, scan.dir / "wrong" / "off-by-one.cu", {.seed = kSeed});
  REQUIRE(r.failure);
  const FailureDetail& f = *r.failure;
  CHECK(r.cases.at(f.case_index).name == "one-warp");
  REQUIRE(f.first_wrong);
  CHECK(f.first_wrong->first == 1);   // out
  CHECK(f.first_wrong->second == 1);  // lane 1 misses lane 0
  REQUIRE(f.table.size() == 3);       // in, out expected, out got
  CHECK(f.table[0].kind == ElementRow::Kind::input);
  CHECK(f.table[1].kind == ElementRow::Kind::expected);
  CHECK(f.table[2].kind == ElementRow::Kind::got);
  CHECK(f.table[2].cells.size() == 32);
  CHECK_FALSE(f.table[2].differs[0]);
  CHECK(f.table[2].differs[1]);
  // The same shuffles as the reference: the first step whose results differ, with the reference's.
  REQUIRE(f.step);
  CHECK(f.step->name == "__shfl_up_sync");
  CHECK(f.step->has_other);
  CHECK(f.step_reason.find("passes in another value") != std::string::npos);
  CHECK(f.source_line.find("__shfl_up_sync") != std::string::npos);
  CHECK(f.submission.trace.steps.size() > 0);

  // Misuse: the step of the first diagnostic.
  const Exercise& sum = exercise("warp-sum");
  const GradeResult mask = grade(sum, sum.dir / "wrong" / "narrowing-mask.cu", {.seed = kSeed});
  REQUIRE(mask.failure);
  REQUIRE(mask.failure->step);
  CHECK(mask.failure->step_reason.find("caller_not_in_mask") != std::string::npos);
  CHECK(mask.failure->step->mask == 0x0000ffffu);
  CHECK(mask.cases.front().outcome == CaseOutcome::misuse);
  CHECK(mask.cases.front().message.find("the outputs match the reference's") != std::string::npos);

  // Every call matches: the difference is in what reaches memory, where blocks race on out[0]:
  // the step shown is the last one before the racing write (the checked rerun's), in the warp
  // that makes it.
  const GradeResult store = grade(sum, sum.dir / "wrong" / "block-local-warp.cu", {.seed = kSeed});
  REQUIRE(store.failure);
  REQUIRE(store.failure->step);
  CHECK(store.failure->step_reason.find("the last step recorded before the access the memory "
                                        "checks named first (data_race at ") != std::string::npos);
  CHECK(store.failure->step_reason.find("block-local-warp.cu:11") != std::string::npos);
  REQUIRE(store.failure->first_wrong);
  // out[w] belongs to warp w: the input row shows that warp's 32 elements.
  CHECK(store.failure->table[0].first == 32 * store.failure->first_wrong->second);
}

TEST_CASE("a grading is reproducible from its seed") {
  warpsim::test::use_test_kernel_cache();
  const Exercise& e = exercise("argmax");
  if (!selected(e)) return;
  const auto run = [&](std::uint64_t seed) {
    return grade(e, e.dir / "wrong" / "highest-lane-on-ties.cu", {.seed = seed, .detail = false});
  };
  const GradeResult a = run(7), b = run(7), c = run(8);
  REQUIRE(a.cases.size() == b.cases.size());
  bool launches_differ = false;
  for (std::size_t i = 0; i < a.cases.size(); ++i) {
    CHECK(a.cases[i].name == b.cases[i].name);
    CHECK(a.cases[i].outcome == b.cases[i].outcome);
    CHECK(a.cases[i].message == b.cases[i].message);
    CHECK(a.cases[i].launch == b.cases[i].launch);
    launches_differ = launches_differ || a.cases[i].message != c.cases[i].message ||
                      a.cases[i].launch != c.cases[i].launch;
  }
  CHECK(launches_differ);
}

TEST_CASE("bad submissions: no file, a compile error, a kernel that does not fit the signature") {
  warpsim::test::use_test_kernel_cache();
  const Exercise& e = exercise("warp-sum");
  if (!selected(e)) return;
  const fs::path dir = fs::path(WARPSIM_BINARY_DIR) / "tests" / "course" / "submissions";
  fs::create_directories(dir);
  const GradeResult missing = grade(e, dir / "missing.cu");
  CHECK(missing.status == GradeStatus::bad_submission);
  CHECK(missing.message.find("no file") != std::string::npos);

  std::ofstream(dir / "syntax.cu")
      << "__global__ void warp_sum(const float* in, float* out, int n) { int x = ; }\n";
  const GradeResult syntax = grade(e, dir / "syntax.cu");
  CHECK(syntax.status == GradeStatus::bad_submission);
  CHECK(syntax.message.find("did not compile") != std::string::npos);
  CHECK(syntax.details.find("syntax.cu:1") != std::string::npos);
  CHECK(syntax.cases.empty());

  std::ofstream(dir / "other.cu") << "__global__ void warp_sum(float* out) { }\n";
  const GradeResult other = grade(e, dir / "other.cu");
  CHECK(other.status == GradeStatus::bad_submission);
  CHECK(other.message.find(e.signature) != std::string::npos);
}

TEST_CASE(
    "a class: one grading per submission file or folder; a folder without exactly one .cu is its "
    "own problem") {
  warpsim::test::use_test_kernel_cache();
  const Exercise& e = exercise("warp-sum");
  if (!selected(e)) return;
  const fs::path dir = fs::path(WARPSIM_BINARY_DIR) / "tests" / "course" / "class";
  fs::remove_all(dir);
  fs::create_directories(dir / "bo");
  fs::create_directories(dir / "cy");
  fs::create_directories(dir / "di");
  fs::copy_file(e.solution_file(), dir / "ann.cu");
  fs::copy_file(e.dir / "wrong" / "last-lane-writes.cu", dir / "bo" / "sum.cu");
  std::ofstream(dir / "cy" / "a.cu") << "\n";
  std::ofstream(dir / "cy" / "b.cu") << "\n";
  std::ofstream(dir / "notes.txt") << "not a submission\n";
  const std::vector<Submission> found = find_submissions(dir);
  REQUIRE(found.size() == 4);
  CHECK(found[0].student == "ann");
  CHECK(found[1].student == "bo");
  CHECK(found[1].file.filename() == "sum.cu");
  CHECK(found[2].problem.find("2 .cu files") != std::string::npos);
  CHECK(found[3].problem.find("no .cu file") != std::string::npos);
  const std::vector<StudentGrade> grades = grade_class(e, found, {.seed = 3, .detail = false});
  REQUIRE(grades.size() == 4);
  CHECK(grades[0].result.passed());
  CHECK(grades[1].result.status == GradeStatus::failed);
  CHECK(grades[2].result.status == GradeStatus::bad_submission);
  CHECK(grades[3].result.status == GradeStatus::bad_submission);
}

TEST_CASE("any case can be explained on demand, and each case is reported as it finishes") {
  warpsim::test::use_test_kernel_cache();
  const Exercise& e = exercise("warp-sum");
  if (!selected(e)) return;
  std::vector<std::string> seen;
  GradeOptions options{.seed = 4, .detail = false};
  options.on_case = [&](const CaseResult& c) { seen.push_back(c.name); };
  const GradeResult r = grade(e, e.dir / "wrong" / "block-local-warp.cu", options);
  REQUIRE(seen.size() == r.cases.size());
  CHECK(seen.front() == "one-warp");
  CHECK_FALSE(r.failure);  // detail = false

  // several-blocks (case 2) in a seeded order, as a view would ask for it.
  const std::vector<GradeCase> cases = *make_cases(e, 4);
  const Schedule order = schedules_for(e, cases[2], 4, 2)[1];
  auto detail = explain_case(e, e.dir / "wrong" / "block-local-warp.cu", 4, 2, order);
  REQUIRE(detail);
  CHECK(detail->grade_case.name == "several-blocks");
  CHECK(detail->schedule.order_seed == order.order_seed);
  CHECK(detail->first_wrong);
  CHECK(detail->submission.trace.steps.size() == 6 * 5);  // 6 warps, 5 shuffles each
  auto right = explain_case(e, e.solution_file(), 4, 0, schedules_for(e, cases[0], 4, 0)[0]);
  REQUIRE(right);
  CHECK_FALSE(right->first_wrong);
  CHECK(right->table.size() == 3);
  CHECK_FALSE(explain_case(e, e.solution_file(), 4, 99, order));
}

TEST_CASE("with a GPU, every case that passes in the simulator also runs there and must agree") {
  warpsim::test::use_test_kernel_cache();
  const Exercise& e = exercise("warp-sum");
  if (!general()) return;
  // A stand-in GPU that returns the simulator's outputs, once faithfully and once with one
  // element of the output changed: the second must fail on the GPU, naming it.
  int calls = 0;
  bool corrupt = false;
  GradeOptions options{.seed = kSeed, .detail = false};
  options.gpu = [&](const runner::KernelFileRequest& request, const runner::KernelFileResult& sim)
      -> Expected<GpuRun> {
    ++calls;
    CHECK(request.keep_initial_buffers);
    CHECK_FALSE(sim.initial_buffers.empty());
    GpuRun run;
    run.device.name = "Stand-in GPU";
    for (const runner::OutputBuffer& b : sim.buffers) {
      run.buffers.push_back({b.arg, ValueType::f32, b.bytes});
      if (b.arg == 1 && corrupt) run.buffers.back().bytes[0] ^= std::byte{1};
    }
    return run;
  };
  const GradeResult agrees = grade(e, e.solution_file(), options);
  CHECK(agrees.passed());
  CHECK(calls == static_cast<int>(agrees.cases.size()));
  CHECK(agrees.cases.front().gpu == "agrees on Stand-in GPU");
  corrupt = true;
  const GradeResult differs = grade(e, e.solution_file(), options);
  CHECK_FALSE(differs.passed());
  CHECK(differs.cases.front().outcome == CaseOutcome::wrong_output);
  CHECK(differs.cases.front().message.rfind("on the GPU (Stand-in GPU): ", 0) == 0);
  CHECK(differs.cases.front().gpu == "differs on Stand-in GPU");
}

namespace {

// A copy of a lesson exercise in the build tree, cut to the cases named (no random ones), with no
// wrong or right variants: small enough to grade in a test.
fs::path cut_exercise(const std::string& id, const std::vector<std::string>& cases,
                      const fs::path& root) {
  const Exercise& original = exercise(id);
  const fs::path dir = root / original.lesson / "exercises" / id;
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const char* file : {"statement.md", "starter.cu", "solution.cu"}) {
    fs::copy_file(original.dir / file, dir / file);
  }
  auto text = runner::read_text_file((original.dir / "exercise.json").string());
  REQUIRE(text);
  nlohmann::json spec = nlohmann::json::parse(*text);
  nlohmann::json kept = nlohmann::json::array();
  for (const nlohmann::json& c : spec["cases"]) {
    if (std::find(cases.begin(), cases.end(), c["name"].get<std::string>()) != cases.end())
      kept.push_back(c);
  }
  spec["cases"] = kept;
  spec.erase("random");
  spec["wrong"] = nlohmann::json::array();
  spec["right"] = nlohmann::json::array();
  std::ofstream(dir / "exercise.json") << spec.dump(2);
  return dir;
}

// `text` without its first line that contains `line`.
std::string without_line(std::string text, const std::string& line) {
  const std::size_t at = text.find(line);
  REQUIRE(at != std::string::npos);
  const std::size_t start = text.rfind('\n', at) + 1;
  return text.erase(start, text.find('\n', at) + 1 - start);
}

}  // namespace

TEST_CASE(
    "a missing __syncwarp or __syncthreads: the verdict leads with the race the memory checks "
    "name, then what it did to the outputs") {
  if (!general()) return;
  warpsim::test::use_test_kernel_cache();
  const fs::path root = fs::path(WARPSIM_BINARY_DIR) / "tests" / "course" / "named-bugs";
  struct Row {
    const char* id;
    const char* the_case;
    fs::path file;  // the exercise's own file with one barrier taken out
    std::string line;
    const char* barrier;
  };
  const Exercise& scan = exercise("inclusive-scan");
  const Exercise& block = exercise("block-reduction");
  const Row rows[] = {
      {"inclusive-scan", "several-warps", scan.dir / "right" / "shared-syncwarp.cu",
       "__syncwarp();  // every lane has read before any lane writes", "__syncwarp()"},
      {"block-reduction", "block-256", block.solution_file(), "__syncthreads();",
       "__syncthreads()"},
  };
  for (const Row& row : rows) {
    CAPTURE(row.id);
    const fs::path dir = cut_exercise(row.id, {row.the_case}, root);
    auto cut = load_exercise(dir);
    REQUIRE_MESSAGE(cut, (cut ? "" : cut.error().message));
    auto text = runner::read_text_file(row.file.string());
    REQUIRE(text);
    const fs::path submission = root / (std::string(row.id) + "-missing-barrier.cu");
    std::ofstream(submission) << without_line(*text, row.line);

    const GradeResult r = grade(*cut, submission, {.seed = kSeed, .detail = false});
    REQUIRE_MESSAGE(r.status == GradeStatus::failed, summary(r));
    const CaseResult& c = r.cases.at(0);
    CAPTURE(c.message);
    CHECK(c.finding.rfind("data race on ", 0) == 0);
    CHECK(c.finding.find(row.barrier) != std::string::npos);
    CHECK(c.finding.find("(shared memory)") != std::string::npos);
    CHECK(c.finding.find(submission.filename().string() + ":") != std::string::npos);
    // The race first, then the outputs it spoiled.
    CHECK(c.message.rfind("the memory checks found the bug: data race on ", 0) == 0);
    CHECK(c.headline.rfind("data race on ", 0) == 0);
    // The finding is the checker's own wording, the same as `warpsim run --check races` gives.
    runner::KernelFileRequest request = request_for_case(
        *cut, submission, *make_cases(*cut, kSeed)->begin(), {"in order"}, false);
    request.check_races = request.check_bounds = true;
    const runner::KernelFileResult checked = runner::run_kernel_file(request);
    const auto race = std::find_if(
        checked.trace.diagnostics.begin(), checked.trace.diagnostics.end(),
        [](const Diagnostic& d) { return d.kind == DiagnosticKind::data_race; });
    if (c.schedule == "in order") {
      REQUIRE(race != checked.trace.diagnostics.end());
      CHECK(c.finding.rfind(race->message, 0) == 0);
    }
  }
  // A right solution is never rerun under the checks, and a failure they cannot explain keeps
  // its plain message.
  const fs::path dir = cut_exercise("inclusive-scan", {"one-warp"}, root);
  auto cut = load_exercise(dir);
  REQUIRE(cut);
  const GradeResult wrong = grade(*cut, cut->starter_file(), {.seed = kSeed, .detail = false});
  REQUIRE(wrong.status == GradeStatus::failed);
  CHECK(wrong.cases.at(0).finding.empty());
  CHECK(wrong.cases.at(0).message.find("the memory checks") == std::string::npos);
}

TEST_CASE(
    "the failing case the checks explained is stepped through under them: its race among the "
    "run's diagnostics, at the lines the verdict names") {
  if (!general()) return;
  warpsim::test::use_test_kernel_cache();
  const fs::path root = fs::path(WARPSIM_BINARY_DIR) / "tests" / "course" / "checked-detail";
  const Exercise& block = exercise("block-reduction");
  const fs::path dir = cut_exercise("block-reduction", {"block-256"}, root);
  auto cut = load_exercise(dir);
  REQUIRE_MESSAGE(cut, (cut ? "" : cut.error().message));
  auto text = runner::read_text_file(block.solution_file().string());
  REQUIRE(text);
  const fs::path submission = root / "missing-barrier.cu";
  std::ofstream(submission) << without_line(*text, "__syncthreads();");

  const GradeResult r = grade(*cut, submission, {.seed = kSeed});
  REQUIRE_MESSAGE(r.status == GradeStatus::failed, summary(r));
  REQUIRE(!r.cases.at(0).finding.empty());
  REQUIRE(r.failure);
  const auto races = [](const runner::KernelFileResult& run) {
    std::vector<const Diagnostic*> out;
    for (const Diagnostic& d : run.trace.diagnostics)
      if (d.kind == DiagnosticKind::data_race) out.push_back(&d);
    return out;
  };
  CHECK(r.failure->checked);
  const auto found = races(r.failure->submission);
  REQUIRE(!found.empty());
  // The verdict's finding is the first of them, word for word, and the step is still chosen by
  // comparison with the reference (a race has a line, not a step).
  CHECK(r.cases.at(0).finding.rfind(found.front()->message, 0) == 0);
  CHECK(found.front()->where.line != 0);
  CHECK(r.failure->step_reason.find("data race") == std::string::npos);

  // Any case opened later (the GUI's OpenCase) is run as its verdict was found.
  const Schedule in_order{"in order", ConvergencePolicy::maximal, 1, 0};
  auto checked = explain_case(*cut, submission, kSeed, 0, in_order, {}, true);
  REQUIRE_MESSAGE(checked, (checked ? "" : checked.error().message));
  CHECK(checked->checked);
  REQUIRE(!races(checked->submission).empty());
  CHECK(races(checked->submission).front()->message == found.front()->message);
  auto plain = explain_case(*cut, submission, kSeed, 0, in_order);
  REQUIRE(plain);
  CHECK_FALSE(plain->checked);
  CHECK(races(plain->submission).empty());
}

TEST_CASE("a malformed lesson.json or exercise.json: the file, the line and column, the problem") {
  if (!general()) return;
  const fs::path dir = scratch_exercise("twice", double_json(), kDoubleKernel);
  std::ofstream(dir / "exercise.json") << "{\n  \"id\": \"twice\",\n  \"title\": \"t\"\n  \"x\": 1\n}\n";
  auto loaded = load_exercise(dir);
  REQUIRE_FALSE(loaded);
  const std::string& m = loaded.error().message;
  CAPTURE(m);
  // Where reading stopped: the end of the unexpected "x".
  CHECK(m.find((dir / "exercise.json").string() + ", line 4, column 5: not valid JSON: ") == 0);
  CHECK(m.find("[json.exception") == std::string::npos);
  CHECK(m.find("unexpected string literal; expected '}'") != std::string::npos);

  std::ofstream(dir / "exercise.json") << "";
  loaded = load_exercise(dir);
  REQUIRE_FALSE(loaded);
  CHECK(loaded.error().message.find("the file is empty") != std::string::npos);

  const fs::path lesson = fs::path(WARPSIM_BINARY_DIR) / "tests" / "course" / "bad-lesson" / "01-x";
  fs::create_directories(lesson);
  std::ofstream(lesson / "kernel.cu") << kDoubleKernel;
  std::ofstream(lesson / "lesson.json") << "{\"title\": \"t\",, }";
  auto bad = load_lesson(lesson);
  REQUIRE_FALSE(bad);
  CAPTURE(bad.error().message);
  CHECK(bad.error().message.find((lesson / "lesson.json").string() + ", line 1, column 15: not valid JSON: ") == 0);
  CHECK(bad.error().message.find("[json.exception") == std::string::npos);
}

TEST_CASE(
    "an instructor's folders: lessons and exercises from outside the repository join the "
    "catalogues; --verify's checks hold for a good exercise and name what breaks in a bad one") {
  if (!general()) return;
  warpsim::test::use_test_kernel_cache();
  const fs::path root = fs::path(WARPSIM_BINARY_DIR) / "tests" / "course" / "instructor";
  fs::remove_all(root);
  const fs::path dir = cut_exercise("inclusive-scan", {"one-warp", "several-blocks"}, root / "course");
  // Renamed, as an instructor's own exercise would be.
  const fs::path mine = dir.parent_path() / "my-scan";
  fs::rename(dir, mine);
  {
    nlohmann::json spec =
        nlohmann::json::parse(*runner::read_text_file((mine / "exercise.json").string()));
    spec["id"] = "my-scan";
    fs::create_directories(mine / "wrong");
    fs::create_directories(mine / "right");
    fs::copy_file(exercise("inclusive-scan").dir / "right" / "shared-syncwarp.cu",
                  mine / "right" / "shared.cu");
    std::ofstream(mine / "wrong" / "no-sync.cu")
        << without_line(*runner::read_text_file((mine / "right" / "shared.cu").string()),
                        "__syncwarp();  // every lane has read before any lane writes");
    spec["right"] = {{{"file", "shared.cu"}, {"note", "shared memory"}}};
    spec["wrong"] = {{{"file", "no-sync.cu"}, {"bug", "no barrier"}, {"fails", "one-warp"},
                      {"message", "data race on s["}}};
    std::ofstream(mine / "exercise.json") << spec.dump(2);
  }
  // A lesson of the instructor's beside it (a copy of lesson 1 under its own name).
  const fs::path lesson = root / "course" / "90-my-lesson";
  fs::create_directories(lesson);
  for (const auto& entry : fs::directory_iterator(kLessons / "01-lane-identity")) {
    if (entry.is_regular_file()) fs::copy_file(entry.path(), lesson / entry.path().filename());
  }

  setenv("WARPSIM_LESSONS", (root / "course").c_str(), 1);
  const std::vector<fs::path> folders = lesson_folders({(root / "nowhere").string()});
  unsetenv("WARPSIM_LESSONS");
  REQUIRE(folders.size() == 3);
  CHECK(folders[1] == fs::absolute(root / "course").lexically_normal());
  const ExerciseCatalogue exercises = load_exercises(folders);
  REQUIRE(find_exercise(exercises, "my-scan") != nullptr);
  CHECK(find_exercise(exercises, "warp-sum") != nullptr);
  REQUIRE(exercises.problems.size() == 1);  // the folder that is not there
  CHECK(exercises.problems[0].message.find("no lessons folder " + (root / "nowhere").string()) == 0);
  const Catalogue lessons = load_catalogue(folders);
  CHECK(find_lesson(lessons, "90-my-lesson") != nullptr);
  CHECK(find_lesson(lessons, "04-butterfly-reduction") != nullptr);
  // The same folder twice is one folder; a second exercise of the same id is a problem.
  const ExerciseCatalogue twice = load_exercises(std::vector<fs::path>{mine, mine});
  CHECK(twice.exercises.size() == 1);
  REQUIRE(twice.problems.size() == 1);
  CHECK(twice.problems[0].message.find("another exercise is named my-scan") != std::string::npos);

  const Exercise& e = *find_exercise(exercises, "my-scan");
  GradeOptions options{.seed = kSeed};
  std::vector<ExerciseCheck> checks = verify_exercise(e, options);
  REQUIRE(checks.size() == 4);
  for (const ExerciseCheck& c : checks) CHECK_MESSAGE(c.ok, c.file << ": " << c.detail);
  CHECK(checks[2].file == "wrong/no-sync.cu");

  // Broken: the wrong file fails, but not with the words exercise.json promises.
  nlohmann::json spec =
      nlohmann::json::parse(*runner::read_text_file((mine / "exercise.json").string()));
  spec["wrong"][0]["message"] = "words that never appear";
  std::ofstream(mine / "exercise.json") << spec.dump(2);
  auto broken = load_exercise(mine);
  REQUIRE(broken);
  checks = verify_exercise(*broken, options);
  REQUIRE(checks.size() == 4);
  CHECK_FALSE(checks[2].ok);
  CHECK(checks[2].detail.find("failed without the words \"words that never appear\"") !=
        std::string::npos);
}
