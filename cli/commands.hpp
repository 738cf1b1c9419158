// The subcommands of the `warpsim` command. Each takes the arguments after its name and returns
// the process exit status; usage errors print one line and return 2.
#pragma once

#include <string>
#include <vector>

namespace warpsim::cli {

using Args = std::vector<std::string>;

inline constexpr int kExitUsage = 2;
// `--gpu` or `vectors record` where no CUDA device (or no GPU support) is available.
inline constexpr int kExitNoGpu = 3;

int run_command(const Args& args);
int vectors_command(const Args& args);
int walkthrough_command(const Args& args);

// GPU hooks (gpu_hooks.cpp): real in builds with warpsim::gpu (WARPSIM_HAVE_GPU), a one-line
// refusal with kExitNoGpu otherwise.
int vectors_record_command(const Args& args);
// `run --gpu`: says in one line why there is no GPU run (no GPU support, no device, or the GPU
// side of `run` not yet there) and returns kExitNoGpu.
int gpu_run_unavailable();

void print_run_help();
void print_vectors_help();

}  // namespace warpsim::cli
