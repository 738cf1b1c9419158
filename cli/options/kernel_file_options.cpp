#include "kernel_file_options.hpp"

#include "number_checks.hpp"

namespace warpsim::cli {

std::string element_type_names() {
  std::string names;
  for (const runner::ElementTypeFacts& t : runner::element_types()) {
    names += (names.empty() ? "" : " ") + std::string(t.name);
  }
  return names;
}

void add_kernel_file_options(CLI::App& app, KernelFileFlags& f) {
  app.add_option("--kernel", f.kernel,
                 "the kernel: plain or namespaced; a template as an instantiation, e.g. "
                 "'reduce<256>'");
  app.add_option("--grid", f.grid, "launch shape: X or X,Y,Z");
  app.add_option("--block", f.block, "block shape: X or X,Y,Z");
  // One value per occurrence of a repeatable flag: `--arg SPEC FILE.cu` leaves the file alone.
  app.add_option("--arg", f.args, "one per kernel parameter, in order (below)")
      ->allow_extra_args(false);
  app.add_option("--policy", f.policy, "convergence: maximal (default) or interleaved")
      ->check(CLI::IsMember({"maximal", "interleaved"}));
  app.add_option("--seed", f.seed, "order of the interleaved policy (default 1)")
      ->check(number_at_least(0));
  app.add_option("--order-seed", f.order_seed,
                 "0 (default): blocks in index order, a warp runs on until it waits; any other "
                 "value: seeded block and warp orders")
      ->check(number_at_least(0));
  app.add_option("--max-steps", f.max_steps, "warp-level steps before the run counts as runaway")
      ->check(number_at_least(1));
  app.add_option("--timeout", f.timeout, "wall-clock limit in seconds (default 60)")
      ->check(number_between(0.001, 86400));
  app.add_option("--shared", f.shared,
                 "dynamic shared memory (extern __shared__) in bytes, default 49152")
      ->check(number_at_least(0));
  app.add_option("--arch", f.arch,
                 "the architecture the file is compiled for, as nvcc's -arch: sm_70 ... sm_90 "
                 "(default); sets __CUDA_ARCH__ and which intrinsics exist");
  app.add_option("-I,--include-dir", f.include_dirs,
                 "a folder the kernel's #include searches (after the CUDA shim); repeatable")
      ->allow_extra_args(false);
  app.add_option("-D,--define", f.defines,
                 "NAME or NAME=VALUE, defined for the kernel compiler; repeatable")
      ->allow_extra_args(false);
  app.add_option("--check", f.checks,
                 "memory checks: races (data races in __shared__ memory and the --arg buffers), "
                 "uninit (reads of __shared__ bytes no thread of the block wrote, and of elements of "
                 "a TYPE[N]:undefined buffer nothing wrote), bounds (reads "
                 "and writes just before or after a buffer, with lane and line; every check "
                 "includes it), all; repeat or separate with commas. Findings give exit status "
                 "122")
      ->allow_extra_args(false);
}

Expected<runner::KernelFileRequest> launch_settings(const KernelFileFlags& f) {
  runner::KernelFileRequest r;
  r.policy = f.policy == "interleaved" ? ConvergencePolicy::interleaved : ConvergencePolicy::maximal;
  r.seed = f.seed;
  r.order_seed = f.order_seed;
  r.max_steps = f.max_steps;
  r.timeout_seconds = f.timeout;
  r.shared_bytes = f.shared;
  for (const std::string& check : f.checks) {
    if (const Expected<void> known = runner::add_memory_checks(check, r); !known) return known.error();
  }
  r.arch = f.arch;
  r.include_dirs = f.include_dirs;
  r.defines = f.defines;
  return r;
}

Expected<runner::KernelFileRequest> kernel_file_request(const std::string& file,
                                                        const KernelFileFlags& f) {
  auto settings = launch_settings(f);
  if (!settings) return settings;
  runner::KernelFileRequest& r = *settings;
  r.file = file;
  r.kernel = f.kernel;
  auto grid = runner::parse_dim3(f.grid);
  if (!grid) return fail("--grid: " + grid.error().message);
  auto block = runner::parse_dim3(f.block);
  if (!block) return fail("--block: " + block.error().message);
  r.grid = *grid;
  r.block = *block;
  for (const std::string& text : f.args) {
    auto spec = runner::parse_arg_spec(text);
    if (!spec) {
      return fail("--arg " + std::to_string(r.args.size() + 1) + " '" + text +
                  "': " + spec.error().message);
    }
    r.args.push_back(std::move(*spec));
  }
  return settings;
}

}  // namespace warpsim::cli
