// Between the parent and the kernel host process (warpsim-kernel-host) that runs a kernel: the
// job it is given (a JobMessage, in a memory file), and what it sends back through a pipe:
// framed messages (tag, length, bytes). Buffers need no message: they live in shared mappings.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "argument_buffers.hpp"
#include "warpsim/launch.hpp"
#include "warpsim/sandbox.hpp"
#include "warpsim/trace.hpp"

namespace warpsim::runner {

enum class FrameTag : std::uint32_t {
  summary = 1,     // an encoded RunSummary: the launch finished (completed, deadlock, budget)
  steps = 2,       // StepLog::serialize of the trace's steps, when they were recorded
  bad_input = 3,   // one line: the kernel's parameters do not take the --arg list, ...
  stopped = 4,     // a StopReport: a signal stopped the kernel (crash, or the time limit)
  started = 5,     // empty: the launch begins; the time limit counts from here, not from the
                   // process's start (loading the kernel takes seconds on a loaded machine)
};

struct Frame {
  FrameTag tag{};
  std::string payload;
};

// Writes one frame (retrying short writes). Async-signal-safe when payload is plain memory.
bool write_frame(int fd, FrameTag tag, const void* payload, std::size_t bytes);
// The complete frames in `bytes`; a truncated last frame is dropped.
std::vector<Frame> parse_frames(std::string_view bytes);
// Whether `bytes` holds the host's `started` frame (the launch's time limit counts from there).
bool has_started_frame(std::string_view bytes);

// The outcome of a launch that returned.
struct RunSummary {
  LaunchStatus status = LaunchStatus::completed;
  std::string message;
  std::uint64_t steps = 0;
  std::vector<std::string> files;
  std::vector<Diagnostic> diagnostics;
  std::vector<PrintfRecord> printf_records;
  std::vector<WarpWait> waits;
  // time_limit: the launch process's seconds on a CPU and waiting for one when it stopped itself
  // (as the supervisor's stop measures them: schedule_seconds_of); -1 otherwise.
  double cpu_seconds_at_limit = -1;
  double wait_seconds_at_limit = -1;
};

std::string encode(const RunSummary& summary);
std::optional<RunSummary> decode_summary(std::string_view bytes);

// What the kernel host runs: the kernel's shared object, the arguments (each spec's type,
// is_buffer, scalar_bits and count, and a struct's fields likewise; buffers come as memory files,
// their shapes here), the launch.
struct JobMessage {
  std::string shared_object;
  std::vector<ArgSpec> specs;
  std::vector<GuardedBuffer> buffers;  // arg, field, type and count of each; the fds travel apart
  LaunchOptions options;
  bool want_trace = false;
  // The sandbox the host was started in (sandbox_process.hpp's confine_kernel_host): it confines
  // itself before it loads the kernel.
  Isolation isolation = Isolation::none;
  bool syscall_filter = false;
  std::uint64_t max_processes = 0;
  // The run's time limit (--timeout): the launch stops itself this long after it starts
  // (LaunchOptions::deadline, set there), keeping its findings; 0: none.
  double time_limit_seconds = 0;
};

std::string encode(const JobMessage& job);
std::optional<JobMessage> decode_job(std::string_view bytes);

// Written from a signal handler, so plain data only.
struct StopReport {
  // SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT; SIGUSR1: time limit; SIGSYS: a call the sandbox's
  // filter stops; SIGXFSZ, SIGXCPU: the sandbox's file size and CPU time limits
  std::int32_t signal = 0;
  std::int32_t code = 0;      // si_code
  std::int64_t syscall = -1;  // SIGSYS: the system call's number
  std::uint64_t fault_address = 0;
  std::uint64_t stack_pointer = 0;
  std::uint64_t pc = 0;
  std::int32_t write_access = -1;  // SIGSEGV: 1 a write, 0 a read, -1 unknown
  std::int32_t have_lane = 0;      // whether a lane was running (then the coordinates below)
  std::uint64_t block = 0;         // linear block index
  std::uint32_t block_idx[3] = {};
  std::uint32_t thread = 0;  // linear thread index within the block
  std::uint32_t warp = 0;
  std::uint32_t lane = 0;
  char last_file[512] = {};  // the lane's last warp-level call or barrier, when known
  std::uint32_t last_line = 0;
  std::int64_t buffer_arg = -1;  // the fault address lies in this buffer's guard page
  std::int64_t buffer_field = -1;  // ... of this field of a struct argument (-1: the argument's)
  std::int64_t element = 0;      // ... at this element index
  std::int64_t shared_offset = -1;  // or past the dynamic shared memory, at this byte offset
  std::uint64_t steps = 0;        // warp-level steps simulated before the stop
  std::uint32_t spin_warp = 0;    // lanes that spin in one loop (LanePosition::spin_lanes)
  std::uint32_t spin_lanes = 0;
  char spin_file[512] = {};
  std::uint32_t spin_line = 0;
  // A general register at the fault that held the never-set pattern (LaunchOptions::
  // never_set_fill as a 32-bit value, or sign-extended): the address was likely computed from a
  // local nothing set. 0: none (or the pattern is unknown).
  std::uint64_t never_set_register = 0;
  std::uint32_t frame_count = 0;
  // Offsets into the kernel's shared object of the faulting pc (exact) and the return addresses
  // (minus one, so they fall inside the call) that lie in it, innermost first.
  std::uint64_t frames[32] = {};
};

}  // namespace warpsim::runner
