#include "child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <limits>
#include <tuple>
#include <utility>
#include <vector>

#include "kernel_child.hpp"
#include "sandbox_process.hpp"

namespace warpsim::runner {
namespace {

using Clock = std::chrono::steady_clock;

// What `pid` (its main thread: the kernel runs there) has had of the machine so far, from
// /proc/PID/schedstat: seconds on a CPU, and seconds it was ready to run but waited for one.
// {-1, -1} where the kernel does not say.
std::pair<double, double> schedule_seconds_of(pid_t pid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/schedstat", static_cast<int>(pid));
  FILE* f = std::fopen(path, "re");
  if (f == nullptr) return {-1, -1};
  unsigned long long on_cpu = 0, waiting = 0;
  const int read = std::fscanf(f, "%llu %llu", &on_cpu, &waiting);
  std::fclose(f);
  if (read != 2) return {-1, -1};
  return {static_cast<double>(on_cpu) * 1e-9, static_cast<double>(waiting) * 1e-9};
}

// Reads the child's frames until it closes the pipe, stopping it at the deadline (the time limit
// after its `started` frame; before it, the start-up allowance too): first with
// kTimeLimitSignal (it reports where it was), then, kStopGraceSeconds later, with SIGKILL.
// `signal_pid` is the host itself (inside bwrap, not bwrap); `child` is what is waited for.
// `max_bytes`: more than this from the child kills it.
void supervise(pid_t child, pid_t signal_pid, int fd, double timeout_seconds,
               std::uint64_t max_bytes, ChildOutcome& outcome) {
  std::string bytes;
  const auto seconds = [](double s) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  };
  auto deadline = Clock::now() + seconds(timeout_seconds + kStartAllowanceSeconds);
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
      if (bytes.size() + static_cast<std::size_t>(n) > max_bytes) {
        outcome.too_much_output = true;
        kill(signal_pid, SIGKILL);
        kill(child, SIGKILL);
        break;
      }
      bytes.append(chunk, static_cast<std::size_t>(n));
      if (!outcome.launched && !asked_to_stop) {
        for (const Frame& frame : parse_frames(bytes)) {
          if (frame.tag != FrameTag::started) continue;
          outcome.launched = true;
          deadline = Clock::now() + seconds(timeout_seconds);
        }
      }
      continue;
    }
    if (Clock::now() < deadline) continue;
    if (!asked_to_stop) {
      outcome.timed_out = true;
      std::tie(outcome.cpu_seconds_at_limit, outcome.wait_seconds_at_limit) =
          schedule_seconds_of(signal_pid);
      asked_to_stop = true;
      kill(signal_pid, kTimeLimitSignal);
    } else if (!killed) {
      killed = true;
      kill(signal_pid, SIGKILL);
      kill(child, SIGKILL);
    } else {
      break;  // killed, yet the pipe stays open: stop reading
    }
    deadline = Clock::now() + seconds(kStopGraceSeconds);
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

ChildOutcome run_in_child(const std::string& host, const JobMessage& job,
                          const ArgumentBuffers& buffers, double timeout_seconds,
                          const Sandbox* box, const std::vector<std::string>& readable) {
  ChildOutcome outcome;
  std::vector<int> opened;  // closed before returning, whatever happens
  const auto close_all = [&] {
    for (const int fd : opened) close(fd);
  };
  const auto failed = [&](const std::string& what) {
    outcome.failure = what + ": " + std::strerror(errno);
    close_all();
    return outcome;
  };
  // The job in a memory file: the host reads it at its pace, and a host that never starts leaves
  // no writer blocked on a pipe.
  const int job_fd = memfd_create("warpsim-job", MFD_CLOEXEC);
  if (job_fd < 0) return failed("memfd_create");
  opened.push_back(job_fd);
  const std::string bytes = encode(job);
  for (std::size_t done = 0; done < bytes.size();) {
    const ssize_t n = write(job_fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return failed("writing the kernel's job");
    done += static_cast<std::size_t>(n);
  }
  if (lseek(job_fd, 0, SEEK_SET) != 0) return failed("writing the kernel's job");
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return failed("pipe");
  opened.push_back(fds[0]);
  opened.push_back(fds[1]);

  if (box != nullptr && box->active()) {
    // The host's own output (what the kernel prints, or writes to stdout) into the scratch
    // folder, where the file size limit bounds it.
    const std::string log = box->scratch + "/kernel-output.txt";
    const int out_fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (out_fd < 0) return failed("cannot create " + log);
    opened.push_back(out_fd);
    ConfinedSpawn spawn{{host}, {{job_fd, kJobFd}, {fds[1], kResultFd}, {out_fd, 1}, {out_fd, 2}},
                        {}, readable, true};
    for (std::size_t i = 0; i < buffers.buffers().size(); ++i) {
      spawn.fds.emplace_back(buffers.buffers()[i].fd, kFirstBufferFd + static_cast<int>(i));
    }
    const SpawnedProcess child = spawn_confined(*box, spawn);
    if (child.pid < 0) {
      outcome.failure = child.failure;
      close_all();
      return outcome;
    }
    std::erase(opened, fds[0]);
    close_all();
    outcome.started = true;
    supervise(child.pid, child.signal_pid, fds[0], timeout_seconds, box->limits.output_bytes,
              outcome);
    outcome.wait_status = program_wait_status(*box, outcome.wait_status);
    close(fds[0]);
    return outcome;
  }

  // Each source lifted above every target first: a dup2 onto itself would keep close-on-exec.
  const int above = kFirstBufferFd + static_cast<int>(buffers.buffers().size());
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  bool ready = true;
  const auto pass = [&](int fd, int target) {
    const int lifted = fcntl(fd, F_DUPFD_CLOEXEC, above);
    if (lifted < 0) {
      ready = false;
      return;
    }
    opened.push_back(lifted);
    posix_spawn_file_actions_adddup2(&actions, lifted, target);
  };
  pass(job_fd, kJobFd);
  pass(fds[1], kResultFd);
  for (std::size_t i = 0; i < buffers.buffers().size(); ++i) {
    pass(buffers.buffers()[i].fd, kFirstBufferFd + static_cast<int>(i));
  }
  // The host starts with no signal blocked and the time-limit signal at its default, whatever
  // the calling thread had.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  sigaddset(&defaults, kTimeLimitSignal);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  pid_t child = -1;
  std::string host_argv0 = host;
  char* argv[] = {host_argv0.data(), nullptr};
  const int spawned =
      ready ? posix_spawn(&child, host.c_str(), &actions, &attributes, argv, environ) : errno;
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (spawned != 0) {
    errno = spawned;
    return failed("cannot start the kernel host " + host);
  }
  // Only the read end stays open here: the pipe closes when the host is gone.
  std::erase(opened, fds[0]);
  close_all();
  outcome.started = true;
  supervise(child, child, fds[0], timeout_seconds, std::numeric_limits<std::uint64_t>::max(),
            outcome);
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
