// `warpsim exec`: a whole CUDA program (main, cudaMalloc, kernel<<<...>>>, ...) built with the
// host compiler against the CUDA shim and run in a child process, every launch simulated and
// recorded; and the same program built with nvcc and run on a GPU, for comparison.
//
//   ProgramResult result = run_program({.files = {"saxpy.cu"}, .program_args = {"1024"}});
//   run_program({.files = {"main.cpp", "kernels.cu", "mmio.c"}});  // one program of three files
//   result.status, result.exit_code, result.launches[i].record.kernel, .trace.diagnostics
//
// Nothing here prints: the CLI renders the result. The program's own stdout and stderr pass
// through (or stdout is captured, for a comparison).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "warpsim/expected.hpp"
#include "warpsim/launch.hpp"
#include "warpsim/launch_record.hpp"
#include "warpsim/trace.hpp"

namespace warpsim::runner {

struct ProgramRequest {
  // The program's sources, each its own translation unit (.cu, .cpp, ...: CUDA C++ against the
  // shim; .c: C, as nvcc builds it); the first names the program. One file builds as ever.
  std::vector<std::string> files;
  std::string arch = "sm_90";             // as nvcc's -arch: sets __CUDA_ARCH__
  std::vector<std::string> include_dirs;  // -I
  std::vector<std::string> definitions;   // -D NAME or NAME=VALUE
  // Flags for the host compiler, at every compile and at the link, as nvcc's -Xcompiler passes
  // them (-fopenmp for a program that uses OpenMP).
  std::vector<std::string> host_compiler_flags;
  // Flags for the linker, as nvcc's -Xlinker passes them (--gc-sections: host functions no
  // kernel or main reaches, and the other files' functions they call, are dropped).
  std::vector<std::string> linker_flags;
  // Flags for nvcc in the GPU build only (exec --gpu), such as -rdc=true for a program whose
  // kernels launch kernels, as its own build sets it (CMake's CUDA_SEPARABLE_COMPILATION).
  std::vector<std::string> nvcc_flags;
  std::vector<std::string> program_args;  // after `--`
  std::string trace_dir;                  // one trace JSON per launch ("" for none)
  double time_limit_seconds = 60;         // wall clock, compile excluded
  std::uint64_t max_steps = 0;            // per launch; 0: the simulator's default
  // Threads a launch's independent blocks run on; 0: $WARPSIM_JOBS, else every core. Results,
  // traces and diagnostics are the same for any number (warpsim/block_pool.hpp).
  std::uint32_t jobs = 0;
  bool capture_stdout = false;  // ProgramResult::program_stdout instead of passing through
  // Records every launch's buffers into this existing folder (warpsim/launch_buffers.hpp has the
  // format), for compare_launch_buffers; "" records none. The nvcc build then carries
  // warpsim/gpu_launch_hooks.hpp.
  std::string buffers_dir;
  bool color_compiler_output = false;
  // `exec --check`: the program's CUDA files are compiled with -fsanitize=thread (a second cached
  // object) and every launch checks its kernels' accesses to the cudaMalloc'd blocks, the dynamic
  // shared memory and the __shared__ variables, as `run --check` does (warpsim/memory_checks.hpp).
  bool check_races = false;
  bool check_uninitialized_shared = false;
  bool check_bounds = false;
  bool any_check() const { return check_races || check_uninitialized_shared || check_bounds; }
  // The schedule every launch runs under (`exec --schedules`): as LaunchOptions' policy, seed and
  // order_seed. The defaults are the simulator's.
  ConvergencePolicy policy = ConvergencePolicy::maximal;
  std::uint64_t seed = 1;
  std::uint64_t order_seed = 0;
};

// `exec --check NAMES`, as run's add_memory_checks: races, uninit, bounds, all, comma-separated;
// every check includes bounds. The error names the unknown word.
Expected<void> add_memory_checks(std::string_view names, ProgramRequest& request);

enum class ProgramStatus : std::uint8_t {
  exited,          // the program ended by itself: exit_code is its own status
  kernel_stopped,  // warpsim stopped it at a launch that could not complete (deadlock, runaway)
  not_simulated,   // it reached what warpsim does not simulate (an API, a library): message says
  crashed,         // a signal ended it (in kernel code: the launch record names the lane)
  timeout,         // the time limit passed; it was killed
  bad_input,       // it never ran: missing file, compile or link error (details), unknown --arch
};
std::string_view to_string(ProgramStatus status);

struct ProgramLaunch {
  program::LaunchRecord record;  // the launch's last record (its outcome)
  Trace trace;  // diagnostics (and steps with trace_dir) when a trace was written; else empty
};

struct ProgramResult {
  ProgramStatus status = ProgramStatus::bad_input;
  int exit_code = 0;    // exited: the program's status
  int signal = 0;       // crashed, or killed at the time limit
  std::string message;  // why it did not exit by itself, or never ran (one line)
  std::string details;  // bad_input from a compile or link: the compiler's or linker's output
  std::vector<ProgramLaunch> launches;  // in program order
  std::string program_stdout;           // capture_stdout only
  double seconds = 0;                   // the program's run time (compile excluded)
  bool checked = false;                 // run with --check (ProgramRequest::any_check)

  std::uint64_t diagnostic_count() const;
  // Of those, the memory findings (is_memory_finding: a write outside an allocation, ...).
  std::uint64_t memory_finding_count() const;
  // Launches refused for their shape or shared memory (invalid_configuration): a GPU refuses them
  // too, with an error the program may never look at. Under --check they are findings, as
  // compute-sanitizer reports the launch's API error.
  std::uint64_t refused_launch_count() const;
  // Launches given host memory no CUDA call made (LaunchRecord::host_pointer_args): the simulator
  // reaches it, an H200 faults (cudaErrorIllegalAddress: docs/gpu-runs/host-memory-in-kernel.txt).
  // Under --check they are findings, as compute-sanitizer reports the kernel's invalid access.
  std::uint64_t host_memory_launch_count() const;
  // Runtime calls a GPU refuses too, which the program may never look at (a copy or memset
  // naming memory that is not device memory: program::check_copy), one line each, in order.
  // Under --check they are findings, as compute-sanitizer reports a call's API error.
  std::vector<std::string> refused_calls;
};

// Exit statuses of `warpsim exec` that are warpsim's own, chosen apart from what programs
// usually return (as timeout(1) does): otherwise it exits with the program's status.
// diagnostics, a launch that could not complete, or a call of what warpsim does not simulate
inline constexpr int kExecKernelProblem = 123;
inline constexpr int kExecTimeLimit = 124;
inline constexpr int kExecBadInput = 125;
// The program's status; when it returned 0: kExitFindings (122, as `warpsim run`'s) where a
// launch had a memory finding (a write before or after an allocation) or, under --check, a launch
// or runtime call was refused or a launch given host memory (refused_launch_count,
// refused_calls, host_memory_launch_count), else kExecKernelProblem
// where a launch had diagnostics; 128 + signal for a crash (as a shell reports it).
int exec_exit_status(const ProgramResult& result);

// Builds (cached, as kernel files are; several files each on its own, then linked) and runs the
// program; does not throw.
ProgramResult run_program(const ProgramRequest& request);

// The same program (all its files) built with nvcc (from PATH, $CUDA_HOME/bin or
// /usr/local/cuda/bin) for request.arch and run natively under the same time limit, stdout
// captured. No nvcc: an error of kind no_device; a compile error: kind compile with nvcc's output
// in details.
struct NativeRun {
  int exit_code = 0;  // 128 + signal when a signal ended it
  bool timed_out = false;
  std::string program_stdout;
  std::string nvcc_version;  // the first line of `nvcc --version` that names the release
  double seconds = 0;        // the program's run, wall clock (its build by nvcc not included)
};
Expected<NativeRun> run_program_with_nvcc(const ProgramRequest& request);

}  // namespace warpsim::runner
