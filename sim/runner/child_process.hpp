// Running a kernel in the kernel host process (warpsim-kernel-host, started with exec) under a
// wall-clock limit, from the parent's side. The limit counts from the launch's start (the child
// says when); its start-up (loading the kernel, static initialisers) has kStartAllowance more.
// The parent never hangs: at the limit the child is asked to report where it is
// (kTimeLimitSignal), and killed kStopGrace later if it has not gone.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include <utility>

#include "argument_buffers.hpp"
#include "child_protocol.hpp"
#include "sandbox_process.hpp"
#include "warpsim/sandbox.hpp"

namespace warpsim::runner {

// How long the kernel host may take to reach the launch, beyond the time limit.
inline constexpr double kStartAllowanceSeconds = 30;
// How long a child asked to stop has to report where it was before it is killed.
inline constexpr double kStopGraceSeconds = 5;
// How long after the time limit the supervisor waits before it stops a launch: the launch stops
// itself at the limit (JobMessage::time_limit_seconds) and sends what it found, which takes a
// moment (its lines are looked up); only a launch that cannot (a lane blocked in a system call)
// is stopped from outside, with where it was and nothing more.
inline constexpr double kSelfStopGraceSeconds = 2;

struct ChildOutcome {
  bool started = false;  // false: the kernel host could not be started; `failure` says why
  std::string failure;
  std::vector<Frame> frames;  // everything the child sent, in order
  int wait_status = 0;        // as waitpid reports it
  bool launched = false;      // the child said the launch began (FrameTag::started)
  bool timed_out = false;     // the limit passed and the child was stopped
  // timed_out: the time the kernel host had spent on a CPU, and ready to run but waiting for
  // one, when the limit passed (-1: unknown). Much waiting: the machine was busy.
  double cpu_seconds_at_limit = -1;
  double wait_seconds_at_limit = -1;
  bool too_much_output = false;  // it sent more than the sandbox's output limit and was killed
};

// Starts `host` on `job` with `buffers` (the memory files the job's buffer shapes describe) and
// collects its frames. With an active `box`, the host starts in that sandbox (spawn_confined),
// reading `readable` (its kernel object, its library) besides what the sandbox shows; its output
// goes to kernel-output.txt in the scratch folder, and at most box->limits.output_bytes of frames
// are read from it (then it is killed).
ChildOutcome run_in_child(const std::string& host, const JobMessage& job,
                          const ArgumentBuffers& buffers, double timeout_seconds,
                          const Sandbox* box = nullptr,
                          const std::vector<std::string>& readable = {});

// The pieces of run_in_child that a kernel host serving several launches (host_session.hpp) uses
// too. job_file: `job` encoded in a memory file (close-on-exec) to be read from its start; -1 with
// errno set when it cannot be made.
int job_file(const JobMessage& job);
// Starts `host` with `args`, giving it `fds` (descriptor here, number there): in `box` when it is
// active (spawn_confined, reading `readable` besides), else with exec as a plain child that starts
// with no signal blocked and the time-limit signal at its default.
SpawnedProcess spawn_kernel_host(const std::string& host, const std::vector<std::string>& args,
                                 const std::vector<std::pair<int, int>>& fds, const Sandbox* box,
                                 const std::vector<std::string>& readable);
// kernel-output.txt in `box`'s scratch folder, emptied: the kernel's stdout and stderr in a
// sandbox (close-on-exec; -1 with errno set when it cannot be made).
int open_kernel_output(const Sandbox& box);

// What `pid` (its main thread: the kernel runs there) has had of the machine so far, from
// /proc/PID/schedstat: seconds on a CPU, and seconds it was ready to run but waited for one.
// {-1, -1} where the kernel does not say.
std::pair<double, double> schedule_seconds_of(pid_t pid);

// "the kernel's process was killed by signal 9 (Killed)", for an ending without a report.
std::string describe_wait_status(int wait_status);

}  // namespace warpsim::runner
