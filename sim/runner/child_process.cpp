#include "child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
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
#include "warpsim/fd_io.hpp"

namespace warpsim::runner {
namespace {

using Clock = std::chrono::steady_clock;

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
      if (!outcome.launched && !asked_to_stop && has_started_frame(bytes)) {
        outcome.launched = true;
        deadline = Clock::now() + seconds(timeout_seconds + kSelfStopGraceSeconds);
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

int job_file(const JobMessage& job) {
  const int fd = memfd_create("warpsim-job", MFD_CLOEXEC);
  if (fd < 0) return -1;
  const std::string bytes = encode(job);
  if (!write_all(fd, bytes.data(), bytes.size())) {
    const int error = errno;
    close(fd);
    errno = error;
    return -1;
  }
  if (lseek(fd, 0, SEEK_SET) != 0) {
    const int error = errno;
    close(fd);
    errno = error;
    return -1;
  }
  return fd;
}

SpawnedProcess spawn_kernel_host(const std::string& host, const std::vector<std::string>& args,
                                 const std::vector<std::pair<int, int>>& fds, const Sandbox* box,
                                 const std::vector<std::string>& readable) {
  std::vector<std::string> argv{host};
  argv.insert(argv.end(), args.begin(), args.end());
  if (box != nullptr && box->active()) {
    return spawn_confined(*box, ConfinedSpawn{argv, fds, {}, readable, true});
  }
  SpawnedProcess out;
  // Each source lifted above every target first: a dup2 onto itself would keep close-on-exec.
  int above = 2;
  for (const auto& [from, to] : fds) above = std::max(above, to + 1);
  std::vector<int> lifted_fds;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  int not_ready = 0;  // errno of a failed lift
  for (const auto& [from, to] : fds) {
    const int lifted = fcntl(from, F_DUPFD_CLOEXEC, above);
    if (lifted < 0) {
      not_ready = errno;
      break;
    }
    lifted_fds.push_back(lifted);
    posix_spawn_file_actions_adddup2(&actions, lifted, to);
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
  std::vector<char*> pointers;
  for (std::string& arg : argv) pointers.push_back(arg.data());
  pointers.push_back(nullptr);
  pid_t child = -1;
  const int spawned =
      not_ready == 0
          ? posix_spawn(&child, host.c_str(), &actions, &attributes, pointers.data(), environ)
          : not_ready;
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  for (const int fd : lifted_fds) close(fd);
  if (spawned != 0) {
    out.failure = "cannot start the kernel host " + host + ": " + std::strerror(spawned);
    return out;
  }
  out.pid = out.signal_pid = child;
  return out;
}

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
  const int job_fd = job_file(job);
  if (job_fd < 0) return failed("writing the kernel's job");
  opened.push_back(job_fd);
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return failed("pipe");
  opened.push_back(fds[0]);
  opened.push_back(fds[1]);
  std::vector<std::pair<int, int>> passed{{job_fd, kJobFd}, {fds[1], kResultFd}};
  const bool sandboxed = box != nullptr && box->active();
  if (sandboxed) {
    // The host's own output (what the kernel prints, or writes to stdout) into the scratch
    // folder, where the file size limit bounds it.
    const int out_fd = open_kernel_output(*box);
    if (out_fd < 0) return failed("cannot create " + box->scratch + "/kernel-output.txt");
    opened.push_back(out_fd);
    passed.emplace_back(out_fd, 1);
    passed.emplace_back(out_fd, 2);
  }
  for (std::size_t i = 0; i < buffers.buffers().size(); ++i) {
    passed.emplace_back(buffers.buffers()[i].fd, kFirstBufferFd + static_cast<int>(i));
  }
  const SpawnedProcess child = spawn_kernel_host(host, {}, passed, box, readable);
  if (child.pid < 0) {
    outcome.failure = child.failure;
    close_all();
    return outcome;
  }
  // Only the read end stays open here: the pipe closes when the host is gone.
  std::erase(opened, fds[0]);
  close_all();
  outcome.started = true;
  supervise(child.pid, child.signal_pid, fds[0], timeout_seconds,
            sandboxed ? box->limits.output_bytes : std::numeric_limits<std::uint64_t>::max(),
            outcome);
  if (sandboxed) outcome.wait_status = program_wait_status(*box, outcome.wait_status);
  close(fds[0]);
  return outcome;
}

int open_kernel_output(const Sandbox& box) {
  const std::string log = box.scratch + "/kernel-output.txt";
  return open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
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
