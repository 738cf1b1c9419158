// Many runs of one kernel file, each as run_kernel_file makes it (warpsim/runner.hpp), the file
// compiled once and every launch in one kernel host: what a grader's cases of one submission need.
#pragma once

#include <cstddef>
#include <memory>

#include "warpsim/runner.hpp"

namespace warpsim::runner {

// Many runs of one kernel file (a grader's cases of one submission), each as run_kernel_file
// would make it, for a fraction of the cost: the file is read and compiled once, and every launch
// runs in a process forked by one kernel host, started once (in the request's sandbox, when it
// has one) and again only if it ends. Each launch's process is new, confines itself before it
// loads the kernel and ends after its launch, as with run_kernel_file: a launch that crashes or
// hangs is reported as there, and the next one runs all the same. A request that differs in the
// file, kernel, architecture, -I/-D, checks or sandbox prepares afresh (a new host); an edit of the
// file between runs is not seen. One thread at a time.
//
//   runner::KernelFileRunner runs;
//   for (const auto& request : cases) results.push_back(runs.run(request));
class KernelFileRunner {
 public:
  KernelFileRunner();
  ~KernelFileRunner();  // ends the host
  KernelFileRunner(KernelFileRunner&&) noexcept;
  KernelFileRunner& operator=(KernelFileRunner&&) noexcept;
  KernelFileResult run(const KernelFileRequest& request);
  // How many kernel hosts (sandbox starts) its runs have taken so far: 1 for any number of
  // launches of one file, whatever they did, unless a host itself ended.
  std::size_t hosts_started() const;

  struct State;  // run_command.cpp's

 private:
  std::unique_ptr<State> state_;
};

}  // namespace warpsim::runner
