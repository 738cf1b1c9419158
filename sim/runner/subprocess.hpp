// Running a helper program (the compiler, addr2line) and collecting what it prints.
#pragma once

#include <string>
#include <vector>

namespace warpsim::runner {

struct ProcessOutput {
  bool started = false;  // false: it could not be run at all; `output` says why
  int exit_code = -1;    // its exit status, or 128 + signal when a signal ended it
  std::string output;    // stdout and stderr together, in order
};

// Runs argv[0] (looked up in PATH) with stdin from /dev/null and waits for it.
ProcessOutput run_process(const std::vector<std::string>& argv);

// The absolute path of `program` as PATH finds it (or as given when it contains a '/'), with
// symbolic links resolved; empty when there is none.
std::string find_program(const std::string& program);

}  // namespace warpsim::runner
