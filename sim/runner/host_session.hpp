// A kernel host that serves many launches of one compiled kernel (a grader's cases of one
// submission): started once, in the sandbox when there is one, it forks one process per launch.
// That process is what a kernel host started for one launch is (kernel_host_main.cpp: the job at
// kJobFd, frames to kResultFd, the buffers from kFirstBufferFd, output to its stdout and
// stderr), made by a fork instead of a sandbox's start and an exec: it confines itself and loads
// the kernel as that host does, and ends after its launch, so no launch sees another's memory.
//
// The parent talks to the serving host over a socket pair (its end at kControlFd there):
//   launch  + descriptors (job, result pipe, output, buffers) -> the host forks the launch's process
//   stop    -> the host replies `stopping` with that process's CPU and waiting seconds, then sends
//              it kTimeLimitSignal (it reports where it was and exits)
//   kill    -> SIGKILL to that process
//   ended   <- the launch's process is gone: its wait status
//   the socket closed -> the host kills the launch's process, if any, and exits
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "argument_buffers.hpp"
#include "child_process.hpp"
#include "child_protocol.hpp"
#include "warpsim/sandbox.hpp"

namespace warpsim::runner {

// argv[1] of a kernel host that serves launches; its control socket is descriptor 3.
inline constexpr const char* kServeArgument = "--serve-launches";
inline constexpr int kControlFd = 3;

enum class ControlTag : std::uint32_t {
  launch = 1,   // with descriptors: job, result pipe's write end, output, then each buffer
  stop = 2,
  kill = 3,
  ended = 4,     // value: the launch's wait status
  stopping = 5,  // cpu_seconds, wait_seconds (-1: not known)
  not_started = 6,  // value: fork's errno
};

struct ControlMessage {
  ControlTag tag{};
  std::int32_t value = 0;
  double cpu_seconds = -1;
  double wait_seconds = -1;
};

// The most buffers one launch may pass to a serving host (descriptors of one message); a launch
// with more runs in a host of its own.
inline constexpr std::size_t kMaxServedBuffers = 200;

// The serving host's side (kernel_host_main.cpp with kServeArgument): answers the parent until
// the socket closes, then exits. Returns only in a launch's forked process, whose descriptors are
// then those of a host started for that launch alone.
void serve_launches();

// The parent's side: one serving host, started at the first launch and again after it ended
// (killed, or its sandbox failed). One launch at a time; one thread.
class HostSession {
 public:
  // `host`: warpsim-kernel-host; `box`: the sandbox to start it in (inactive: none);
  // `readable`: paths inside the sandbox's hidden folders it reads (the kernel object, its
  // library).
  HostSession(std::string host, Sandbox box, std::vector<std::string> readable);
  ~HostSession();
  HostSession(const HostSession&) = delete;
  HostSession& operator=(const HostSession&) = delete;

  // One launch, as run_in_child makes it: the same outcome for the same kernel.
  ChildOutcome run(const JobMessage& job, const ArgumentBuffers& buffers, double timeout_seconds);
  std::size_t starts() const { return starts_; }  // hosts started so far

 private:
  bool start(std::string& failure);
  // Ends the host (kills it when it does not end at once); its wait status as its program's.
  int end(bool kill_first);
  bool send(const ControlMessage& message, const std::vector<int>& fds = {});
  void supervise(int result_fd, double timeout_seconds, ChildOutcome& outcome);

  std::string host_;
  Sandbox box_;
  std::vector<std::string> readable_;
  int control_ = -1;  // -1: no host running
  pid_t pid_ = -1;
  pid_t signal_pid_ = -1;
  std::size_t starts_ = 0;
};

}  // namespace warpsim::runner
