// The serving kernel host (host_session.hpp): one process per launch, forked on the parent's
// word. It runs none of the kernel's code itself: each launch's process confines itself and loads
// the kernel (kernel_child.cpp) after the fork, as a host started for that launch alone does.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <tuple>
#include <vector>

#include "host_session.hpp"
#include "kernel_child.hpp"

namespace warpsim::runner {
namespace {

bool reply(const ControlMessage& message) {
  while (true) {
    const ssize_t n = ::send(kControlFd, &message, sizeof message, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    return n == static_cast<ssize_t>(sizeof message);
  }
}

// The next message and the descriptors that came with it; false when the socket closed (or
// failed: the parent is gone either way).
bool receive(ControlMessage& message, std::vector<int>& fds) {
  fds.clear();
  iovec data{&message, sizeof message};
  alignas(cmsghdr) char space[CMSG_SPACE(sizeof(int) * (kMaxServedBuffers + 3))];
  msghdr header{};
  header.msg_iov = &data;
  header.msg_iovlen = 1;
  header.msg_control = space;
  header.msg_controllen = sizeof space;
  ssize_t n = 0;
  do {
    n = recvmsg(kControlFd, &header, MSG_CMSG_CLOEXEC);
  } while (n < 0 && errno == EINTR);
  for (cmsghdr* c = CMSG_FIRSTHDR(&header); c != nullptr; c = CMSG_NXTHDR(&header, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    const std::size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    const auto* received = reinterpret_cast<const int*>(CMSG_DATA(c));
    fds.insert(fds.end(), received, received + count);
  }
  return n == static_cast<ssize_t>(sizeof message);
}

void close_all(const std::vector<int>& fds) {
  for (const int fd : fds) close(fd);
}

// In the forked launch process: the descriptors as a host started for this launch has them
// (job, result pipe, buffers at theirs; the output as stdout and stderr), nothing else above
// stderr, the signals as exec leaves them, and the process as exec leaves it: dumpable (the
// serving host is not, so that no launch reads its memory), killed with its parent.
void become_launch(const std::vector<int>& fds, const sigset_t& mask, pid_t server) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != server) _exit(127);
  prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
  struct sigaction defaults {};
  defaults.sa_handler = SIG_DFL;
  sigaction(SIGCHLD, &defaults, nullptr);
  sigprocmask(SIG_SETMASK, &mask, nullptr);
  // fds: job, result, output, then the buffers.
  std::vector<std::pair<int, int>> moves{{fds[0], kJobFd}, {fds[1], kResultFd}, {fds[2], 1},
                                         {fds[2], 2}};
  for (std::size_t i = 3; i < fds.size(); ++i) {
    moves.emplace_back(fds[i], kFirstBufferFd + static_cast<int>(i - 3));
  }
  int above = kFirstBufferFd + static_cast<int>(fds.size() - 3);
  for (auto& [from, to] : moves) {
    // Lifted above every target first, so that no dup2 overwrites a source.
    from = fcntl(from, F_DUPFD, above);
    if (from < 0) _exit(127);
  }
  for (const auto& [from, to] : moves) {
    if (dup2(from, to) < 0) _exit(127);
  }
  // Everything above the last target: the control socket, the signalfd, the copies.
  if (close_range(static_cast<unsigned>(above), ~0U, 0) != 0) {
    for (int fd = above; fd < 65536; ++fd) close(fd);
  }
}

}  // namespace

void serve_launches() {
  // What a launch's process could read of this one is none of its business (host_session.hpp).
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  const pid_t self = getpid();
  sigset_t children, mask;
  sigemptyset(&children);
  sigaddset(&children, SIGCHLD);
  sigprocmask(SIG_BLOCK, &children, &mask);
  const int child_events = signalfd(-1, &children, SFD_CLOEXEC);
  if (child_events < 0) _exit(4);
  pid_t launch = -1;
  std::vector<int> fds;
  while (true) {
    pollfd entries[2] = {{kControlFd, POLLIN, 0}, {child_events, POLLIN, 0}};
    if (poll(entries, 2, -1) < 0) {
      if (errno == EINTR) continue;
      _exit(4);
    }
    if ((entries[1].revents & POLLIN) != 0) {
      signalfd_siginfo info{};
      (void)!read(child_events, &info, sizeof info);
      int status = 0;
      pid_t done = 0;
      while ((done = waitpid(-1, &status, WNOHANG)) > 0) {
        if (done != launch) continue;  // what a launch left behind, ended below
        launch = -1;
        // As PID 1 of its own PID namespace (bwrap), all that is left there is what the launch
        // started: it ends with the launch, as it would with a host of its own.
        if (self == 1) kill(-1, SIGKILL);
        reply({ControlTag::ended, status});
      }
    }
    if ((entries[0].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
    ControlMessage message;
    if (!receive(message, fds)) {
      close_all(fds);
      if (launch > 0) kill(launch, SIGKILL);
      _exit(0);
    }
    switch (message.tag) {
      case ControlTag::launch: {
        if (launch > 0 || fds.size() < 3) {  // the parent's mistake: one launch at a time
          close_all(fds);
          reply({ControlTag::not_started, EBUSY});
          break;
        }
        const pid_t pid = fork();
        if (pid == 0) {
          close(child_events);
          become_launch(fds, mask, self);
          return;  // kernel_host_main.cpp runs the launch
        }
        close_all(fds);
        if (pid < 0) {
          reply({ControlTag::not_started, errno});
        } else {
          launch = pid;
        }
        break;
      }
      case ControlTag::stop: {
        close_all(fds);
        ControlMessage answer{ControlTag::stopping};
        if (launch > 0) {
          std::tie(answer.cpu_seconds, answer.wait_seconds) = schedule_seconds_of(launch);
        }
        reply(answer);
        if (launch > 0) kill(launch, kTimeLimitSignal);
        break;
      }
      case ControlTag::kill:
        close_all(fds);
        if (launch > 0) kill(launch, SIGKILL);
        break;
      default:
        close_all(fds);
        break;
    }
  }
}

}  // namespace warpsim::runner
