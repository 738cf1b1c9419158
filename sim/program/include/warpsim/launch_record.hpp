// What a whole program run by `warpsim exec` tells the parent about its launches: one JSON line
// per event in <dir>/launches.jsonl (dir from kProgramDirEnv), appended as they happen, so that a
// program that crashes or hangs in a launch has already said which one. A launch writes a line
// when it starts (status "running") and another when it ends; a crash in kernel code adds a
// "crashed" line with the lane. The last line of an index is the launch's outcome.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warpsim/trace.hpp"

namespace warpsim::program {

// The environment of a program run by `warpsim exec`.
inline constexpr const char* kProgramDirEnv = "WARPSIM_PROGRAM_DIR";             // launches.jsonl
inline constexpr const char* kProgramTraceDirEnv = "WARPSIM_PROGRAM_TRACE_DIR";  // --trace DIR
inline constexpr const char* kProgramMaxStepsEnv = "WARPSIM_PROGRAM_MAX_STEPS";
// Threads a launch's blocks may run on (exec --jobs); unset: every core.
inline constexpr const char* kProgramJobsEnv = "WARPSIM_JOBS";
// exec --check: the checks every launch makes, comma-separated (races, uninit, bounds); unset: none.
inline constexpr const char* kProgramChecksEnv = "WARPSIM_PROGRAM_CHECKS";
// With --check uninit: the byte the build fills never-set locals with (LaunchOptions::never_set_fill).
inline constexpr const char* kProgramNeverSetFillEnv = "WARPSIM_PROGRAM_NEVER_SET_FILL";
// exec --schedules: the schedule of every launch, "POLICY:SEED:ORDER_SEED" (maximal or
// interleaved, as LaunchOptions' policy, seed and order_seed); unset: the default schedule.
inline constexpr const char* kProgramScheduleEnv = "WARPSIM_PROGRAM_SCHEDULE";
// exec --time-limit: when the run ends, in nanoseconds of the steady clock (CLOCK_MONOTONIC,
// one clock for every process of the machine). A launch running then stops with status
// time_limit and its findings so far; the program ends there.
inline constexpr const char* kProgramDeadlineEnv = "WARPSIM_PROGRAM_DEADLINE_NS";
inline constexpr const char* kLaunchRecordFile = "launches.jsonl";
// The status a program ends with when warpsim stops it at a launch that could not complete.
inline constexpr int kProgramStoppedExitStatus = 86;
// The status a program ends with when it reaches what warpsim does not simulate (a CUDA API, a
// library's function): kNotSimulatedFile in the program's folder holds the one-line message.
inline constexpr int kProgramNotSimulatedExitStatus = 87;
inline constexpr const char* kNotSimulatedFile = "not_simulated.txt";
// Runtime calls a GPU refuses too (a copy into memory that is not device memory), one line each:
// "cudaMemcpy at FILE:LINE returned cudaErrorInvalidValue: why".
inline constexpr const char* kRefusedCallsFile = "refused_calls.txt";

struct LaunchRecord {
  std::uint64_t index = 0;  // 0, 1, 2, ... in program order
  std::string kernel;       // as written at the launch
  std::string file;         // where the launch is written
  std::uint32_t line = 0;
  Dim3 grid{}, block{};
  std::uint64_t shared_bytes = 0;
  std::uint64_t stream = 0;  // the stream handle's value; 0 for the default stream
  // A launch from kernel code (dynamic parallelism): the index of the grid that made it, and how
  // deep it is nested (1: launched by a grid the host launched). Host launches: none, 0.
  std::optional<std::uint64_t> parent;
  std::uint32_t depth = 0;
  // running (started, no end yet), completed, deadlock, step_budget_exceeded, kernel_exception,
  // invalid_configuration (refused, nothing ran), crashed (a signal in kernel code); launches from
  // kernel code also: refused (nesting too deep, too many pending; the message says which) and
  // not_run (its parent grid stopped at a device assert)
  std::string status;
  std::string message;  // why it did not complete
  std::uint64_t steps = 0;
  std::uint64_t diagnostics = 0;
  // Zero-based indexes of pointer arguments into no cudaMalloc'd (or managed, or host-allocated)
  // memory: host memory, which the simulator reaches and a GPU kernel may fault on.
  std::vector<std::uint32_t> host_pointer_args;
  std::string trace_file;  // the launch's trace JSON (written with diagnostics, or for --trace)
  // crashed: the signal and the lane that was running
  int signal = 0;
  std::uint64_t crash_block = 0;
  std::uint32_t crash_thread = 0;
  std::string crash_file;
  std::uint32_t crash_line = 0;
  // A fault in the guard page of an allocation: "out-of-bounds access of element 32 of argument
  // 1 of the launch (...)"; empty otherwise.
  std::string crash_memory;
};

std::string to_json_line(const LaunchRecord& record);  // one line, no newline
std::optional<LaunchRecord> launch_record_from_json(std::string_view line);

}  // namespace warpsim::program
