// Running code that is not trusted (a student's submission, graded on a classroom server): its
// compile and its run happen inside a sandbox made without root, as strong as the machine allows.
//
//   const runner::IsolationProbe probe = runner::probe_isolation();   // once, at start
//   runner::Sandbox box{.isolation = probe.isolation, .bwrap = probe.bwrap,
//                       .syscall_filter = probe.syscall_filter, .scratch = "/tmp/grade-x1"};
//   box.hidden = {"/srv/course/lessons", "/srv/course/class"};  // not visible at all inside
//   box.visible = {"/srv/course/class/alice.cu"};               // shown again, read-only
//   request.sandbox = box;                                      // runner::run_kernel_file
//
// What each level guarantees is in README.md ("What the grader's sandbox guarantees"). The code
// that makes it is one file, sim/runner/sandbox.cpp: the spawn of the compiler and of the kernel
// host go through it, and the kernel host confines itself there before it loads the kernel.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::runner {

enum class Isolation : std::uint8_t {
  none,        // not sandboxed: `warpsim run`, the GUI, unit tests
  limits,      // resource limits (and the syscall filter, where available) only
  namespaces,  // ... and its own user, network and IPC namespaces: no network
  bwrap,       // ... and bubblewrap: a private, read-only view of the files, its own PIDs
};
// "none", "limits", "namespaces", "bwrap"
std::string_view to_string(Isolation isolation);

// Each limit applies to each process of the sandbox (the compiler's, the kernel host's).
struct ResourceLimits {
  std::uint64_t cpu_seconds = 60;              // RLIMIT_CPU
  std::uint64_t memory_bytes = 8ULL << 30;     // RLIMIT_AS (not set in sanitizer builds)
  std::uint64_t processes = 256;               // RLIMIT_NPROC, threads included (bwrap only)
  std::uint64_t file_bytes = 64ULL << 20;      // RLIMIT_FSIZE: what one file may grow to
  std::uint64_t output_bytes = 256ULL << 20;   // what the runner reads from the kernel host
};

struct Sandbox {
  Isolation isolation = Isolation::none;
  std::string bwrap;             // the bwrap executable (Isolation::bwrap)
  bool syscall_filter = false;   // the kernel host installs its seccomp filter
  std::string scratch;           // absolute, existing: the only folder it may write (its cwd)
  std::vector<std::string> hidden;   // absolute: empty inside the sandbox (bwrap)
  std::vector<std::string> visible;  // absolute, inside hidden ones: shown again, read-only
  ResourceLimits limits;

  bool active() const { return isolation != Isolation::none; }
  // Whether the sandboxed code may read `path` (symbolic links resolved): not under a hidden
  // folder, or under a visible path. The runner reads a submission's headers for it and asks
  // first, so that nothing hidden reaches the compile through the runner's own reads.
  bool can_read(const std::string& path) const;
};

// What this machine can make without root: bwrap where it is installed and may create
// namespaces, else namespaces where unprivileged user namespaces are allowed, else limits.
struct IsolationProbe {
  Isolation isolation = Isolation::limits;
  std::string bwrap;            // its path, for Isolation::bwrap
  bool syscall_filter = false;  // seccomp filters can be installed here (x86-64 and AArch64)
  std::string note;             // why nothing stronger, in a sentence ("" for bwrap)
};
IsolationProbe probe_isolation();

// One line for people: what the sandbox of `box` guarantees and what it does not.
std::string describe(const Sandbox& box);

}  // namespace warpsim::runner
