// Grading a submission: every case run by the reference solution once and by the submission under
// each schedule, the checked buffers compared, any diagnostic or stop a failure.
#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <chrono>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <limits>

#include "grading_internal.hpp"
#include "warpsim/device_trace.hpp"
#include "warpsim/grading.hpp"

namespace warpsim::course {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// What a failed run tells the student about where it failed, when not in order.
std::string schedule_note(const Schedule& s) {
  if (s.order_seed == 0 && s.policy == ConvergencePolicy::maximal) return "";
  if (s.policy == ConvergencePolicy::interleaved) {
    return " [" + s.name +
           ": the in-order runs were right; under the interleaved policy diverged lanes run in a "
           "seeded order, so the kernel relies on lanes of a warp staying in step, which nothing "
           "guarantees]";
  }
  return " [" + s.name +
         ": the in-order run was right; the result depends on the order in which warps or blocks "
         "run]";
}

std::string stop_message(const runner::KernelFileResult& r) {
  // The runner's messages name the status and the lane already ("deadlock in block 0: ...").
  return r.message.empty() ? std::string(runner::to_string(r.status)) : r.message;
}

// A submission's own sandbox: `given` with a fresh scratch folder, and hiding the exercise's
// lessons folder (every reference solution) and the submission's folder (its neighbours), all but
// the submission itself. The scratch folder goes when the grading ends.
class SubmissionSandbox {
 public:
  SubmissionSandbox(const runner::Sandbox& given, const Exercise& e, const fs::path& submission)
      : box_(given) {
    if (!box_.active()) return;
    std::error_code error;
    std::string pattern = (fs::temp_directory_path(error) / "warpsim-grade-XXXXXX").string();
    if (error || mkdtemp(pattern.data()) == nullptr) {
      problem_ = "cannot make a scratch folder for the sandbox in " +
                 fs::temp_directory_path(error).string() + ": " + std::strerror(errno);
      return;
    }
    box_.scratch = pattern;
    // lessons/NN-lesson/exercises/ID: the lessons folder; else the exercise's own folder.
    const fs::path dir = fs::absolute(e.dir, error).lexically_normal();
    box_.hidden.push_back(dir.string());
    if (dir.parent_path().filename() == "exercises") {
      box_.hidden.push_back(dir.parent_path().parent_path().parent_path().string());
    }
    const fs::path file = fs::absolute(submission, error).lexically_normal();
    box_.hidden.push_back(file.parent_path().string());
    box_.visible.push_back(fs::weakly_canonical(file, error).string());
  }
  SubmissionSandbox(const SubmissionSandbox&) = delete;
  SubmissionSandbox& operator=(const SubmissionSandbox&) = delete;
  ~SubmissionSandbox() {
    std::error_code error;
    if (!box_.scratch.empty()) fs::remove_all(box_.scratch, error);
  }
  const runner::Sandbox& box() const { return box_; }
  const std::string& problem() const { return problem_; }

 private:
  runner::Sandbox box_;
  std::string problem_;
};

// A run stopped at its time limit of `limit` seconds before it had that much time on a CPU,
// because it waited for one (other programs had the machine's cores): the limit says nothing of
// the kernel, and the case must not fail for it. A kernel asleep (pause(), a blocking read)
// neither runs nor waits: it hangs, and fails.
bool starved(const runner::KernelFileResult& r, double limit) {
  return r.status == runner::RunStatus::timeout && r.wait_seconds_at_limit > 0.25 &&
         r.cpu_seconds_at_limit >= 0 && r.cpu_seconds_at_limit < 0.9 * limit;
}

// A run (in `runs`' kernel host); one that starved, once more with four times the time (a busy
// machine is often busy only for a moment), which then fails at the limit only once it has had
// `limit` seconds on a CPU. What comes back may have starved again: starved(r,
// request.timeout_seconds) tells.
runner::KernelFileResult run_patiently(runner::KernelFileRequest request,
                                       runner::KernelFileRunner& runs) {
  runner::KernelFileResult r = runs.run(request);
  if (!starved(r, request.timeout_seconds)) return r;
  request.timeout_seconds *= 4;
  return runs.run(request);
}

std::string busy_text(const runner::KernelFileResult& r, const std::string& what) {
  const auto s = [](double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f s", seconds);
    return std::string(text);
  };
  return "the machine was too busy: " + what + " reached four times its time limit after " +
         s(r.cpu_seconds_at_limit) + " on a CPU, having waited " + s(r.wait_seconds_at_limit) +
         " for one; rerun the grading when the machine is quieter";
}

// Whether the checked rerun can tell more than the failing run did: not for a run that ran out of
// time or steps (the checks are slower still) or deadlocked, nor when the run's own first
// diagnostic is a memory finding already.
bool worth_checking(const runner::KernelFileResult& got) {
  switch (got.status) {
    case runner::RunStatus::completed:
    case runner::RunStatus::crashed:
    case runner::RunStatus::kernel_exception:
      break;
    default:
      return false;
  }
  return got.trace.diagnostics.empty() ||
         !runner::is_memory_finding(got.trace.diagnostics.front().kind);
}

// The failing run again under the race, uninitialised-read and bounds checks (`--check all`: a
// second, instrumented compile, made only for a submission that fails). A missing __syncthreads
// shows in the outputs as wrong sums that say little; the race checker names the two accesses
// and the barrier that would order them. Empty when the checks found nothing.
std::string checked_finding(const Exercise& e, const fs::path& submission, const GradeCase& c,
                            const Schedule& s, const runner::Sandbox& box) {
  runner::KernelFileRequest request = request_for_case(e, submission, c, s, false);
  request.sandbox = box;
  detail::add_memory_checks(e, request);
  const runner::KernelFileResult checked = runner::run_kernel_file(request);
  std::vector<const Diagnostic*> found;
  for (const Diagnostic& d : checked.trace.diagnostics) {
    if (runner::is_memory_finding(d.kind)) found.push_back(&d);
  }
  if (found.empty()) return "";
  std::string text = found.front()->message;
  if (found.size() > 1) {
    text += " (and " + std::to_string(found.size() - 1) + " more finding" +
            (found.size() > 2 ? "s" : "") + " of the memory checks)";
  }
  return text;
}

}  // namespace

runner::KernelFileRequest request_for_case(const Exercise& e, const fs::path& file,
                                           const GradeCase& c, const Schedule& s,
                                           bool record_steps) {
  runner::KernelFileRequest r;
  r.file = file.string();
  r.kernel = e.kernel;
  r.grid = c.grid;
  r.block = c.block;
  r.args = c.args;
  if (e.shared_bytes != 0) r.shared_bytes = e.shared_bytes;
  r.policy = s.policy;
  r.seed = s.seed;
  r.order_seed = s.order_seed;
  r.max_steps = e.max_steps;
  r.timeout_seconds = e.time_limit_seconds;
  r.record_steps = record_steps;
  return r;
}

namespace detail {

ValueType value_type(runner::ElementType type) { return runner::element_value_type(type); }


const runner::OutputBuffer* buffer_at(const runner::KernelFileResult& r, std::size_t arg) {
  for (const runner::OutputBuffer& b : r.buffers) {
    if (b.arg == arg) return &b;
  }
  return nullptr;
}

// Floats as numbers: -0 as +0, every NaN as one NaN.
std::vector<std::byte> canonical(const runner::OutputBuffer& b) {
  std::vector<std::byte> bytes = b.bytes;
  if (b.type == runner::ElementType::f32) {
    for (std::size_t i = 0; i + 4 <= bytes.size(); i += 4) {
      float f = 0;
      std::memcpy(&f, bytes.data() + i, 4);
      if (f == 0.0f) f = 0.0f;
      if (std::isnan(f)) f = std::numeric_limits<float>::quiet_NaN();
      std::memcpy(bytes.data() + i, &f, 4);
    }
  } else if (b.type == runner::ElementType::f64) {
    for (std::size_t i = 0; i + 8 <= bytes.size(); i += 8) {
      double d = 0;
      std::memcpy(&d, bytes.data() + i, 8);
      if (d == 0.0) d = 0.0;
      if (std::isnan(d)) d = std::numeric_limits<double>::quiet_NaN();
      std::memcpy(bytes.data() + i, &d, 8);
    }
  }
  return bytes;
}

std::optional<Mismatch> first_mismatch(const Exercise& e, const runner::KernelFileResult& got,
                                       const runner::KernelFileResult& expected) {
  for (std::size_t p = 0; p < e.params.size(); ++p) {
    const ExerciseParam& param = e.params[p];
    if (!param.checked) continue;
    const runner::OutputBuffer* g = buffer_at(got, p);
    const runner::OutputBuffer* x = buffer_at(expected, p);
    if (g == nullptr || x == nullptr) continue;
    std::uint64_t length = x->count();
    if (!param.length_from.empty()) {
      const auto n_arg = static_cast<std::size_t>(e.param(param.length_from) - e.params.data());
      const runner::OutputBuffer* n = buffer_at(expected, n_arg);
      if (n != nullptr && n->count() > 0) {
        std::uint64_t bits = n->element(0);
        const auto value = runner::element_size(n->type) == 4
                               ? static_cast<std::int64_t>(static_cast<std::int32_t>(bits))
                               : static_cast<std::int64_t>(bits);
        length = static_cast<std::uint64_t>(
            std::clamp<std::int64_t>(value, 0, static_cast<std::int64_t>(length)));
      }
    }
    const std::size_t size = runner::element_size(x->type);
    std::vector<std::byte> a = e.comparison == Comparison::values ? canonical(*g) : g->bytes;
    std::vector<std::byte> b = e.comparison == Comparison::values ? canonical(*x) : x->bytes;
    a.resize(std::min<std::size_t>(a.size(), length * size));
    b.resize(std::min<std::size_t>(b.size(), length * size));
    const BufferData gd{p, value_type(g->type), a};
    const BufferData xd{p, value_type(x->type), b};
    const BufferComparison c = compare_buffer(gd, xd, e.tolerance_ulps);
    if (c.matches()) continue;
    Mismatch m;
    m.arg = p;
    m.comparison = c;
    if (c.first_index) {
      m.index = *c.first_index;
      const ValueType t = value_type(x->type);
      m.text = param.name + "[" + std::to_string(*c.first_index) + "] is " +
               format_element(g->element(*c.first_index), t) + ", expected " +
               format_element(x->element(*c.first_index), t);
      if (c.differing > 1)
        m.text += " (" + std::to_string(c.differing) + " elements of " + param.name + " differ)";
      if (e.tolerance_ulps > 0)
        m.text += " (beyond the " + std::to_string(e.tolerance_ulps) + " ULP tolerance)";
    } else {
      m.text = param.name + ": " + c.problem;
    }
    return m;
  }
  return std::nullopt;
}

std::string launch_text(const Exercise& e, const GradeCase& c) {
  const auto shape = [](Dim3 d) {
    if (d.y == 1 && d.z == 1) return std::to_string(d.x);
    return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z);
  };
  std::string text = "grid " + shape(c.grid) + ", block " + shape(c.block);
  for (std::size_t p = 0; p < e.params.size(); ++p) {
    if (e.params[p].is_buffer) continue;
    text += ", " + e.params[p].name + " = " +
            format_element(c.args[p].scalar_bits, value_type(e.params[p].type));
  }
  return text;
}

void add_memory_checks(const Exercise& e, runner::KernelFileRequest& request) {
  request.check_races = request.check_uninitialized_shared = request.check_bounds = true;
  request.timeout_seconds = e.time_limit_seconds * 4;  // instrumented code runs slower
}

std::string diagnostic_text(const runner::KernelFileResult& r, const Diagnostic& d) {
  std::string text(to_string(d.kind));
  if (d.where.line != 0) text += " at " + site_text(r.trace, d.where);
  text += " (block " + std::to_string(d.block) + ", warp " + std::to_string(d.warp) + ", lanes " +
          format_lanes(d.lanes) + ")";
  return text + ": " + d.message;
}

Verdict judge(const Exercise& e, const runner::KernelFileResult& got,
              const runner::KernelFileResult& expected) {
  Verdict v;
  if (got.status != runner::RunStatus::completed) {
    v.outcome = CaseOutcome::stopped;
    v.message = stop_message(got);
    // Misuse before the stop is often its cause (a shuffle that read a lane that is not there).
    for (const Diagnostic& d : got.trace.diagnostics) {
      if (d.kind == DiagnosticKind::deadlock || d.kind == DiagnosticKind::step_budget_exceeded ||
          d.kind == DiagnosticKind::timeout || d.kind == DiagnosticKind::kernel_fault ||
          d.kind == DiagnosticKind::out_of_bounds) {
        continue;
      }
      v.message += "; before that: " + std::string(to_string(d.kind)) +
                   (d.where.line != 0 ? " at " + site_text(got.trace, d.where) : "") + " (block " +
                   std::to_string(d.block) + ", warp " + std::to_string(d.warp) + ", lanes " +
                   format_lanes(d.lanes) + ")";
      break;
    }
    v.headline = v.message.size() > 100 ? v.message.substr(0, 97) + "..." : v.message;
    return v;
  }
  v.mismatch = first_mismatch(e, got, expected);
  if (!got.trace.diagnostics.empty()) {
    v.outcome = CaseOutcome::misuse;
    const Diagnostic& first = got.trace.diagnostics.front();
    v.headline = std::string(to_string(first.kind)) +
                 (first.where.line != 0 ? " at " + site_text(got.trace, first.where) : "") +
                 " (lanes " + format_lanes(first.lanes) + ")" +
                 (v.mismatch ? "; " + v.mismatch->text : "; outputs right");
    v.message = diagnostic_text(got, first);
    if (got.trace.diagnostics.size() > 1)
      v.message += " (and " + std::to_string(got.trace.diagnostics.size() - 1) + " more)";
    v.message +=
        v.mismatch ? "; and " + v.mismatch->text
                   : " (the outputs match the reference's, but misuse fails the case all the same: "
                     "hardware need not forgive it)";
    return v;
  }
  if (v.mismatch) {
    v.outcome = CaseOutcome::wrong_output;
    v.message = v.headline = v.mismatch->text;
  }
  return v;
}

// The case once more, on the GPU: its outputs, taken as the simulator's run's, must be the
// expected ones too (a kernel right only because the simulator runs lanes in some order fails).
void judge_on_gpu(const Exercise& e, const GradeCase& c, const Schedule& in_order,
                  const runner::KernelFileResult& expected, const GradeOptions& options,
                  CaseResult& row, const fs::path& submission, const runner::Sandbox& sandbox) {
  runner::KernelFileRequest request = request_for_case(e, submission, c, in_order, false);
  request.keep_initial_buffers = true;
  request.sandbox = sandbox;
  const runner::KernelFileResult sim = runner::run_kernel_file(request);
  if (sim.status != runner::RunStatus::completed) {
    row.gpu = "not run on the GPU: the simulation did not complete";
    return;
  }
  auto ran = options.gpu(request, sim);
  if (!ran) {
    row.gpu = "not run on the GPU: " + ran.error().message;
    return;
  }
  runner::KernelFileResult on_gpu = sim;  // the simulator's run, with the GPU's outputs
  for (runner::OutputBuffer& b : on_gpu.buffers) {
    for (const GpuBuffer& g : ran->buffers) {
      if (g.arg == b.arg && g.bytes.size() == b.bytes.size()) b.bytes = g.bytes;
    }
  }
  const Verdict v = judge(e, on_gpu, expected);
  if (v.outcome == CaseOutcome::passed) {
    row.gpu = "agrees on " + ran->device.name;
    return;
  }
  row.outcome = v.outcome;
  row.schedule = "on the GPU";
  row.message = "on the GPU (" + ran->device.name + "): " + v.message;
  row.headline = v.headline + " [on the GPU]";
  row.gpu = "differs on " + ran->device.name;
}

}  // namespace detail

const runner::KernelFileResult* ReferenceRuns::find(const std::string& key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = runs_.find(key);
  return it == runs_.end() || !it->second->done ? nullptr : &it->second->result;
}

const runner::KernelFileResult& ReferenceRuns::add(std::string key,
                                                   runner::KernelFileResult result) {
  return run_once(std::move(key), [&] { return std::move(result); });
}

const runner::KernelFileResult& ReferenceRuns::run_once(
    const std::string& key, const std::function<runner::KernelFileResult()>& run) {
  Entry* entry = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    std::unique_ptr<Entry>& slot = runs_[key];
    if (!slot) slot = std::make_unique<Entry>();
    entry = slot.get();
  }
  // Gradings that want the same run wait for the first to make it.
  std::call_once(entry->once, [&] {
    entry->result = run();
    std::lock_guard<std::mutex> lock(mutex_);
    entry->done = true;
  });
  return entry->result;
}

std::string_view to_string(CaseOutcome outcome) {
  switch (outcome) {
    case CaseOutcome::passed:
      return "passed";
    case CaseOutcome::wrong_output:
      return "wrong_output";
    case CaseOutcome::misuse:
      return "misuse";
    case CaseOutcome::stopped:
      return "stopped";
    case CaseOutcome::incomplete:
      return "incomplete";
  }
  return "?";
}

std::string_view to_string(GradeStatus status) {
  switch (status) {
    case GradeStatus::passed:
      return "passed";
    case GradeStatus::failed:
      return "failed";
    case GradeStatus::incomplete:
      return "incomplete";
    case GradeStatus::bad_submission:
      return "bad_submission";
    case GradeStatus::broken_exercise:
      return "broken_exercise";
  }
  return "?";
}

int exit_status(GradeStatus status) {
  switch (status) {
    case GradeStatus::passed:
      return 0;
    case GradeStatus::failed:
      return 1;
    case GradeStatus::incomplete:
      return 3;
    case GradeStatus::bad_submission:
    case GradeStatus::broken_exercise:
      return 2;
  }
  return 2;
}

std::size_t GradeResult::cases_passed() const {
  return static_cast<std::size_t>(
      std::count_if(cases.begin(), cases.end(), [](const CaseResult& c) { return c.passed(); }));
}

std::size_t GradeResult::cases_failed() const {
  return static_cast<std::size_t>(
      std::count_if(cases.begin(), cases.end(), [](const CaseResult& c) { return c.failed(); }));
}

std::size_t GradeResult::cases_incomplete() const {
  return static_cast<std::size_t>(std::count_if(
      cases.begin(), cases.end(), [](const CaseResult& c) { return c.incomplete(); }));
}

double GradeResult::score() const {
  return cases.empty() ? 0.0
                       : static_cast<double>(cases_passed()) / static_cast<double>(cases.size());
}

std::uint64_t default_seed(const Exercise& exercise) {
  // FNV-1a of the id: the same on every machine and in every release.
  std::uint64_t hash = 14695981039346656037ULL;
  for (const char c : exercise.id) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  return hash % 1000000 + 1;
}

GradeResult grade(const Exercise& exercise, const fs::path& submission,
                  const GradeOptions& options) {
  using namespace detail;
  Exercise e = exercise;
  if (options.time_limit_seconds) e.time_limit_seconds = *options.time_limit_seconds;
  ReferenceRuns own_references;
  ReferenceRuns& references = options.references != nullptr ? *options.references : own_references;
  const Clock::time_point start = Clock::now();
  GradeResult result;
  result.exercise = e.id;
  result.submission = submission.string();
  result.seed = options.seed;
  result.budget_seconds = options.budget_seconds;
  result.sandbox = runner::describe(options.sandbox);
  const auto finish = [&](GradeStatus status, std::string message = {}, std::string details = {}) {
    result.status = status;
    result.message = std::move(message);
    result.details = std::move(details);
    result.seconds = seconds_since(start);
    return std::move(result);
  };
  std::error_code error;
  if (!fs::is_regular_file(submission, error))
    return finish(GradeStatus::bad_submission, "no file " + submission.string());
  auto cases = make_cases(e, options.seed);
  if (!cases) return finish(GradeStatus::broken_exercise, cases.error().message);
  const SubmissionSandbox sandbox(options.sandbox, e, submission);
  if (!sandbox.problem().empty()) return finish(GradeStatus::bad_submission, sandbox.problem());

  // One compile of the submission, and all its cases in one kernel host (in its sandbox); the
  // reference's runs, when this grading makes them, in another.
  GradingRunners runners;
  std::optional<std::size_t> first_failure;
  Schedule failed_schedule;
  std::optional<runner::KernelFileResult> failed_run;  // the first failure's run (no steps)
  std::string out_of_time;  // the case that ran away: the cases after it are not run
  bool budget_spent = false;
  for (std::size_t i = 0; i < cases->size(); ++i) {
    const GradeCase& c = (*cases)[i];
    const Clock::time_point case_start = Clock::now();
    CaseResult row;
    row.name = c.name;
    row.summary = c.summary;
    row.random = c.random;
    row.launch = launch_text(e, c);
    if (!out_of_time.empty()) {
      row.outcome = CaseOutcome::incomplete;
      row.message =
          "not run: case " + out_of_time + " ran away (past the time limit or the step budget)";
      row.headline = "not run (an earlier case ran away)";
      if (options.on_case) options.on_case(row);
      result.cases.push_back(std::move(row));
      continue;
    }
    // The first case always runs: a budget smaller than one case still grades something.
    if (budget_spent || (i > 0 && seconds_since(start) > options.budget_seconds)) {
      budget_spent = true;
      row.outcome = CaseOutcome::incomplete;
      row.message = "not run: the grading time budget (" +
                    std::to_string(static_cast<int>(options.budget_seconds)) +
                    " s) was spent on the cases before";
      row.headline = "not run (time budget spent)";
      if (options.on_case) options.on_case(row);
      result.cases.push_back(std::move(row));
      continue;
    }
    const Schedule in_order = schedules_for(e, c, options.seed, i).front();
    const std::string key = e.dir.string() + "|" + std::to_string(options.seed) + "|" + c.name;
    const runner::KernelFileResult& reference = references.run_once(key, [&] {
      return run_patiently(request_for_case(e, e.solution_file(), c, in_order, false),
                           runners.reference);
    });
    if (starved(reference, e.time_limit_seconds)) {
      // Not the exercise's fault, nor the student's: the machine was too busy to tell.
      row.outcome = CaseOutcome::incomplete;
      row.message = "not graded: " + busy_text(reference, "the reference solution's run");
      row.headline = "not run (the machine was too busy)";
      if (options.on_case) options.on_case(row);
      result.cases.push_back(std::move(row));
      continue;
    }
    if (reference.status != runner::RunStatus::completed || !reference.trace.diagnostics.empty()) {
      const std::string why =
          reference.status != runner::RunStatus::completed
              ? std::string(runner::to_string(reference.status)) + ": " + reference.message
              : diagnostic_text(reference, reference.trace.diagnostics.front());
      return finish(GradeStatus::broken_exercise,
                    "the exercise's reference solution fails on case " + c.name + " (" + why + ")",
                    reference.details);
    }
    for (const Schedule& s : schedules_for(e, c, options.seed, i)) {
      runner::KernelFileRequest request = request_for_case(e, submission, c, s, false);
      request.sandbox = sandbox.box();
      const runner::KernelFileResult got = run_patiently(request, runners.submission);
      ++row.runs;
      if (starved(got, request.timeout_seconds)) {
        row.outcome = CaseOutcome::incomplete;
        row.schedule = s.name;
        row.message = "not graded: " + busy_text(got, "the " + s.name + " run");
        row.headline = "not run (the machine was too busy)";
        break;
      }
      if (got.status == runner::RunStatus::bad_input) {
        // Not a compile error: the kernel is missing, or its parameters differ from the exercise's.
        const std::string expects =
            got.details.empty() ? " (the exercise expects " + e.signature + ")" : "";
        return finish(GradeStatus::bad_submission, got.message + expects, got.details);
      }
      const Verdict v = judge(e, got, reference);
      if (v.outcome == CaseOutcome::passed) continue;
      row.outcome = v.outcome;
      row.schedule = s.name;
      row.message = v.message + schedule_note(s);
      row.headline = v.headline + (s.name == "in order" ? "" : " [" + s.name + "]");
      if (options.check_failures && worth_checking(got)) {
        row.finding = checked_finding(e, submission, c, s, sandbox.box());
        if (!row.finding.empty()) {
          // The bug by name first, then what it did to the outputs.
          row.message = "the memory checks found the bug: " + row.finding + ". What it did: " +
                        row.message;
          row.headline = row.finding.size() > 100 ? row.finding.substr(0, 97) + "..." : row.finding;
        }
      }
      // A kernel that runs away does so on the next case too: grading it further costs a limit
      // each.
      if (got.status == runner::RunStatus::timeout ||
          got.status == runner::RunStatus::step_budget_exceeded) {
        out_of_time = c.name;
      }
      if (!first_failure) {
        first_failure = i;
        failed_schedule = s;
        failed_run = got;
      }
      break;
    }
    if (options.gpu && row.outcome == CaseOutcome::passed) {
      // A failure on the GPU alone has no simulator run to explain it lane by lane: its message
      // says so, and the detail (if any) stays with the simulator's failures.
      judge_on_gpu(e, c, in_order, reference, options, row, submission, sandbox.box());
    }
    row.seconds = seconds_since(case_start);
    if (options.on_case) options.on_case(row);
    result.cases.push_back(std::move(row));
  }
  result.status = result.cases_failed() > 0       ? GradeStatus::failed
                  : result.cases_incomplete() > 0 ? GradeStatus::incomplete
                                                  : GradeStatus::passed;
  if (first_failure && options.detail) {
    result.failure =
        explain_failure(e, submission, (*cases)[*first_failure], failed_schedule, *first_failure,
                        failed_run ? &*failed_run : nullptr, sandbox.box(), &runners,
                        !result.cases[*first_failure].finding.empty());
  }
  result.seconds = seconds_since(start);
  return result;
}

Expected<FailureDetail> explain_case(const Exercise& exercise, const fs::path& submission,
                                     std::uint64_t seed, std::size_t case_index,
                                     const Schedule& schedule, const runner::Sandbox& given,
                                     bool checked) {
  auto cases = make_cases(exercise, seed);
  if (!cases) return cases.error();
  if (case_index >= cases->size()) {
    return fail(exercise.id + " has " + std::to_string(cases->size()) + " cases for seed " +
                std::to_string(seed) + "; there is no case " + std::to_string(case_index));
  }
  const SubmissionSandbox sandbox(given, exercise, submission);
  if (!sandbox.problem().empty()) return fail(sandbox.problem());
  // A run without steps first: a runaway's detail then records only its beginning.
  runner::KernelFileRequest request =
      request_for_case(exercise, submission, (*cases)[case_index], schedule, false);
  request.sandbox = sandbox.box();
  GradingRunners runners;
  const runner::KernelFileResult run = runners.submission.run(request);
  return explain_failure(exercise, submission, (*cases)[case_index], schedule, case_index, &run,
                         sandbox.box(), &runners, checked);
}

std::vector<Submission> find_submissions(const fs::path& dir) {
  std::vector<Submission> out;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    const fs::path& path = entry.path();
    if (path.filename().string().starts_with(".")) continue;
    if (entry.is_regular_file() && path.extension() == ".cu") {
      out.push_back({path.stem().string(), path, "", {}});
    } else if (entry.is_directory()) {
      std::vector<fs::path> files;
      for (const auto& inner : fs::directory_iterator(path, error)) {
        if (inner.is_regular_file() && inner.path().extension() == ".cu")
          files.push_back(inner.path());
      }
      std::sort(files.begin(), files.end());
      Submission s{path.filename().string(), {}, "", path};
      if (files.size() == 1) {
        s.file = files.front();
      } else {
        s.problem = files.empty() ? "the folder holds no .cu file"
                                  : "the folder holds " + std::to_string(files.size()) +
                                        " .cu files; which one to grade?";
      }
      out.push_back(std::move(s));
    }
  }
  std::sort(out.begin(), out.end(),
            [](const Submission& a, const Submission& b) { return a.student < b.student; });
  return out;
}

namespace {

// One student's grading within a class: the submission's own sandbox (every other student
// hidden), or why it cannot be graded at all.
StudentGrade grade_student(const Exercise& exercise, const Submission& s,
                           const GradeOptions& options) {
  StudentGrade g{s, {}};
  GradeOptions own = options;
  std::string problem = s.problem;
  if (own.sandbox.active() && problem.empty()) {
    // Every other student hidden: the class's folder, the student's own shown again.
    std::error_code error;
    const fs::path mine = s.folder.empty() ? s.file : s.folder;
    const fs::path class_dir = fs::absolute(mine, error).lexically_normal().parent_path();
    own.sandbox.hidden.push_back(class_dir.string());
    if (!s.folder.empty()) own.sandbox.visible.push_back(fs::weakly_canonical(s.folder, error).string());
    // A link out of the class's folder (an archive can hold one) would show its target.
    const fs::path real = fs::weakly_canonical(s.file, error);
    const std::string root = fs::weakly_canonical(class_dir, error).string() + "/";
    if (real.string().rfind(root, 0) != 0) {
      problem = s.file.string() + " links to " + real.string() +
                ", outside the submissions' folder: not graded";
    }
  }
  if (!problem.empty()) {
    g.result.exercise = exercise.id;
    g.result.submission = s.file.string();
    g.result.seed = options.seed;
    g.result.budget_seconds = options.budget_seconds;
    g.result.sandbox = runner::describe(options.sandbox);
    g.result.status = GradeStatus::bad_submission;
    g.result.message = problem;
  } else {
    g.result = grade(exercise, s.file, own);
  }
  return g;
}

}  // namespace

std::size_t class_jobs(const GradeOptions& options, std::size_t submissions) {
  std::size_t jobs = options.jobs;
  if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());
  return std::max<std::size_t>(1, std::min(jobs, submissions));
}

std::vector<StudentGrade> grade_class(
    const Exercise& exercise, const std::vector<Submission>& submissions,
    const GradeOptions& given,
    const std::function<void(std::size_t, const StudentGrade&)>& on_graded) {
  ReferenceRuns references;
  GradeOptions options = given;
  if (options.references == nullptr) options.references = &references;
  std::vector<std::optional<StudentGrade>> done(submissions.size());
  std::atomic<std::size_t> next{0};
  std::mutex reporting;
  // Each worker takes the next submission not yet taken: one compile per submission, and its
  // cases run one after another in one kernel host, while the other workers grade others.
  const auto work = [&] {
    for (std::size_t i = next++; i < submissions.size(); i = next++) {
      StudentGrade g = grade_student(exercise, submissions[i], options);
      std::lock_guard<std::mutex> lock(reporting);
      done[i] = std::move(g);
      if (on_graded) on_graded(i, *done[i]);
    }
  };
  const std::size_t jobs = class_jobs(options, submissions.size());
  std::vector<std::thread> workers;
  for (std::size_t k = 1; k < jobs; ++k) workers.emplace_back(work);
  work();
  for (std::thread& t : workers) t.join();
  std::vector<StudentGrade> grades;
  grades.reserve(done.size());
  for (std::optional<StudentGrade>& g : done) grades.push_back(std::move(*g));
  return grades;
}

}  // namespace warpsim::course
