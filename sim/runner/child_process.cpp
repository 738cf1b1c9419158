#include "child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>

namespace warpsim::runner {
namespace {

using Clock = std::chrono::steady_clock;

// Reads the child's frames until it closes the pipe, stopping it at the deadline: first with
// kTimeLimitSignal (it reports where it was), then, two seconds later, with SIGKILL.
void supervise(pid_t child, int fd, double timeout_seconds, ChildOutcome& outcome) {
  std::string bytes;
  auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double>(timeout_seconds));
  bool asked_to_stop = false;
  bool killed = false;
  char chunk[65536];
  while (true) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    pollfd entry{fd, POLLIN, 0};
    const int ready = left.count() > 0 ? poll(&entry, 1, static_cast<int>(left.count() + 1)) : 0;
    if (ready < 0 && errno == EINTR) continue;
    if (ready > 0) {
      const ssize_t n = read(fd, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;  // the child (and everything it could send) is gone
      bytes.append(chunk, static_cast<std::size_t>(n));
      continue;
    }
    if (Clock::now() < deadline) continue;
    if (!asked_to_stop) {
      outcome.timed_out = true;
      asked_to_stop = true;
      kill(child, kTimeLimitSignal);
    } else if (!killed) {
      killed = true;
      kill(child, SIGKILL);
    } else {
      break;  // killed, yet the pipe stays open: stop reading
    }
    deadline = Clock::now() + std::chrono::seconds(2);
  }
  // The pipe is closed; the child should be gone or going. Give it until the deadline.
  while (true) {
    const pid_t done = waitpid(child, &outcome.wait_status, WNOHANG);
    if (done == child || (done < 0 && errno != EINTR)) break;
    if (done == 0 && Clock::now() >= deadline) {
      kill(child, SIGKILL);
      while (waitpid(child, &outcome.wait_status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    if (done == 0) usleep(2000);
  }
  outcome.frames = parse_frames(bytes);
}

}  // namespace

ChildOutcome run_in_child(ChildJob job, double timeout_seconds) {
  ChildOutcome outcome;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    outcome.failure = std::string("pipe: ") + std::strerror(errno);
    return outcome;
  }
  std::fflush(nullptr);  // nothing buffered may be written twice
  const pid_t child = fork();
  if (child < 0) {
    outcome.failure = std::string("fork: ") + std::strerror(errno);
    close(fds[0]);
    close(fds[1]);
    return outcome;
  }
  if (child == 0) {
    close(fds[0]);
    job.result_fd = fds[1];
    run_child(job);
  }
  close(fds[1]);
  outcome.started = true;
  supervise(child, fds[0], timeout_seconds, outcome);
  close(fds[0]);
  return outcome;
}

std::string describe_wait_status(int wait_status) {
  if (WIFSIGNALED(wait_status)) {
    return "the kernel's process was killed by signal " + std::to_string(WTERMSIG(wait_status)) +
           " (" + strsignal(WTERMSIG(wait_status)) + ")";
  }
  return "the kernel's process exited with status " + std::to_string(WEXITSTATUS(wait_status)) +
         " before reporting";
}

}  // namespace warpsim::runner
