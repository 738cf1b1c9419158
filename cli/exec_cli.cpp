// `warpsim exec FILE.cu [-- ARGS]`: a whole CUDA program built against the shim and run on the
// CPU, every launch simulated; the program's output passes through and its exit status is kept;
// then the report of its launches. With --gpu, the same file built with nvcc and run on the GPU,
// and the two programs' outputs compared.
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "exec_report.hpp"
#include "gpu_hooks.hpp"
#include "warpsim/program.hpp"

namespace warpsim::cli {
namespace {

struct ExecFlags {
  runner::ProgramRequest request;
  std::string json_path;
  bool gpu = false;
};

int exec_error(const std::string& message) {
  std::cerr << "warpsim exec: " << message << "\n";
  return runner::kExecBadInput;
}

// The report, to stderr or the --json file; false when the file cannot be written.
bool report(const ExecFlags& f, const runner::ProgramResult& result) {
  if (f.json_path.empty()) {
    write_exec_text(std::cerr, f.request.file, result, {isatty(STDERR_FILENO) != 0});
    return true;
  }
  std::ofstream out(f.json_path, std::ios::binary | std::ios::trunc);
  out << exec_json(f.request.file, result).dump() << "\n";
  if (result.status != runner::ProgramStatus::exited) {
    std::cerr << "warpsim exec: " << result.message << "\n";
  }
  return static_cast<bool>(out.flush());
}

int run_on_both(const ExecFlags& f) {
  if (Expected<void> device = probe_gpu(); !device) {
    std::cerr << "warpsim exec: --gpu: " << device.error().message << "\n";
    return kExitNoGpu;
  }
  runner::ProgramRequest request = f.request;
  request.capture_stdout = true;
  const runner::ProgramResult sim = runner::run_program(request);
  if (sim.status == runner::ProgramStatus::bad_input) {
    std::cerr << sim.details;
    return exec_error(sim.message);
  }
  std::cout << sim.program_stdout << std::flush;
  if (!report(f, sim)) return exec_error("cannot write --json " + f.json_path);
  if (sim.status != runner::ProgramStatus::exited) {
    std::cerr << "warpsim exec: --gpu: not run on the GPU: the simulated program did not end by "
                 "itself\n";
    return runner::exec_exit_status(sim);
  }
  auto gpu = runner::run_program_with_nvcc(request);
  if (!gpu) {
    std::cerr << gpu.error().details;
    std::cerr << "warpsim exec: --gpu: " << gpu.error().message << "\n";
    return gpu.error().kind == ErrorKind::no_device ? kExitNoGpu : runner::kExecBadInput;
  }
  if (gpu->timed_out) std::cerr << "warpsim exec: --gpu: the GPU program hit the time limit\n";
  const ProgramComparison comparison =
      compare_programs(sim.program_stdout, sim.exit_code, gpu->program_stdout, gpu->exit_code);
  write_comparison_text(std::cerr, comparison, sim.exit_code, gpu->exit_code);
  if (sim.diagnostic_count() != 0) return runner::kExecKernelProblem;
  return comparison.identical() ? 0 : 1;
}

int run(const ExecFlags& f) {
  if (f.gpu) return run_on_both(f);
  const runner::ProgramResult result = runner::run_program(f.request);
  if (result.status == runner::ProgramStatus::bad_input) {
    std::cerr << result.details;
    return exec_error(result.message);
  }
  if (!report(f, result)) return exec_error("cannot write --json " + f.json_path);
  return runner::exec_exit_status(result);
}

}  // namespace

CommandRun add_exec_command(CLI::App& app) {
  auto f = std::make_shared<ExecFlags>();
  CLI::App* exec_app =
      app.add_subcommand("exec", "build a whole CUDA program and run it, every launch simulated");
  exec_app->footer(
      "The program's stdout and stderr pass through; then a report of every launch (kernel,\n"
      "shape, steps, diagnostics) goes to stderr, or with --json FILE to that file.\n"
      "Program arguments follow `--`: warpsim exec prog.cu -- 1024 out.txt\n"
      "\n"
      "exit status: the program's own; 123 when it returned 0 but a kernel misused warp-level\n"
      "operations (diagnostics) or a launch could not complete (deadlock, runaway); 124 the time\n"
      "limit passed; 125 bad input (missing file, compile error); 128+N killed by signal N.\n"
      "With --gpu: 0 when both programs print the same and return the same status, 1 when they\n"
      "differ, 3 when there is no GPU or no nvcc.");
  exec_app->add_option("file", f->request.file, "the CUDA program (.cu with main)")->required();
  exec_app->add_option("program_args", f->request.program_args,
                       "the program's arguments (after --)");
  exec_app->add_option("--arch", f->request.arch,
                       "compile for sm_70 ... sm_90 (default): __CUDA_ARCH__, the compute "
                       "capability cudaGetDeviceProperties reports");
  exec_app->add_option("-I", f->request.include_dirs, "an include folder for the compiler");
  exec_app->add_option("-D", f->request.definitions,
                       "a macro for the compiler: NAME or NAME=VALUE");
  exec_app->add_option("--trace", f->request.trace_dir,
                       "write one trace JSON per launch into this folder (as run --trace)");
  exec_app->add_option("--json", f->json_path, "write the report as one JSON object to this file");
  exec_app
      ->add_option("--time-limit", f->request.time_limit_seconds,
                   "wall-clock seconds the program may run (default 60)")
      ->check(CLI::Range(0.001, 86400.0));
  exec_app
      ->add_option("--max-steps", f->request.max_steps,
                   "warp-level steps a launch may take before it counts as runaway")
      ->check(CLI::PositiveNumber);
  exec_app->add_flag("--gpu", f->gpu,
                     "also build the file with nvcc, run it on the GPU and compare the two "
                     "programs' stdout and exit status");
  return [f] {
    f->request.color_compiler_output = isatty(STDERR_FILENO) != 0;
    return run(*f);
  };
}

}  // namespace warpsim::cli
