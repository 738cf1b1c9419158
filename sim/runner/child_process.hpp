// Running a ChildJob in a forked child under a wall-clock limit, from the parent's side. The
// parent never hangs: at the limit the child is asked to report where it is (kTimeLimitSignal),
// and killed two seconds later if it has not gone.
#pragma once

#include <string>
#include <vector>

#include "child_protocol.hpp"
#include "kernel_child.hpp"

namespace warpsim::runner {

struct ChildOutcome {
  bool started = false;  // false: pipe or fork failed; `failure` says why
  std::string failure;
  std::vector<Frame> frames;  // everything the child sent, in order
  int wait_status = 0;        // as waitpid reports it
  bool timed_out = false;     // the limit passed and the child was stopped
};

// Forks; the child runs `job` (its result_fd set here) and the parent collects its frames.
ChildOutcome run_in_child(ChildJob job, double timeout_seconds);

// "the kernel's process was killed by signal 9 (Killed)", for an ending without a report.
std::string describe_wait_status(int wait_status);

}  // namespace warpsim::runner
