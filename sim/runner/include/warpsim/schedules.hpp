// `--schedules N`: one launch (or one whole program) run under N seeded schedules, each an order
// the CUDA model allows: the default, seeded block and warp orders, and the interleaved policy
// with its seeded lane orders. A race-free kernel gives the same
// buffers in every one; a lost update or a racy read-modify-write that the default order happens
// to get right shows up as buffers that differ, named with the schedule that shows it.
//
//   auto explored = explore_kernel_schedules(request, 8);
//   for (const ScheduleRun& run : explored.runs) run.schedule, run.result, run.differences
//   rerun one alone: warpsim run ... schedule_flags(explored.runs[3].schedule)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "warpsim/launch.hpp"
#include "warpsim/program.hpp"
#include "warpsim/runner.hpp"

namespace warpsim::runner {

struct Schedule {
  ConvergencePolicy policy = ConvergencePolicy::maximal;
  std::uint64_t seed = 1;        // LaunchOptions::seed (the interleaved policy's lane order)
  std::uint64_t order_seed = 0;  // LaunchOptions::order_seed (block and warp orders)
};

// The first `count` schedules --schedules tries, the default one first, then in turn seeded
// block/warp orders, the interleaved policy, and both, seeds 1, 2, ...
std::vector<Schedule> schedules_to_try(std::size_t count);
// The flags that rerun one schedule alone: "--policy interleaved --seed 2 --order-seed 2"
// ("--policy maximal" for the default one).
std::string schedule_flags(const Schedule& schedule);
void apply_schedule(const Schedule& schedule, KernelFileRequest& request);
void apply_schedule(const Schedule& schedule, ProgramRequest& request);

// A buffer whose elements differ from the first schedule's.
struct BufferDifference {
  std::size_t arg = 0;       // zero-based parameter index
  std::int32_t field = -1;   // as OutputBuffer::field
  ElementType type = ElementType::i32;
  std::uint64_t elements = 0;        // elements that differ
  std::uint64_t first_element = 0;   // the first of them
  std::uint64_t first_bits = 0;      // its bits under the first schedule
  std::uint64_t bits = 0;            // and under this one
};
std::vector<BufferDifference> buffer_differences(const std::vector<OutputBuffer>& first,
                                                 const std::vector<OutputBuffer>& other);

struct KernelScheduleRun {
  Schedule schedule;
  KernelFileResult result;
  std::vector<BufferDifference> differences;  // against runs[0] (both completed)
};
struct KernelScheduleExploration {
  std::vector<KernelScheduleRun> runs;
  // Any schedule with a memory finding or buffers unlike the first's.
  bool found_something() const;
  // As `warpsim run --schedules` exits: the worst of the runs' statuses (bad input first), and
  // kExitFindings where every run completed but buffers differ.
  int exit_status() const;
};
// Runs the request under each of schedules_to_try(count); stops after a run of bad input (the
// rest would be the same).
KernelScheduleExploration explore_kernel_schedules(const KernelFileRequest& request,
                                                   std::size_t count);

struct ProgramScheduleRun {
  Schedule schedule;
  ProgramResult result;  // stdout captured
  bool same_stdout = true;       // as runs[0]'s
  bool same_exit_status = true;  // as runs[0]'s warpsim exit status
};
struct ProgramScheduleExploration {
  std::vector<ProgramScheduleRun> runs;
  bool found_something() const;  // a memory finding, or stdout or status unlike the first's
  // The first run's exec_exit_status, else kExitFindings where a later run found something or
  // differs.
  int exit_status() const;
};
ProgramScheduleExploration explore_program_schedules(const ProgramRequest& request,
                                                     std::size_t count);

}  // namespace warpsim::runner
