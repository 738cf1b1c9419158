// The parent's side of a serving kernel host (host_session.hpp): each launch supervised as
// run_in_child supervises a host of its own (child_process.hpp): the time limit from the
// launch's `started` frame, the start-up allowance before it, kTimeLimitSignal at the limit and
// SIGKILL kStopGraceSeconds later, at most the sandbox's output limit read back. The signals go
// through the serving host, which alone knows the launch's process inside its PID namespace.
#include "host_session.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <limits>
#include <utility>

#include "kernel_child.hpp"
#include "sandbox_process.hpp"

namespace warpsim::runner {
namespace {

using Clock = std::chrono::steady_clock;

Clock::duration seconds(double s) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

// Waits for `pid` until `deadline`; false when it has not ended by then.
bool wait_until(pid_t pid, int& status, Clock::time_point deadline) {
  while (true) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid || (done < 0 && errno != EINTR)) return true;
    if (Clock::now() >= deadline) return false;
    usleep(2000);
  }
}

}  // namespace

HostSession::HostSession(std::string host, Sandbox box, std::vector<std::string> readable)
    : host_(std::move(host)), box_(std::move(box)), readable_(std::move(readable)) {}

HostSession::~HostSession() {
  if (control_ >= 0) end(false);
}

bool HostSession::start(std::string& failure) {
  int pair[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0) {
    failure = std::string("socketpair: ") + std::strerror(errno);
    return false;
  }
  const SpawnedProcess spawned = spawn_kernel_host(host_, {kServeArgument}, {{pair[1], kControlFd}},
                                                   box_.active() ? &box_ : nullptr, readable_);
  close(pair[1]);
  if (spawned.pid < 0) {
    close(pair[0]);
    failure = spawned.failure;
    return false;
  }
  control_ = pair[0];
  ++starts_;
  pid_ = spawned.pid;
  signal_pid_ = spawned.signal_pid;
  return true;
}

int HostSession::end(bool kill_first) {
  close(control_);  // the host's word to exit
  control_ = -1;
  int status = 0;
  if (kill_first || !wait_until(pid_, status, Clock::now() + seconds(kStopGraceSeconds))) {
    kill(signal_pid_, SIGKILL);
    kill(pid_, SIGKILL);
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
  pid_ = signal_pid_ = -1;
  return box_.active() ? program_wait_status(box_, status) : status;
}

bool HostSession::send(const ControlMessage& message, const std::vector<int>& fds) {
  iovec data{const_cast<ControlMessage*>(&message), sizeof message};
  msghdr header{};
  header.msg_iov = &data;
  header.msg_iovlen = 1;
  std::vector<char> space(CMSG_SPACE(sizeof(int) * fds.size()));
  if (!fds.empty()) {
    header.msg_control = space.data();
    header.msg_controllen = space.size();
    cmsghdr* c = CMSG_FIRSTHDR(&header);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
    std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
  }
  while (true) {
    const ssize_t n = sendmsg(control_, &header, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    return n == static_cast<ssize_t>(sizeof message);
  }
}

ChildOutcome HostSession::run(const JobMessage& job, const ArgumentBuffers& buffers,
                              double timeout_seconds) {
  if (buffers.buffers().size() > kMaxServedBuffers) {
    return run_in_child(host_, job, buffers, timeout_seconds, box_.active() ? &box_ : nullptr,
                        readable_);
  }
  ChildOutcome outcome;
  std::vector<int> fds;  // job, result pipe, output: closed here once the host has them
  int result_fd = -1;
  const auto close_fds = [&] {
    for (const int fd : fds) close(fd);
    fds.clear();
  };
  const auto failed = [&](const std::string& what) {
    outcome.failure = what + ": " + std::strerror(errno);
    close_fds();
    if (result_fd >= 0) close(result_fd);
    return outcome;
  };
  const int job_fd = job_file(job);
  if (job_fd < 0) return failed("writing the kernel's job");
  fds.push_back(job_fd);
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) return failed("pipe");
  result_fd = pipe_fds[0];
  fds.push_back(pipe_fds[1]);
  // Its output: kernel-output.txt in the sandbox's scratch folder (emptied, as for a host of its
  // own), else this process's stderr, as a host started here would inherit it.
  const int out_fd = box_.active() ? open_kernel_output(box_) : fcntl(2, F_DUPFD_CLOEXEC, 3);
  if (out_fd < 0) {
    return failed(box_.active() ? "cannot create " + box_.scratch + "/kernel-output.txt"
                                : std::string("dup"));
  }
  fds.push_back(out_fd);
  std::vector<int> passed = fds;
  for (const GuardedBuffer& buffer : buffers.buffers()) passed.push_back(buffer.fd);
  // A host that ended since the last launch (it never should) is started again, once.
  bool sent = false;
  for (int attempt = 0; attempt < 2 && !sent; ++attempt) {
    if (control_ < 0) {
      std::string why;
      if (!start(why)) {
        outcome.failure = why;
        close_fds();
        close(result_fd);
        return outcome;
      }
    }
    sent = send({ControlTag::launch}, passed);
    if (!sent) end(true);
  }
  close_fds();
  if (!sent) {
    close(result_fd);
    outcome.failure = "cannot hand the launch to the kernel host " + host_;
    return outcome;
  }
  outcome.started = true;
  supervise(result_fd, timeout_seconds, outcome);
  close(result_fd);
  return outcome;
}

// As supervise in child_process.cpp, with the launch's process signalled through the host and its
// end told by the host (`ended`); when the host itself ends, the launch ended with it.
void HostSession::supervise(int result_fd, double timeout_seconds, ChildOutcome& outcome) {
  const std::uint64_t max_bytes =
      box_.active() ? box_.limits.output_bytes : std::numeric_limits<std::uint64_t>::max();
  std::string bytes;
  auto deadline = Clock::now() + seconds(timeout_seconds + kStartAllowanceSeconds);
  bool asked_to_stop = false;
  bool killed = false;
  bool reading = true;  // the result pipe is open
  bool ended = false;   // the host said the launch's process is gone, or the host is gone
  const auto host_gone = [&] {
    outcome.wait_status = end(true);
    ended = true;
  };
  const auto control_message = [&] {
    ControlMessage message;
    ssize_t n = 0;
    do {
      n = recv(control_, &message, sizeof message, 0);
    } while (n < 0 && errno == EINTR);
    if (n != static_cast<ssize_t>(sizeof message)) {
      host_gone();
      return;
    }
    if (message.tag == ControlTag::ended) {
      outcome.wait_status = message.value;
      ended = true;
    } else if (message.tag == ControlTag::stopping) {
      outcome.cpu_seconds_at_limit = message.cpu_seconds;
      outcome.wait_seconds_at_limit = message.wait_seconds;
    } else if (message.tag == ControlTag::not_started) {
      // No process was made: nothing was launched, and nothing will write to the pipe.
      outcome.started = false;
      outcome.failure = std::string("the kernel host could not start the launch's process: ") +
                        std::strerror(message.value);
      ended = true;
      reading = false;
    }
  };
  char chunk[65536];
  while (reading || !ended) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    pollfd entries[2] = {{reading ? result_fd : -1, POLLIN, 0},
                         {control_ >= 0 && !ended ? control_ : -1, POLLIN, 0}};
    const int ready = left.count() > 0 ? poll(entries, 2, static_cast<int>(left.count() + 1)) : 0;
    if (ready < 0 && errno == EINTR) continue;
    if (ready > 0) {
      if ((entries[1].revents & (POLLIN | POLLHUP | POLLERR)) != 0) control_message();
      if ((entries[0].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
        const ssize_t n = read(result_fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
          reading = false;  // the launch's process (and everything it could send) is gone
        } else if (bytes.size() + static_cast<std::size_t>(n) > max_bytes) {
          outcome.too_much_output = true;
          reading = false;
          if (!ended && control_ >= 0) send({ControlTag::kill});
          killed = true;
          deadline = Clock::now() + seconds(kStopGraceSeconds);
        } else {
          bytes.append(chunk, static_cast<std::size_t>(n));
          if (!outcome.launched && !asked_to_stop && has_started_frame(bytes)) {
            outcome.launched = true;
            deadline = Clock::now() + seconds(timeout_seconds + kSelfStopGraceSeconds);
          }
        }
      }
      continue;
    }
    if (Clock::now() < deadline) continue;
    if (ended) break;  // gone, yet the pipe stays open: stop reading
    if (reading && !asked_to_stop) {
      outcome.timed_out = true;
      asked_to_stop = true;
      send({ControlTag::stop});
    } else if (!killed) {
      killed = true;
      send({ControlTag::kill});
    } else {
      host_gone();  // killed, yet still there: the host goes with it
      break;
    }
    deadline = Clock::now() + seconds(kStopGraceSeconds);
  }
  outcome.frames = parse_frames(bytes);
}

}  // namespace warpsim::runner
