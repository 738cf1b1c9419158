// The flags that pick a kernel of a CUDA file and launch it, defined once for `warpsim run` and
// for warpsim-gui, which opens a kernel file with the same flags, and the request they make.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "warpsim/expected.hpp"
#include "warpsim/launch.hpp"
#include "warpsim/runner.hpp"

namespace warpsim::cli {

struct KernelFileFlags {
  std::string kernel;
  std::string grid, block;
  std::vector<std::string> args;  // as typed: one --arg SPEC per kernel parameter
  std::string policy = "maximal";
  std::uint64_t seed = 1;
  std::uint64_t order_seed = 0;
  std::uint64_t max_steps = LaunchOptions{}.max_steps;
  double timeout = 60;
  std::size_t shared = 48 * 1024;
  std::string arch = "sm_90";
  std::vector<std::string> include_dirs;
  std::vector<std::string> defines;
  std::vector<std::string> checks;  // --check races, --check uninit, ...
};

// --kernel, --grid, --block, --arg, --policy, --seed, --order-seed, --max-steps, --timeout,
// --shared, --arch, -I/--include-dir, -D/--define and --check, on `app`, into `flags`.
void add_kernel_file_options(CLI::App& app, KernelFileFlags& flags);

// What the flags say about any launch (schedule, limits, compiler, checks) without a kernel or
// shape: a lesson brings those. Or an error naming the flag.
Expected<runner::KernelFileRequest> launch_settings(const KernelFileFlags& flags);

// The launch of `file` the flags name, or an error naming the flag ("--grid: ...").
Expected<runner::KernelFileRequest> kernel_file_request(const std::string& file,
                                                        const KernelFileFlags& flags);

// "i32 u32 f32 ...": every element type --arg takes, from the one table (runner.hpp).
std::string element_type_names();

}  // namespace warpsim::cli
