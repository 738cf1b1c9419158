// --schedules (warpsim/schedules.hpp): the same launch or program under several seeded orders.
#include "warpsim/schedules.hpp"

#include <algorithm>

namespace warpsim::runner {

std::vector<Schedule> schedules_to_try(std::size_t count) {
  std::vector<Schedule> schedules;
  for (std::size_t i = 0; i < count; ++i) {
    Schedule s;
    if (i >= 1) {
      const std::uint64_t round = (i - 1) / 3 + 1;
      switch ((i - 1) % 3) {
        case 0:
          s.order_seed = round;
          break;
        case 1:
          s.policy = ConvergencePolicy::interleaved;
          s.seed = round;
          break;
        default:
          s.policy = ConvergencePolicy::interleaved;
          s.seed = round + 1000;  // not the lane order of the interleaved run above
          s.order_seed = round;
          break;
      }
    }
    schedules.push_back(s);
  }
  return schedules;
}

std::string schedule_flags(const Schedule& s) {
  std::string flags =
      s.policy == ConvergencePolicy::interleaved ? "--policy interleaved" : "--policy maximal";
  if (s.policy == ConvergencePolicy::interleaved || s.seed != 1) flags += " --seed " + std::to_string(s.seed);
  if (s.order_seed != 0) flags += " --order-seed " + std::to_string(s.order_seed);
  return flags;
}

void apply_schedule(const Schedule& s, KernelFileRequest& request) {
  request.policy = s.policy;
  request.seed = s.seed;
  request.order_seed = s.order_seed;
}

void apply_schedule(const Schedule& s, ProgramRequest& request) {
  request.policy = s.policy;
  request.seed = s.seed;
  request.order_seed = s.order_seed;
}

std::vector<BufferDifference> buffer_differences(const std::vector<OutputBuffer>& first,
                                                 const std::vector<OutputBuffer>& other) {
  std::vector<BufferDifference> found;
  for (const OutputBuffer& a : first) {
    const auto b = std::find_if(other.begin(), other.end(), [&](const OutputBuffer& x) {
      return x.arg == a.arg && x.field == a.field;
    });
    if (b == other.end() || b->type != a.type) continue;
    BufferDifference d{a.arg, a.field, a.type};
    const std::uint64_t count = std::min(a.count(), b->count());
    for (std::uint64_t i = 0; i < count; ++i) {
      const std::uint64_t x = a.element(i), y = b->element(i);
      if (x == y) continue;
      if (d.elements++ == 0) {
        d.first_element = i;
        d.first_bits = x;
        d.bits = y;
      }
    }
    if (d.elements != 0) found.push_back(d);
  }
  return found;
}

namespace {

bool has_memory_finding(const Trace& trace) {
  return std::any_of(trace.diagnostics.begin(), trace.diagnostics.end(),
                     [](const Diagnostic& d) { return is_memory_finding(d.kind); });
}

}  // namespace

bool KernelScheduleExploration::found_something() const {
  return std::any_of(runs.begin(), runs.end(), [](const KernelScheduleRun& r) {
    return !r.differences.empty() || has_memory_finding(r.result.trace);
  });
}

int KernelScheduleExploration::exit_status() const {
  int status = kExitRan;
  for (const KernelScheduleRun& r : runs) {
    const int s = r.result.exit_status();
    if (s == kExitBadInput) return s;
    if (s == kExitKernelFailed || status == kExitKernelFailed) {
      status = kExitKernelFailed;
    } else if (s == kExitFindings || !r.differences.empty()) {
      status = kExitFindings;
    }
  }
  return status;
}

KernelScheduleExploration explore_kernel_schedules(const KernelFileRequest& request,
                                                   std::size_t count) {
  KernelScheduleExploration explored;
  for (const Schedule& schedule : schedules_to_try(count)) {
    KernelFileRequest one = request;
    apply_schedule(schedule, one);
    KernelScheduleRun run{schedule, run_kernel_file(one), {}};
    const bool bad = run.result.status == RunStatus::bad_input;
    if (!explored.runs.empty() && run.result.status == RunStatus::completed &&
        explored.runs.front().result.status == RunStatus::completed) {
      run.differences = buffer_differences(explored.runs.front().result.buffers, run.result.buffers);
    }
    explored.runs.push_back(std::move(run));
    if (bad) break;
  }
  return explored;
}

bool ProgramScheduleExploration::found_something() const {
  return std::any_of(runs.begin(), runs.end(), [](const ProgramScheduleRun& r) {
    return !r.same_stdout || !r.same_exit_status || r.result.memory_finding_count() != 0;
  });
}

int ProgramScheduleExploration::exit_status() const {
  if (runs.empty()) return kExecBadInput;
  const int first = exec_exit_status(runs.front().result);
  if (first != 0) return first;
  return found_something() ? kExitFindings : 0;
}

ProgramScheduleExploration explore_program_schedules(const ProgramRequest& request,
                                                     std::size_t count) {
  ProgramScheduleExploration explored;
  for (const Schedule& schedule : schedules_to_try(count)) {
    ProgramRequest one = request;
    one.capture_stdout = true;
    apply_schedule(schedule, one);
    ProgramScheduleRun run{schedule, run_program(one)};
    const bool bad = run.result.status == ProgramStatus::bad_input;
    if (!explored.runs.empty()) {
      const ProgramResult& first = explored.runs.front().result;
      run.same_stdout = run.result.program_stdout == first.program_stdout;
      run.same_exit_status = exec_exit_status(run.result) == exec_exit_status(first);
    }
    explored.runs.push_back(std::move(run));
    if (bad) break;
  }
  return explored;
}

}  // namespace warpsim::runner
