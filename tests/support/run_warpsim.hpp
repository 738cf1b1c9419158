// Starting the built `warpsim` binary from a test: no shell, stdin from /dev/null, stdout and
// stderr captured, the kernel cache in a directory of the test's own. Shared by the end-to-end
// suites (cli, corpus, shim).
#pragma once

#include <doctest/doctest.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/kernel_cache.hpp"

extern char** environ;

namespace warpsim::test {

struct ProcessOutcome {
  int exit_code = -1;  // 128 + signal when killed
  std::string out;
  std::string err;
  double seconds = 0;
};

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs `argv` (argv[0] a path) with the caller's environment, minus WARPSIM_* variables, plus
// WARPSIM_CACHE_DIR=the tests' shared kernel cache (support/kernel_cache.hpp) and `extra_env` ("NAME=value", overriding those). Output goes through files in
// `scratch`, so a large output cannot block the child.
inline ProcessOutcome run_process(const std::vector<std::string>& argv_text,
                                  const std::filesystem::path& scratch,
                                  const std::vector<std::string>& extra_env = {}) {
  std::filesystem::create_directories(scratch);
  const auto out_file = scratch / "stdout.txt";
  const auto err_file = scratch / "stderr.txt";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);

  std::vector<std::string> args = argv_text;
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_text{"WARPSIM_CACHE_DIR=" + test_kernel_cache().string()};
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::string(*e).rfind("WARPSIM_", 0) != 0) env_text.push_back(*e);
  }
  for (const std::string& entry : extra_env) {  // replaces a default of the same name
    const std::string name = entry.substr(0, entry.find('=') + 1);
    std::erase_if(env_text, [&](const std::string& e) { return e.rfind(name, 0) == 0; });
    env_text.push_back(entry);
  }
  std::vector<char*> envp;
  for (std::string& entry : env_text) envp.push_back(entry.data());
  envp.push_back(nullptr);

  const auto start = std::chrono::steady_clock::now();
  pid_t pid = -1;
  const int error = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  REQUIRE_MESSAGE(error == 0, "cannot start " << argv_text.at(0) << ": " << std::strerror(error));
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  ProcessOutcome outcome;
  outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  outcome.out = read_text(out_file);
  outcome.err = read_text(err_file);
  return outcome;
}

}  // namespace warpsim::test
