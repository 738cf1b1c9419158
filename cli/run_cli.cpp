// `warpsim run`: the command line into a KernelFileRequest; the run (and, with --gpu, the GPU's
// run of the same launch) as values; then the report.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "options/kernel_file_options.hpp"
#include "gpu_hooks.hpp"
#include "run_report.hpp"
#include "schedules_report.hpp"
#include "warpsim/compared_buffers.hpp"
#include "warpsim/runner.hpp"

namespace warpsim::cli {
namespace {

namespace fs = std::filesystem;

constexpr std::uint32_t kMaxTraceCalls = 65536;

struct RunFlags {
  std::string file;
  KernelFileFlags launch;  // --kernel, --grid, --block, --arg, ... (options/kernel_file_options.hpp)
  bool json = false;
  std::string trace_path;
  bool gpu = false;
  GpuRunFlags gpu_flags;
  std::string gpu_trace_out;
  std::size_t schedules = 0;  // --schedules N: 0 runs the one schedule the flags name
  bool list_kernels = false;
};

bool writable_destination(const std::string& path) {
  const fs::path parent = fs::absolute(path).parent_path();
  return access(parent.c_str(), W_OK) == 0;
}

// The flags as a request; the error names the flag.
Expected<runner::KernelFileRequest> request_of(const RunFlags& f) {
  auto r = kernel_file_request(f.file, f.launch);
  if (!r) return r;
  r->record_steps = !f.trace_path.empty() || f.gpu;  // the GPU comparison needs the steps
  r->keep_initial_buffers = f.gpu;
  r->color_compiler_output = isatty(STDERR_FILENO) != 0;
  return r;
}

int list_kernels(const std::string& file) {
  auto listing = runner::list_kernels(file);
  if (!listing) return usage_error("run", listing.error().message);
  for (const runner::KernelListing& k : *listing) {
    std::cout << k.kernel.name << (k.kernel.is_template ? "<...>" : "") << "  ("
              << (k.from_macro ? "declared by a macro" : "line " + std::to_string(k.kernel.line))
              << ")\n";
  }
  return runner::kExitRan;
}

int exit_for_gpu_error(const Error& error) {
  switch (error.kind) {
    case ErrorKind::no_device:
      return kExitNoGpu;
    case ErrorKind::bad_input:
    case ErrorKind::compile:
    case ErrorKind::file:
      return kExitUsage;
    case ErrorKind::driver:
    case ErrorKind::internal:
      break;
  }
  return runner::kExitKernelFailed;
}

// --schedules N: the launch under N schedules, their findings and how their buffers differ.
int run_schedules(const RunFlags& f, const runner::KernelFileRequest& request) {
  if (f.gpu) return usage_error("run", "--schedules and --gpu: give one or the other");
  if (!f.trace_path.empty()) {
    return usage_error("run", "--schedules and --trace: rerun one schedule alone to trace it");
  }
  runner::KernelFileRequest quiet = request;
  quiet.record_steps = false;
  const runner::KernelScheduleExploration explored =
      runner::explore_kernel_schedules(quiet, f.schedules);
  const runner::KernelFileResult& first = explored.runs.front().result;
  if (first.status == runner::RunStatus::bad_input) {
    std::cerr << first.details;
    return usage_error("run", first.message);
  }
  for (const std::string& warning : first.warnings) std::cerr << "warpsim run: warning: " << warning << "\n";
  if (f.json) {
    std::cout << kernel_schedules_json(explored).dump() << "\n";
  } else {
    write_kernel_schedules_text(std::cout, explored, {isatty(STDOUT_FILENO) != 0});
  }
  return explored.exit_status();
}

int run(const RunFlags& f, const std::vector<std::string>& gpu_only_flags) {
  if (f.list_kernels) return list_kernels(f.file);
  if (f.launch.kernel.empty()) return usage_error("run", "--kernel NAME is required");
  if (f.launch.grid.empty()) return usage_error("run", "--grid is required");
  if (f.launch.block.empty()) return usage_error("run", "--block is required");
  if (!f.gpu && !gpu_only_flags.empty()) {
    return usage_error("run", gpu_only_flags.front() + " needs --gpu");
  }
  auto request = request_of(f);
  if (!request) return usage_error("run", request.error().message);
  if (!f.trace_path.empty() && !writable_destination(f.trace_path)) {
    return usage_error("run", "cannot write --trace " + f.trace_path + ": " + std::strerror(errno));
  }
  if (f.schedules != 0) return run_schedules(f, *request);
  if (f.gpu) {
    if (!f.gpu_trace_out.empty() && !writable_destination(f.gpu_trace_out)) {
      return usage_error("run", "cannot write --gpu-trace-out " + f.gpu_trace_out + ": " +
                                    std::strerror(errno));
    }
    if (Expected<void> device = probe_gpu(); !device) {
      std::fprintf(stderr, "warpsim run: --gpu: %s\n", device.error().message.c_str());
      return kExitNoGpu;
    }
  }

  const runner::KernelFileResult result = runner::run_kernel_file(*request);
  if (result.status == runner::RunStatus::bad_input) {
    std::cerr << result.details;
    return usage_error("run", result.message);
  }
  for (const std::string& warning : result.warnings) std::cerr << "warpsim run: warning: " << warning << "\n";
  int status = result.exit_status();
  std::optional<GpuOutcome> gpu;
  if (f.gpu) {
    gpu.emplace();
    if (result.status != runner::RunStatus::completed) {
      // A kernel that deadlocks or runs away in the simulator would hang the device.
      gpu->skipped = "not run on the GPU: the simulation did not complete (" +
                     std::string(runner::to_string(result.status)) + ")";
    } else if (auto ran = run_on_gpu(*request, result, f.gpu_flags)) {
      const runner::ComparedBuffers sim_buffers(result.buffers);
      gpu->comparison =
          compare_run(*ran, &result.trace, sim_buffers.data(), f.gpu_flags.tolerance_ulps);
      gpu->run = std::move(*ran);
    } else {
      gpu->error = ran.error();
    }
  }

  if (f.json) {
    std::cout << run_json(result, gpu ? &*gpu : nullptr).dump() << "\n";
    if (status != runner::kExitRan) std::cerr << "warpsim run: " << result.message << "\n";
  } else {
    write_run_text(std::cout, result, gpu ? &*gpu : nullptr);
  }
  if (gpu && gpu->run && !gpu->run->compile_log.empty()) {
    std::string log = gpu->run->compile_log;
    while (!log.empty() && log.back() == '\n') log.pop_back();
    std::cerr << "warpsim run: --gpu: NVRTC: " << log << "\n";
  }
  if (gpu && !gpu->skipped.empty()) std::cerr << "warpsim run: --gpu: " << gpu->skipped << "\n";
  if (gpu && gpu->error) {
    std::cerr << gpu->error->details;
    if (!gpu->error->details.empty() && gpu->error->details.back() != '\n') std::cerr << "\n";
    std::cerr << "warpsim run: --gpu: " << gpu->error->message << "\n";
    status = std::max(status, exit_for_gpu_error(*gpu->error));
  }
  if (gpu && gpu->run && !f.gpu_trace_out.empty()) {
    if (!gpu->run->trace) {
      std::cerr << "warpsim run: --gpu: no device trace written to " << f.gpu_trace_out << ": "
                << (gpu->run->trace_note.empty() ? "none was recorded" : gpu->run->trace_note)
                << "\n";
    } else if (std::ofstream file(f.gpu_trace_out, std::ios::binary | std::ios::trunc);
               !(write_device_trace_json(file, *gpu->run->trace), file.flush())) {
      std::cerr << "warpsim run: --gpu: cannot write --gpu-trace-out " << f.gpu_trace_out << "\n";
      status = std::max(status, runner::kExitKernelFailed);
    }
  }
  if (!f.trace_path.empty()) {
    const bool launch_returned = result.status != runner::RunStatus::crashed &&
                                 result.status != runner::RunStatus::timeout;
    if (!launch_returned) {
      std::cerr << "warpsim run: no trace written: the launch did not return\n";
    } else if (std::ofstream file(f.trace_path, std::ios::binary | std::ios::trunc);
               !(write_trace_json(file, result.trace), file.flush())) {
      return usage_error("run", "cannot write " + f.trace_path + ": " + std::strerror(errno));
    }
  }
  return status;
}

}  // namespace

CommandRun add_run_command(CLI::App& app) {
  auto f = std::make_shared<RunFlags>();
  CLI::App* run_app = app.add_subcommand("run", "run one kernel of a CUDA file in the simulator");
  run_app->footer(
      "--arg SPEC, one per kernel parameter, in order:\n"
      "  scalar  TYPE:VALUE        i32:1000  u32:0xffffffff  f32:0.5\n"
      "  buffer  TYPE[COUNT]:INIT  INIT = zeros | iota | random:SEED[:LO:HI] | file:PATH | undefined |\n"
      "                            a list of COUNT values: 1,2,3\n"
      "  TYPE is " + element_type_names() + "\n"
      "\n"
      "exit status: 0 ran (diagnostics may be present), 1 the kernel deadlocked, ran away,\n"
      "crashed, went out of bounds or timed out, 2 bad input (arguments, file, compile error),\n"
      "3 --gpu without GPU, 122 it ran and the memory checks found something: a data race,\n"
      "an uninitialised shared read (--check) or a write before a buffer (any run), or, under\n"
      "--schedules, buffers that differ between schedules.\n"
      "With --gpu the status is 0 when both runs ran, even where they differ: the report (and\n"
      "--json's \"identical\" fields) say whether they agree.\n"
      "Compiled kernels are cached in $WARPSIM_CACHE_DIR, else $XDG_CACHE_HOME/warpsim or\n"
      "~/.cache/warpsim; the compiler is $WARPSIM_CXX, else c++.");
  run_app->add_option("file", f->file, "the CUDA file: kernels, __device__ helpers, templates")
      ->required();
  add_kernel_file_options(*run_app, f->launch);
  run_app->add_flag("--json", f->json, "print one JSON object (buffers, diagnostics, steps)");
  run_app->add_option("--trace", f->trace_path, "write the full step-by-step trace (JSON)");
  run_app->add_flag("--gpu", f->gpu,
                    "also compile the file with NVRTC, run it on the GPU with the same arguments "
                    "and compare buffers and steps (needs a CUDA device)");
  CLI::Option* blocks = run_app->add_option("--gpu-trace-blocks", f->gpu_flags.trace_blocks,
                                            "with --gpu: blocks traced on the device (default 4; 0: "
                                            "buffers only)")
                             ->check(number_at_least(0));
  CLI::Option* calls =
      run_app->add_option("--gpu-trace-calls", f->gpu_flags.trace_calls,
                          "with --gpu: calls recorded per thread (default 256)")
          ->check(number_between(1, kMaxTraceCalls));
  CLI::Option* ulps = run_app->add_option("--tolerance-ulps", f->gpu_flags.tolerance_ulps,
                                          "with --gpu: floats within N ulps match (default 0)")
                           ->check(number_at_least(0));
  CLI::Option* out = run_app->add_option("--gpu-trace-out", f->gpu_trace_out,
                                         "with --gpu: write the device trace (JSON)");
  run_app->add_option("--schedules", f->schedules,
                      "run the launch under N schedules (the default, seeded "
                      "block/warp orders, the interleaved policy, ...) and report any finding or "
                      "buffer that differs between them, with the flags that rerun it alone")
      ->check(number_between(1, 1000));
  run_app->add_flag("--list-kernels", f->list_kernels, "list the file's kernels and exit");
  return [f, blocks, calls, ulps, out] {
    std::vector<std::string> gpu_only;
    for (const CLI::Option* o : {blocks, calls, ulps, out}) {
      if (o->count() > 0) gpu_only.push_back(o->get_name());
    }
    return run(*f, gpu_only);
  };
}

}  // namespace warpsim::cli
