// `warpsim exec FILE.cu [MORE.cpp ...] [-- ARGS]`: a whole CUDA program (one file or several)
// built against the shim and run on the CPU, every launch simulated; the program's output passes
// through and its exit status is kept; then the report of its launches. With --gpu, the same
// files built with nvcc and run on the GPU, and the two programs' outputs compared.
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "exec_report.hpp"
#include "gpu_hooks.hpp"
#include "schedules_report.hpp"
#include "warpsim/program.hpp"

namespace warpsim::cli {
namespace {

struct ExecFlags {
  runner::ProgramRequest request;
  std::string json_path;
  bool gpu = false;
  std::uint64_t tolerance_ulps = 0;
  std::string buffers_dir;  // --buffers: keep both sides' recordings here
  std::string recorded_buffers_dir;  // --compare-buffers: a GPU recording to compare with
  std::vector<std::string> checks;   // --check races, --check uninit, ...
  std::size_t schedules = 0;         // --schedules N
  std::string policy = "maximal";    // --policy
};

// The two recordings of --gpu: under --buffers DIR (kept), else a temporary folder (removed).
class BufferFolders {
 public:
  explicit BufferFolders(const std::string& kept) : keep_(!kept.empty()) {
    std::error_code error;
    if (keep_) {
      root_ = kept;
    } else {
      std::string pattern = (std::filesystem::temp_directory_path(error) / "warpsim-exec-XXXXXX");
      if (mkdtemp(pattern.data()) != nullptr) root_ = pattern;
    }
    if (root_.empty()) return;
    for (const char* side : {"simulator", "gpu"}) {
      // A kept folder's earlier recording goes; nothing else in it is touched.
      for (const auto& entry : std::filesystem::directory_iterator(root_ / side, error)) {
        const std::string name = entry.path().filename().string();
        if (name == "buffers.tsv" || entry.path().extension() == ".bin")
          std::filesystem::remove(entry.path(), error);
      }
      error.clear();
      std::filesystem::create_directories(root_ / side, error);
      if (error) {
        problem_ = "cannot create " + (root_ / side).string() + ": " + error.message();
        return;
      }
    }
  }
  ~BufferFolders() {
    std::error_code error;
    if (!keep_ && !root_.empty()) std::filesystem::remove_all(root_, error);
  }
  BufferFolders(const BufferFolders&) = delete;
  BufferFolders& operator=(const BufferFolders&) = delete;

  std::string problem() const {
    return root_.empty() ? "cannot create a folder for the launch buffers" : problem_;
  }
  std::string simulator() const { return (root_ / "simulator").string(); }
  std::string gpu() const { return (root_ / "gpu").string(); }

 private:
  bool keep_;
  std::filesystem::path root_;
  std::string problem_;
};

int exec_error(const std::string& message) {
  std::cerr << "warpsim exec: " << message << "\n";
  return runner::kExecBadInput;
}

// The report, to stderr or the --json file (with `comparisons`' keys added: "gpu",
// "buffers"); false when the file cannot be written.
bool report(const ExecFlags& f, const runner::ProgramResult& result,
            const nlohmann::ordered_json& comparisons = nlohmann::ordered_json::object()) {
  if (f.json_path.empty()) {
    write_exec_text(std::cerr, f.request.files, result, {isatty(STDERR_FILENO) != 0});
    return true;
  }
  nlohmann::ordered_json json = exec_json(f.request.files, result);
  for (const auto& [key, value] : comparisons.items()) json[key] = value;
  std::ofstream out(f.json_path, std::ios::binary | std::ios::trunc);
  out << json.dump() << "\n";
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
  const BufferFolders folders(f.buffers_dir);
  if (!folders.problem().empty()) return exec_error("--gpu: " + folders.problem());
  runner::ProgramRequest request = f.request;
  request.capture_stdout = true;
  request.buffers_dir = folders.simulator();
  const runner::ProgramResult sim = runner::run_program(request);
  if (sim.status == runner::ProgramStatus::bad_input) {
    std::cerr << sim.details;
    return exec_error(sim.message);
  }
  std::cout << sim.program_stdout << std::flush;
  // Text goes out now; JSON once the GPU's side is in.
  if (f.json_path.empty()) report(f, sim);
  if (sim.status != runner::ProgramStatus::exited) {
    if (!f.json_path.empty() && !report(f, sim))
      return exec_error("cannot write --json " + f.json_path);
    std::cerr << "warpsim exec: --gpu: not run on the GPU: the simulated program did not end by "
                 "itself\n";
    return runner::exec_exit_status(sim);
  }
  request.buffers_dir = folders.gpu();
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
  const auto buffers =
      runner::compare_launch_buffers(folders.simulator(), folders.gpu(), f.tolerance_ulps);
  if (buffers) {
    write_buffers_comparison_text(std::cerr, "--gpu", *buffers, f.tolerance_ulps);
  } else {
    std::cerr << "warpsim exec --gpu: the launch buffers were not compared: "
              << buffers.error().message << "\n";
  }
  // After the verdicts, which readers (compat.py) take from the first such line.
  char times[160];
  std::snprintf(times, sizeof times,
                "warpsim exec --gpu: the program's run took %.2f s in the simulator, %.2f s on the "
                "GPU (wall clock, each recording its launch buffers; builds not included)\n",
                sim.seconds, gpu->seconds);
  std::cerr << times;
  if (!f.json_path.empty()) {
    nlohmann::ordered_json gpu_json;
    gpu_json["nvcc"] = gpu->nvcc_version;
    gpu_json["exit_code"] = gpu->exit_code;
    gpu_json["timed_out"] = gpu->timed_out;
    gpu_json["seconds"] = gpu->seconds;
    gpu_json["stdout_identical"] = comparison.same_stdout;
    gpu_json["exit_status_identical"] = comparison.same_exit_status;
    if (!comparison.same_stdout) gpu_json["first_different_line"] = comparison.first_different_line;
    gpu_json["buffers"] = buffers ? buffers_comparison_json(*buffers)
                                  : nlohmann::ordered_json{{"error", buffers.error().message}};
    if (!report(f, sim, {{"gpu", std::move(gpu_json)}}))
      return exec_error("cannot write --json " + f.json_path);
  }
  if (sim.diagnostic_count() != 0) return runner::kExecKernelProblem;
  return comparison.identical() && buffers && buffers->matches() ? 0 : 1;
}

// The simulated program's buffers against a GPU's recording (exec --gpu --buffers DIR made on a
// GPU machine, its gpu/ folder): the GPU comparison without a GPU.
int run_against_recording(const ExecFlags& f) {
  const BufferFolders folders(f.buffers_dir);
  if (!folders.problem().empty()) return exec_error("--compare-buffers: " + folders.problem());
  runner::ProgramRequest request = f.request;
  request.buffers_dir = folders.simulator();
  const runner::ProgramResult result = runner::run_program(request);
  if (result.status == runner::ProgramStatus::bad_input) {
    std::cerr << result.details;
    return exec_error(result.message);
  }
  const int status = runner::exec_exit_status(result);
  const auto buffers = runner::compare_launch_buffers(folders.simulator(), f.recorded_buffers_dir,
                                                      f.tolerance_ulps);
  const nlohmann::ordered_json comparisons =
      buffers ? nlohmann::ordered_json{{"recorded_buffers", buffers_comparison_json(*buffers)}}
              : nlohmann::ordered_json::object();
  if (!report(f, result, comparisons)) return exec_error("cannot write --json " + f.json_path);
  if (!buffers) return exec_error("--compare-buffers: " + buffers.error().message);
  write_buffers_comparison_text(std::cerr, "--compare-buffers", *buffers, f.tolerance_ulps);
  return status != 0 ? status : buffers->matches() ? 0 : 1;
}

// --schedules N: the program under N schedules; schedule 1's output passes through, the report
// says which schedules print otherwise or find something.
int run_schedules(const ExecFlags& f) {
  const runner::ProgramScheduleExploration explored =
      runner::explore_program_schedules(f.request, f.schedules);
  const runner::ProgramResult& first = explored.runs.front().result;
  if (first.status == runner::ProgramStatus::bad_input) {
    std::cerr << first.details;
    return exec_error(first.message);
  }
  std::cout << first.program_stdout << std::flush;
  if (f.json_path.empty()) {
    write_program_schedules_text(std::cerr, explored, {isatty(STDERR_FILENO) != 0});
  } else {
    std::ofstream out(f.json_path, std::ios::binary | std::ios::trunc);
    out << program_schedules_json(explored).dump() << "\n";
    if (!out.flush()) return exec_error("cannot write --json " + f.json_path);
  }
  return explored.exit_status();
}

int run(const ExecFlags& f) {
  if (f.gpu) return run_on_both(f);
  if (f.schedules != 0) return run_schedules(f);
  if (!f.recorded_buffers_dir.empty()) return run_against_recording(f);
  const runner::ProgramResult result = runner::run_program(f.request);
  if (result.status == runner::ProgramStatus::bad_input) {
    std::cerr << result.details;
    return exec_error(result.message);
  }
  if (!report(f, result)) return exec_error("cannot write --json " + f.json_path);
  return runner::exec_exit_status(result);
}

}  // namespace

std::vector<std::string> take_program_args(std::vector<std::string>& args) {
  if (args.size() < 2 || args[1] != "exec") return {};
  const auto mark = std::find(args.begin() + 2, args.end(), "--");
  if (mark == args.end()) return {};
  std::vector<std::string> program_args(mark + 1, args.end());
  args.erase(mark, args.end());
  return program_args;
}

CommandRun add_exec_command(CLI::App& app, std::vector<std::string> program_args) {
  auto f = std::make_shared<ExecFlags>();
  CLI::App* exec_app =
      app.add_subcommand("exec", "build a whole CUDA program and run it, every launch simulated");
  exec_app->footer(
      "The program's stdout and stderr pass through; then a report of every launch (kernel,\n"
      "shape, steps, diagnostics) goes to stderr, or with --json FILE to that file.\n"
      "Program arguments follow `--`: warpsim exec prog.cu -- 1024 out.txt\n"
      "A program of several files: warpsim exec main.cpp kernels.cu mmio.c -I inc -- ARGS\n"
      "(options before or after the files; each file compiles as its own translation unit,\n"
      "cached on its own, .c as C; then all are linked; the report names them all).\n"
      "\n"
      "exit status: the program's own; when it returned 0: 122 (as for run) when a kernel wrote\n"
      "before or after a cudaMalloc'd block or --check found a race or an uninitialised\n"
      "read (or, under --check, a launch was refused), 123 when a kernel misused warp-level\n"
      "operations (diagnostics); 123 when a launch could not complete (deadlock, runaway); 124 the time\n"
      "limit passed; 125 bad input (missing file, compile or link error); 128+N killed by\n"
      "signal N.\n"
      "With --gpu: 0 when both programs print the same, return the same status and leave the\n"
      "same buffers after every launch (the allocation behind each pointer argument, compared\n"
      "in its element type), 1 when they differ, 3 when there is no GPU or no nvcc. The GPU\n"
      "build synchronises after each launch to read its buffers back.");
  f->request.program_args = std::move(program_args);
  exec_app
      ->add_option("files", f->request.files,
                   "the program's source files (.cu, .cpp, .c; one has main), each compiled on "
                   "its own and linked into one program")
      ->required();
  exec_app->add_option("--arch", f->request.arch,
                       "compile for sm_70 ... sm_90 (default): __CUDA_ARCH__, the compute "
                       "capability cudaGetDeviceProperties reports");
  // One value each (-I A -I B): a list option would take the source files after it as values
  // and `--` as its end.
  exec_app->add_option("-I", f->request.include_dirs, "an include folder for the compiler")
      ->allow_extra_args(false);
  exec_app->add_option("-D", f->request.definitions, "a macro for the compiler: NAME or NAME=VALUE")
      ->allow_extra_args(false);
  exec_app
      ->add_option("--Xcompiler", f->request.host_compiler_flags,
                   "flags for the host compiler, comma-separated, at every compile and the link "
                   "(nvcc's -Xcompiler: --Xcompiler=-fopenmp)")
      ->delimiter(',')
      ->allow_extra_args(false);
  exec_app
      ->add_option("--Xlinker", f->request.linker_flags,
                   "flags for the linker, comma-separated, in both builds (nvcc's -Xlinker: "
                   "--Xlinker=--gc-sections drops host functions nothing reaches)")
      ->delimiter(',')
      ->allow_extra_args(false);
  exec_app
      ->add_option("--Xnvcc", f->request.nvcc_flags,
                    "flags for nvcc in the GPU build only (--gpu), comma-separated: --Xnvcc=-rdc=true "
                    "for kernels that launch kernels")
      ->delimiter(',')
      ->allow_extra_args(false);
  exec_app->add_option("--trace", f->request.trace_dir,
                       "write one trace JSON per launch into this folder (as run --trace)");
  exec_app->add_option("--json", f->json_path, "write the report as one JSON object to this file");
  exec_app
      ->add_option("--time-limit", f->request.time_limit_seconds,
                   "wall-clock seconds the program may run (default 60)")
      ->check(number_between(0.001, 86400));
  exec_app
      ->add_option("--max-steps", f->request.max_steps,
                   "warp-level steps a launch may take before it counts as runaway")
      ->check(number_at_least(1));
  exec_app
      ->add_option("--jobs", f->request.jobs,
                   "threads a launch's blocks run on (default: $WARPSIM_JOBS, else every core); "
                   "results are the same for any number")
      ->check(number_between(1, 1024));
  exec_app->add_option("--check", f->checks,
                       "memory checks of every launch, as run's: races (data races in __shared__ "
                       "memory and cudaMalloc'd blocks), uninit (reads of __shared__ bytes no thread "
                       "of the block wrote, and of cudaMalloc'd bytes nothing wrote since the "
                       "allocation: under this check they start as a pattern, not zeros), bounds (reads and writes just before or after a block, "
                       "with lane and line; every check includes it), all; repeat or separate with "
                       "commas. Findings give exit status 122 where the program returned 0")
      ->allow_extra_args(false);
  exec_app->add_option("--policy", f->policy, "convergence of every launch: maximal (default) or interleaved")
      ->check(CLI::IsMember({"maximal", "interleaved"}));
  exec_app->add_option("--seed", f->request.seed, "order of the interleaved policy (default 1)")
      ->check(number_at_least(0));
  exec_app->add_option("--order-seed", f->request.order_seed,
                       "0 (default): blocks in index order, a warp runs on until it waits; any "
                       "other value: seeded block and warp orders")
      ->check(number_at_least(0));
  CLI::Option* schedules =
      exec_app
          ->add_option("--schedules", f->schedules,
                       "run the program N times, every launch under another seeded schedule (the "
                       "default, block/warp orders, the interleaved policy); report any finding "
                       "and any output or exit status unlike the first schedule's (then exit 122)")
          ->check(number_between(1, 100));
  CLI::Option* gpu = exec_app->add_flag("--gpu", f->gpu,
                     "also build the files with nvcc, run the program on the GPU and compare the "
                     "two programs' stdout, exit status and every launch's buffers");
  CLI::Option* recorded =
      exec_app
          ->add_option("--compare-buffers", f->recorded_buffers_dir,
                       "compare every launch's buffers with a GPU's recording instead of a GPU "
                       "(the gpu/ folder that exec --gpu --buffers DIR wrote on a GPU machine)")
          ->check(CLI::ExistingDirectory)
          ->excludes(gpu)
          ->excludes(schedules);
  schedules->excludes(gpu);
  CLI::Option* ulps = exec_app->add_option(
      "--tolerance-ulps", f->tolerance_ulps,
      "with --gpu or --compare-buffers: f32/f64 buffer elements within N ULPs match (default 0)");
  CLI::Option* kept = exec_app->add_option(
      "--buffers", f->buffers_dir,
      "with --gpu or --compare-buffers: keep the launch buffers in this folder (simulator/ and "
      "gpu/, each a buffers.tsv and one .bin per buffer)");
  return [f, gpu, recorded, ulps, kept] {
    for (const CLI::Option* o : {ulps, kept}) {
      if (o->count() != 0 && gpu->count() == 0 && recorded->count() == 0) {
        std::cerr << "warpsim exec: " << o->get_name() << " needs --gpu or --compare-buffers\n";
        return 2;  // a usage error, as CLI11 reports its own
      }
    }
    f->request.color_compiler_output = isatty(STDERR_FILENO) != 0;
    f->request.policy =
        f->policy == "interleaved" ? ConvergencePolicy::interleaved : ConvergencePolicy::maximal;
    for (const std::string& check : f->checks) {
      if (const Expected<void> known = runner::add_memory_checks(check, f->request); !known) {
        std::cerr << "warpsim exec: " << known.error().message << "\n";
        return 2;  // a usage error, as CLI11 reports its own
      }
    }
    return run(*f);
  };
}

}  // namespace warpsim::cli
