// The kernel host's side of `warpsim run` (warpsim-kernel-host, a fresh process the parent
// starts with exec, run_in_child in child_process.hpp): load the compiled kernel, check the arguments against
// its parameters, launch it, and report through a pipe (child_protocol.hpp). A crash or the
// parent's time-limit signal is caught on an alternate stack and reported as a StopReport
// naming the lane, the fault address, the buffer it hit and the kernel frames.
#pragma once

#include <csignal>
#include <string>
#include <vector>

#include "argument_buffers.hpp"
#include "warpsim/launch.hpp"
#include "warpsim/runner.hpp"
#include "warpsim/sandbox.hpp"

namespace warpsim::runner {

// The kernel host's descriptors: the encoded JobMessage (a memory file to read from the start),
// the pipe for frames back, then one memory file per buffer in the JobMessage's order.
inline constexpr int kJobFd = 3;
inline constexpr int kResultFd = 4;
inline constexpr int kFirstBufferFd = 5;

// Sent by the parent when the wall-clock limit passes: the child reports where it is and exits.
inline constexpr int kTimeLimitSignal = SIGUSR1;

struct ChildJob {
  std::string shared_object;
  const std::vector<ArgSpec>* specs = nullptr;
  const ArgumentBuffers* buffers = nullptr;
  LaunchOptions options;
  bool want_trace = false;
  int result_fd = -1;
  // Confinement, after the stop handlers and before the kernel is loaded (its static
  // initialisers run under it too): confine_kernel_host in sandbox_process.hpp.
  Isolation isolation = Isolation::none;
  bool syscall_filter = false;
  std::uint64_t max_processes = 0;
  double time_limit_seconds = 0;  // JobMessage's: the launch's deadline, from its start
};

// Never returns: ends the process with _exit.
[[noreturn]] void run_child(const ChildJob& job);

}  // namespace warpsim::runner
