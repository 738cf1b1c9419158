#include "subprocess.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <csignal>
#include <cstring>

#include "sandbox_process.hpp"

extern char** environ;

namespace warpsim::runner {
namespace {

// The sandboxed run: started by spawn_confined, its output capped.
ProcessOutput run_confined(const std::vector<std::string>& argv, const ProcessSandbox& box,
                           int fds[2]) {
  ProcessOutput result;
  const SpawnedProcess child = spawn_confined(
      *box.sandbox, {argv, {{fds[1], 1}, {fds[1], 2}}, box.writable, box.readable, false});
  close(fds[1]);
  if (child.pid < 0) {
    close(fds[0]);
    result.output = child.failure;
    return result;
  }
  result.started = true;
  const std::uint64_t cap = box.sandbox->limits.output_bytes;
  char chunk[65536];
  while (true) {
    const ssize_t n = read(fds[0], chunk, sizeof chunk);
    if (n > 0) {
      if (result.output.size() + static_cast<std::size_t>(n) > cap) {
        kill(child.pid, SIGKILL);
        result.output += "\n[warpsim: output cut at " + std::to_string(cap >> 20) +
                         " MiB; the program was stopped]\n";
        break;
      }
      result.output.append(chunk, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
  }
  status = program_wait_status(*box.sandbox, status);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

}  // namespace

ProcessOutput run_process(const std::vector<std::string>& argv, const ProcessSandbox& box) {
  ProcessOutput result;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    result.output = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  if (box.sandbox != nullptr && box.sandbox->active()) return run_confined(argv, box, fds);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);

  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int error = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (error != 0) {
    close(fds[0]);
    result.output = "cannot run '" + argv[0] + "': " + std::strerror(error);
    return result;
  }
  result.started = true;
  char chunk[65536];
  while (true) {
    const ssize_t n = read(fds[0], chunk, sizeof chunk);
    if (n > 0) {
      result.output.append(chunk, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

std::string find_program(const std::string& program) {
  auto resolved = [](const std::string& path) -> std::string {
    char buffer[PATH_MAX];
    if (access(path.c_str(), X_OK) != 0 || realpath(path.c_str(), buffer) == nullptr) return {};
    return buffer;
  };
  if (program.find('/') != std::string::npos) return resolved(program);
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t colon = std::min(dirs.find(':', start), dirs.size());
    const std::string dir = dirs.substr(start, colon - start);
    const std::string found = resolved((dir.empty() ? "." : dir) + "/" + program);
    if (!found.empty()) return found;
    start = colon + 1;
  }
  return {};
}

}  // namespace warpsim::runner
