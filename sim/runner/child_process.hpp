// Running a kernel in the kernel host process (warpsim-kernel-host, started with exec) under a
// wall-clock limit, from the parent's side. The parent never hangs: at the limit the child is asked to report where it is (kTimeLimitSignal),
// and killed two seconds later if it has not gone.
#pragma once

#include <string>
#include <vector>

#include "child_protocol.hpp"
#include "argument_buffers.hpp"

namespace warpsim::runner {

struct ChildOutcome {
  bool started = false;  // false: the kernel host could not be started; `failure` says why
  std::string failure;
  std::vector<Frame> frames;  // everything the child sent, in order
  int wait_status = 0;        // as waitpid reports it
  bool timed_out = false;     // the limit passed and the child was stopped
};

// Starts `host` on `job` with `buffers` (the memory files the job's buffer shapes describe) and
// collects its frames.
ChildOutcome run_in_child(const std::string& host, const JobMessage& job,
                          const ArgumentBuffers& buffers, double timeout_seconds);

// "the kernel's process was killed by signal 9 (Killed)", for an ending without a report.
std::string describe_wait_status(int wait_status);

}  // namespace warpsim::runner
