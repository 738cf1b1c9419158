// Running a helper program (the compiler, addr2line) and collecting what it prints.
#pragma once

#include <string>
#include <vector>

#include "warpsim/sandbox.hpp"

namespace warpsim::runner {

struct ProcessOutput {
  bool started = false;  // false: it could not be run at all; `output` says why
  int exit_code = -1;    // its exit status, or 128 + signal when a signal ended it
  std::string output;    // stdout and stderr together, in order
};

// Where a helper program runs: nowhere special (no sandbox), or inside `sandbox` (an active one),
// also writing `writable` and reading `readable` (sandbox_process.hpp's ConfinedSpawn).
struct ProcessSandbox {
  const Sandbox* sandbox = nullptr;
  std::vector<std::string> writable;
  std::vector<std::string> readable;
};

// Runs argv[0] (looked up in PATH) with stdin from /dev/null and waits for it. In a sandbox, its
// output is cut at the sandbox's output limit (the program is then killed).
ProcessOutput run_process(const std::vector<std::string>& argv, const ProcessSandbox& box = {});

// The absolute path of `program` as PATH finds it (or as given when it contains a '/'), with
// symbolic links resolved; empty when there is none.
std::string find_program(const std::string& program);

}  // namespace warpsim::runner
