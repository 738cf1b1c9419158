// The process side of the sandbox (warpsim/sandbox.hpp): starting the compiler or the kernel host
// inside it, and the kernel host confining itself before it loads the kernel. Both live in
// sandbox.cpp, the one place that knows what the sandbox is made of.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "warpsim/expected.hpp"
#include "warpsim/sandbox.hpp"

namespace warpsim::runner {

struct ConfinedSpawn {
  std::vector<std::string> argv;  // argv[0]: looked up in PATH when it holds no '/'
  // (descriptor here, number there); 0, 1 and 2 that are not given read and write /dev/null.
  std::vector<std::pair<int, int>> fds;
  std::vector<std::string> writable;  // folders it may write besides the scratch (the compiler's
                                      // kernel cache)
  std::vector<std::string> readable;  // paths inside hidden folders it may read (the kernel
                                      // object, the toolchain)
  bool kernel_host = false;  // PID 1 of its PID namespace, and its own PID learned for signals
};

struct SpawnedProcess {
  pid_t pid = -1;         // the process to wait for
  pid_t signal_pid = -1;  // the process to signal: the program itself, also inside bwrap
  std::string failure;    // when pid < 0: why it could not start
};

// Starts `spawn` in `box` (box.active()): a new session, the resource limits, then the isolation
// of box.isolation, a scrubbed environment (PATH, locale, WARPSIM_* and sanitizer options; HOME
// and TMPDIR the scratch folder) and the scratch folder as working directory.
SpawnedProcess spawn_confined(const Sandbox& box, const ConfinedSpawn& spawn);

// A wait status of spawn_confined's process as if the program itself had been waited for (bwrap
// exits with 128 + N when its program dies of signal N).
int program_wait_status(const Sandbox& box, int wait_status);

// The kernel host, before it loads the kernel: its process limit (inside bwrap's user namespace,
// where the count starts afresh) and the syscall filter. From then on a call that creates a
// process, runs a program, opens a socket, signals another process, or writes, creates or removes
// a file stops the kernel with SIGSYS (reported by the host's stop handler).
Expected<void> confine_kernel_host(Isolation isolation, bool syscall_filter,
                                   std::uint64_t processes);

// What a stop report's trapped system call was, for people: "fork", "socket", "openat for
// writing"; else "system call N".
std::string trapped_call_name(long number);

}  // namespace warpsim::runner
