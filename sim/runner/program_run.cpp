// `warpsim exec`: build a whole program against the shim, run it in a child process under a
// wall-clock limit, and read back what its launches recorded (warpsim/launch_record.hpp).
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "kernel_compiler.hpp"
#include "subprocess.hpp"
#include "warpsim/launch_buffers.hpp"
#include "warpsim/program.hpp"
#include "warpsim/runner.hpp"

extern char** environ;

namespace warpsim::runner {
namespace fs = std::filesystem;
namespace {

// A fresh folder for one run's records, removed with the object.
class ScratchDir {
 public:
  ScratchDir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern =
        std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/warpsim-exec-XXXXXX";
    if (mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ignored;
    if (!path_.empty()) fs::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct ChildEnd {
  bool started = false;
  std::string failure;
  int wait_status = 0;
  bool timed_out = false;
  double seconds = 0;
};

// How long after its time limit a program that has not stopped itself is killed.
constexpr std::chrono::seconds kTimeLimitGrace{3};

// Runs argv with extra environment variables (replacing ones of the same name), stdout to
// `stdout_path` when not empty (else inherited, as stdin and stderr are), telling it when
// `limit_seconds` pass (kProgramDeadlineEnv) and killing it kTimeLimitGrace later. Started with
// posix_spawn: nothing runs between fork and exec.
ChildEnd run_limited(const std::vector<std::string>& argv,
                     const std::vector<std::pair<std::string, std::string>>& environment,
                     const std::string& stdout_path, double limit_seconds) {
  ChildEnd end;
  std::fflush(nullptr);
  std::vector<std::string> variables;
  for (char** v = environ; *v != nullptr; ++v) {
    const std::string_view entry(*v);
    const std::string_view name = entry.substr(0, entry.find('='));
    const bool replaced = std::any_of(environment.begin(), environment.end(),
                                      [&](const auto& pair) { return pair.first == name; });
    if (!replaced) variables.emplace_back(entry);
  }
  for (const auto& [name, value] : environment) variables.push_back(name + "=" + value);
  // The program stops itself at the limit, in a launch with what it found so far
  // (kProgramDeadlineEnv); it is killed only if it has not ended a grace period later (host code,
  // or a launch that does not reach a check).
  const auto start = std::chrono::steady_clock::now();
  const auto limit = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(limit_seconds));
  variables.push_back(std::string(program::kProgramDeadlineEnv) + "=" +
                      std::to_string(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                         (start + limit).time_since_epoch())
                                         .count()));
  std::vector<char*> envp;
  for (std::string& variable : variables) envp.push_back(variable.data());
  envp.push_back(nullptr);
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!stdout_path.empty()) {
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, stdout_path.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
  }
  pid_t pid = -1;
  const int error = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) {
    end.failure = "cannot run " + argv[0] + ": " + std::strerror(error);
    return end;
  }
  end.started = true;
  const auto deadline = start + limit + kTimeLimitGrace;
  while (true) {
    const pid_t done = waitpid(pid, &end.wait_status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      end.timed_out = true;
      kill(pid, SIGKILL);
      while (waitpid(pid, &end.wait_status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    const timespec pause{0, 5'000'000};
    nanosleep(&pause, nullptr);
  }
  end.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return end;
}

std::string read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every launch's outcome: its first record (what was launched) with the last one's outcome.
std::vector<ProgramLaunch> read_launches(const std::string& dir) {
  std::map<std::uint64_t, ProgramLaunch> by_index;
  std::istringstream lines(read_whole(dir + "/" + program::kLaunchRecordFile));
  for (std::string line; std::getline(lines, line);) {
    std::optional<program::LaunchRecord> record = program::launch_record_from_json(line);
    if (!record) continue;
    auto [it, fresh] = by_index.try_emplace(record->index);
    program::LaunchRecord& known = it->second.record;
    if (fresh) {
      known = std::move(*record);
      continue;
    }
    if (record->status == "crashed") {  // the handler knows the lane, not the launch
      known.status = record->status;
      known.signal = record->signal;
      known.crash_block = record->crash_block;
      known.crash_thread = record->crash_thread;
      known.crash_file = record->crash_file;
      known.crash_line = record->crash_line;
      known.crash_memory = record->crash_memory;
    } else {
      known = std::move(*record);
    }
  }
  std::vector<ProgramLaunch> launches;
  for (auto& [index, launch] : by_index) {
    if (!launch.record.trace_file.empty()) {
      if (auto trace = read_trace_json(read_whole(launch.record.trace_file))) {
        launch.trace = std::move(*trace);
      }
    }
    launches.push_back(std::move(launch));
  }
  return launches;
}

std::string signal_name(int signal) {
  const char* text = strsignal(signal);
  return "signal " + std::to_string(signal) + " (" + (text != nullptr ? text : "?") + ")";
}

std::string where_launch(const program::LaunchRecord& r) {
  return "launch " + std::to_string(r.index + 1) + " (" + r.kernel + " at " +
         fs::path(r.file).filename().string() + ":" + std::to_string(r.line) + ")";
}

// Where the program was when it stopped: in a launch still running, or in host code.
std::string where_stopped(const std::vector<ProgramLaunch>& launches) {
  if (launches.empty()) return "in host code, before any launch";
  const program::LaunchRecord& last = launches.back().record;
  if (last.status == "running") return "during " + where_launch(last);
  if (last.status == "crashed") {
    std::string lane = "during " + where_launch(last) + ", block " +
                       std::to_string(last.crash_block) + " thread " +
                       std::to_string(last.crash_thread);
    if (last.crash_line != 0) {
      lane += ", after its warp-level call at " + fs::path(last.crash_file).filename().string() +
              ":" + std::to_string(last.crash_line);
    }
    if (!last.crash_memory.empty()) lane += ": " + last.crash_memory;
    return lane;
  }
  return "in host code, after " + where_launch(last);
}

std::string find_nvcc() {
  if (std::string found = find_program("nvcc"); !found.empty()) return found;
  for (const char* root : {static_cast<const char*>(std::getenv("CUDA_HOME")),
                           static_cast<const char*>(std::getenv("CUDA_PATH")), "/usr/local/cuda"}) {
    if (root == nullptr || *root == '\0') continue;
    const std::string candidate = std::string(root) + "/bin/nvcc";
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

// The program's files as the user named them: "prog.cu", or "main.cpp + kernels.cu".
std::string files_text(const std::vector<std::string>& files) {
  std::string text;
  for (const std::string& file : files) text += (text.empty() ? "" : " + ") + file;
  return text;
}

std::string with_library_hint(std::string output) {
  if (!output.empty() && output.back() != '\n') output += "\n";
  if (const std::string hint = unsupported_library_hint(output); !hint.empty())
    output += hint + "\n";
  return output;
}

// The linker's output with each object (a file in the cache) named by the user's file, and its
// first line that says what is wrong ("undefined reference to `f()'", "multiple definition of
// `main'; ...").
struct LinkFailure {
  std::string output;
  std::string reason;
};
LinkFailure explain_link_failure(std::string output, const std::vector<std::string>& objects,
                                 const std::vector<std::string>& files) {
  for (std::size_t i = 0; i < objects.size(); ++i) {
    for (std::size_t at = output.find(objects[i]); at != std::string::npos;
         at = output.find(objects[i], at + files[i].size())) {
      output.replace(at, objects[i].size(), files[i]);
    }
  }
  LinkFailure failure{std::move(output), {}};
  std::istringstream lines(failure.output);
  for (std::string line; std::getline(lines, line) && failure.reason.empty();) {
    if (line.find("undefined reference to") == std::string::npos &&
        line.find("multiple definition of") == std::string::npos) {
      continue;
    }
    // "/usr/bin/ld: " goes; "file.cu:3: multiple definition of `main'; ...: first defined here"
    // keeps its first part (the output above says where else).
    if (const std::size_t ld = line.find("ld: "); ld != std::string::npos && ld < line.find(' '))
      line.erase(0, ld + 4);
    failure.reason = line.substr(0, line.find("; "));
  }
  return failure;
}

// The program's executable (in the kernel cache). One file: compiled and linked in one step, as
// ever. Several: each its own translation unit (statics and anonymous namespaces stay apart),
// compiled to an object of its own, cached on its own and in parallel, then linked. An error of
// kind compile carries the compiler's or linker's output in details.
Expected<std::string> build_program(const ProgramRequest& request, const Toolchain& toolchain,
                                    int arch, const std::vector<std::string>& user_flags) {
  CompileOptions common;
  common.arch = arch;
  common.color_diagnostics = request.color_compiler_output;
  std::vector<CompileUnit> units;
  std::set<std::string> seen;
  for (const std::string& file : request.files) {
    auto source = read_text_file(file);
    if (!source) return source.error();
    const fs::path absolute = fs::absolute(file).lexically_normal();
    if (!seen.insert(absolute.string()).second) {
      return fail(file + " is named twice: each file is one translation unit of the program");
    }
    CompileUnit unit{{}, common};
    unit.options.user_dir = absolute.parent_path().string();
    unit.options.user_flags = user_flags;
    unit.options.c_language = request.files.size() > 1 && absolute.extension() == ".c";
    // nvcc hands a .cpp to the host compiler without CUDA's headers: a program's own umin() or
    // min() in such a file is no redefinition. One file alone is compiled as CUDA, as ever.
    const std::string extension = absolute.extension().string();
    unit.options.host_cplusplus = request.files.size() > 1 &&
                                  (extension == ".cpp" || extension == ".cc" || extension == ".cxx");
    if (unit.options.c_language || unit.options.host_cplusplus) {
      // Host code: the compiler reads it and its headers as they are (no launches to rewrite,
      // no loops a lane could spin in).
      unit.prepared_source = prepare_c_program_source(*source, absolute.string());
    } else {
      for (std::string& flag : source_flags(*source)) unit.options.user_flags.push_back(flag);
      // The user's headers go through the same rewriters (user_headers.hpp).
      UserSources sources =
          user_sources(toolchain, *source, absolute.string(), unit.options.user_flags);
      unit.options.headers = std::move(sources.headers);
      unit.prepared_source = prepare_program_source(sources.main, absolute.string());
    }
    // Kernels live in CUDA files only: host files stay uninstrumented (and as fast as ever).
    unit.options.instrument_memory =
        request.any_check() && !unit.options.c_language && !unit.options.host_cplusplus;
    units.push_back(std::move(unit));
  }
  if (units.size() == 1) {
    units[0].options.output = CompileOutput::executable;  // compiled and linked at once
    for (const std::string& flag : request.linker_flags)
      units[0].options.user_flags.push_back("-Wl," + flag);
    auto compiled = compile_kernel(toolchain, units[0].prepared_source, units[0].options);
    if (!compiled) {
      return fail(ErrorKind::compile, request.files[0] + " did not compile",
                  with_library_hint(compiled.error().message));
    }
    return compiled->shared_object;
  }

  for (CompileUnit& unit : units) unit.options.output = CompileOutput::object;
  const std::vector<Expected<CompiledKernel>> compiled = compile_kernels(toolchain, units);
  std::vector<std::string> failed, objects;
  std::string output;
  for (std::size_t i = 0; i < compiled.size(); ++i) {
    if (compiled[i]) {
      objects.push_back(compiled[i]->shared_object);
    } else {
      failed.push_back(request.files[i]);
      output += with_library_hint(compiled[i].error().message);
    }
  }
  if (!failed.empty()) {
    return fail(ErrorKind::compile, files_text(failed) + " did not compile", std::move(output));
  }
  std::vector<std::string> link_flags = request.host_compiler_flags;
  for (const std::string& flag : request.linker_flags) link_flags.push_back("-Wl," + flag);
  auto linked = link_program(toolchain, objects, request.color_compiler_output, link_flags);
  if (!linked) {
    LinkFailure failure = explain_link_failure(linked.error().message, objects, request.files);
    std::string message =
        "the program's " + std::to_string(request.files.size()) + " files did not link";
    if (!failure.reason.empty()) message += ": " + failure.reason;
    if (!failure.output.empty() && failure.output.back() != '\n') failure.output += "\n";
    return fail(ErrorKind::compile, std::move(message), std::move(failure.output));
  }
  return linked->shared_object;
}

}  // namespace

std::string_view to_string(ProgramStatus status) {
  switch (status) {
    case ProgramStatus::exited:
      return "exited";
    case ProgramStatus::kernel_stopped:
      return "kernel_stopped";
    case ProgramStatus::not_simulated:
      return "not_simulated";
    case ProgramStatus::crashed:
      return "crashed";
    case ProgramStatus::timeout:
      return "timeout";
    case ProgramStatus::bad_input:
      return "bad_input";
  }
  return "?";
}

std::uint64_t ProgramResult::diagnostic_count() const {
  std::uint64_t count = 0;
  for (const ProgramLaunch& launch : launches) {
    count += std::max<std::uint64_t>(launch.record.diagnostics, launch.trace.diagnostics.size());
  }
  return count;
}

std::uint64_t ProgramResult::memory_finding_count() const {
  std::uint64_t count = 0;
  for (const ProgramLaunch& launch : launches) {
    count += static_cast<std::uint64_t>(
        std::count_if(launch.trace.diagnostics.begin(), launch.trace.diagnostics.end(),
                      [](const Diagnostic& d) { return is_memory_finding(d.kind); }));
  }
  return count;
}

std::uint64_t ProgramResult::refused_launch_count() const {
  return static_cast<std::uint64_t>(
      std::count_if(launches.begin(), launches.end(), [](const ProgramLaunch& launch) {
        return launch.record.status == "invalid_configuration";
      }));
}

std::uint64_t ProgramResult::host_memory_launch_count() const {
  return static_cast<std::uint64_t>(
      std::count_if(launches.begin(), launches.end(), [](const ProgramLaunch& launch) {
        return !launch.record.host_pointer_args.empty();
      }));
}

int exec_exit_status(const ProgramResult& result) {
  switch (result.status) {
    case ProgramStatus::exited:
      if (result.exit_code != 0) return result.exit_code;
      if (result.memory_finding_count() != 0) return kExitFindings;
      if (result.checked && (result.refused_launch_count() != 0 || !result.refused_calls.empty() ||
                             result.host_memory_launch_count() != 0))
        return kExitFindings;
      return result.diagnostic_count() != 0 ? kExecKernelProblem : 0;
    case ProgramStatus::kernel_stopped:
    case ProgramStatus::not_simulated:
      return kExecKernelProblem;
    case ProgramStatus::crashed:
      return 128 + result.signal;
    case ProgramStatus::timeout:
      return kExecTimeLimit;
    case ProgramStatus::bad_input:
      return kExecBadInput;
  }
  return kExecBadInput;
}

ProgramResult run_program(const ProgramRequest& request) {
  ProgramResult result;
  result.checked = request.any_check();
  auto bad_input = [&](std::string message, std::string details = {}) {
    result.status = ProgramStatus::bad_input;
    result.message = std::move(message);
    result.details = std::move(details);
    return std::move(result);
  };
  const auto arch = cuda_arch_number(request.arch);
  if (!arch) return bad_input(arch.error().message);
  if (request.files.empty()) return bad_input("no source file: name the program's files");
  for (const std::string& file : request.files) {
    if (access(file.c_str(), R_OK) != 0)
      return bad_input("cannot read " + file + ": " + std::strerror(errno));
  }
  auto toolchain = find_toolchain();
  if (!toolchain) return bad_input(toolchain.error().message);
  if (!request.trace_dir.empty()) {
    std::error_code error;
    fs::create_directories(request.trace_dir, error);
    if (error)
      return bad_input("cannot create --trace " + request.trace_dir + ": " + error.message());
  }
  auto user_flags = user_compiler_flags(request.include_dirs, request.definitions);
  if (!user_flags) return bad_input(user_flags.error().message);
  user_flags->insert(user_flags->end(), request.host_compiler_flags.begin(),
                     request.host_compiler_flags.end());
  auto executable = build_program(request, *toolchain, *arch, *user_flags);
  if (!executable) return bad_input(executable.error().message, executable.error().details);

  ScratchDir scratch;
  if (scratch.path().empty())
    return bad_input(std::string("cannot create a temporary folder: ") + std::strerror(errno));
  std::vector<std::pair<std::string, std::string>> environment{
      {program::kProgramDirEnv, scratch.path()}};
#if defined(WARPSIM_RUNNER_SANITIZED_LIBRARY)
  // In a sanitizer build the program carries ASan (kernel_compiler.cpp): what the user's program
  // leaves allocated at exit (a GPU frees it) is no finding of warpsim's.
  const char* asan = std::getenv("ASAN_OPTIONS");
  environment.emplace_back("ASAN_OPTIONS",
                           std::string(asan != nullptr ? asan : "") + ":detect_leaks=0");
#endif
  if (!request.trace_dir.empty()) {
    environment.emplace_back(program::kProgramTraceDirEnv,
                             fs::absolute(request.trace_dir).lexically_normal().string());
  }
  if (request.max_steps != 0) {
    environment.emplace_back(program::kProgramMaxStepsEnv, std::to_string(request.max_steps));
  }
  if (request.jobs != 0) {
    environment.emplace_back(program::kProgramJobsEnv, std::to_string(request.jobs));
  }
  if (!request.buffers_dir.empty()) {
    environment.emplace_back(launch_buffers::kLaunchBuffersDirEnv,
                             fs::absolute(request.buffers_dir).lexically_normal().string());
  }
  if (request.any_check()) {
    std::string checks;
    if (request.check_races) checks += "races,";
    if (request.check_uninitialized_shared) checks += "uninit,";
    if (request.check_bounds) checks += "bounds,";
    checks.pop_back();
    environment.emplace_back(program::kProgramChecksEnv, checks);
    if (const std::uint8_t fill = never_set_fill(*toolchain); request.check_uninitialized_shared && fill != 0)
      environment.emplace_back(program::kProgramNeverSetFillEnv, std::to_string(fill));
  }
  if (request.policy != ConvergencePolicy::maximal || request.seed != 1 ||
      request.order_seed != 0) {
    environment.emplace_back(
        program::kProgramScheduleEnv,
        std::string(request.policy == ConvergencePolicy::interleaved ? "interleaved" : "maximal") +
            ":" + std::to_string(request.seed) + ":" + std::to_string(request.order_seed));
  }
  std::vector<std::string> argv{*executable};
  argv.insert(argv.end(), request.program_args.begin(), request.program_args.end());
  const std::string stdout_path = request.capture_stdout ? scratch.path() + "/stdout" : "";
  const ChildEnd end = run_limited(argv, environment, stdout_path, request.time_limit_seconds);
  if (!end.started) return bad_input(end.failure);
  result.seconds = end.seconds;
  result.launches = read_launches(scratch.path());
  if (request.capture_stdout) result.program_stdout = read_whole(stdout_path);

  const bool stopped_at_launch = !result.launches.empty() &&
                                 result.launches.back().record.status != "completed" &&
                                 result.launches.back().record.status != "running" &&
                                 result.launches.back().record.status != "crashed" &&
                                 result.launches.back().record.status != "invalid_configuration" &&
                                 result.launches.back().record.status != "refused" &&
                                 result.launches.back().record.status != "not_run";
  char limit[32];
  std::snprintf(limit, sizeof limit, "%g", request.time_limit_seconds);
  if (end.timed_out) {
    result.status = ProgramStatus::timeout;
    result.signal = SIGKILL;
    result.message = "the program did not finish within the time limit of " + std::string(limit) +
                     " s (--time-limit) and was stopped " + where_stopped(result.launches);
  } else if (WIFSIGNALED(end.wait_status)) {
    result.status = ProgramStatus::crashed;
    result.signal = WTERMSIG(end.wait_status);
    result.message = "the program was killed by " + signal_name(result.signal) + " " +
                     where_stopped(result.launches);
  } else if (WEXITSTATUS(end.wait_status) == program::kProgramStoppedExitStatus &&
             stopped_at_launch) {
    const program::LaunchRecord& last = result.launches.back().record;
    if (last.status == "time_limit") {  // the launch stopped itself at the deadline
      result.status = ProgramStatus::timeout;
      result.message = "the program did not finish within the time limit of " +
                       std::string(limit) + " s (--time-limit): warpsim stopped it at " +
                       where_launch(last) + ", keeping what that launch had found";
    } else {
      result.status = ProgramStatus::kernel_stopped;
      result.message = "warpsim stopped the program at " + where_launch(last) + ": " +
                       last.status + ": " + last.message;
    }
  } else if (const std::string not_simulated =
                 read_whole(scratch.path() + "/" + program::kNotSimulatedFile);
             WEXITSTATUS(end.wait_status) == program::kProgramNotSimulatedExitStatus &&
             !not_simulated.empty()) {
    result.status = ProgramStatus::not_simulated;
    result.message = "warpsim stopped the program: " +
                     not_simulated.substr(0, not_simulated.find('\n'));
  } else {
    result.status = ProgramStatus::exited;
    result.exit_code = WEXITSTATUS(end.wait_status);
  }
  std::istringstream refused(read_whole(scratch.path() + "/" + program::kRefusedCallsFile));
  for (std::string line; std::getline(refused, line);) {
    if (!line.empty()) result.refused_calls.push_back(line);
  }
  return result;
}

Expected<std::string> write_gpu_program(const std::string& file,
                                        const std::vector<std::string>& user_flags,
                                        const std::string& warpsim_include_dir,
                                        const std::string& dir) {
  auto source = read_text_file(file);
  if (!source) return source.error();
  const fs::path absolute = fs::absolute(file).lexically_normal();
  // The user's headers with their launches wrapped too, beside it (user_headers.hpp), searched
  // as nvcc will search: -I folders, the program's folder, warpsim's headers.
  std::vector<IncludeFolder> search = user_include_folders(user_flags);
  search.push_back({absolute.parent_path().string(), true});
  search.push_back({warpsim_include_dir, false});
  const UserSources sources = prepare_user_headers(
      *source, absolute.string(), search, dir,
      [](std::string_view text) { return rewrite_user_file(text, LaunchTarget::gpu_recorder); },
      read_file_if_any);
  if (const Expected<void> written = write_prepared_headers(sources.headers); !written) {
    return written.error();
  }
  const std::string recorded = dir + "/" + absolute.filename().string();
  std::ofstream out(recorded, std::ios::binary | std::ios::trunc);
  out << prepare_gpu_program_source(sources.main, absolute.string());
  if (!out.flush()) return fail(ErrorKind::file, "cannot write " + recorded);
  return Expected<std::string>(recorded);
}

// Pre-included in the nvcc build: runtime functions CUDA 13 removed, as the toolkit documented
// their replacements (the shim declares them as well), so that a program written for an older
// toolkit (Rodinia's backprop and srad_v2 call cudaThreadSynchronize) builds for the GPU side.
// Fields removed from cudaDeviceProp (clockRate, deviceOverlap) have no such cure.
constexpr const char* kRemovedRuntimeApis = R"(#pragma once
#if defined(__cplusplus)
#include <cuda_runtime.h>
#if CUDART_VERSION >= 13000
static inline cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }
static inline cudaError_t cudaThreadExit(void) { return cudaDeviceReset(); }
static inline cudaError_t cudaThreadSetLimit(cudaLimit l, size_t v) { return cudaDeviceSetLimit(l, v); }
static inline cudaError_t cudaThreadGetLimit(size_t* v, cudaLimit l) { return cudaDeviceGetLimit(v, l); }
static inline cudaError_t cudaThreadSetCacheConfig(cudaFuncCache c) { return cudaDeviceSetCacheConfig(c); }
static inline cudaError_t cudaThreadGetCacheConfig(cudaFuncCache* c) { return cudaDeviceGetCacheConfig(c); }
#endif
#endif
)";

Expected<NativeRun> run_program_with_nvcc(const ProgramRequest& request) {
  const std::string nvcc = find_nvcc();
  if (nvcc.empty()) {
    return fail(ErrorKind::no_device,
                "no nvcc found (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin): the GPU build needs "
                "the CUDA toolkit");
  }
  if (auto arch = cuda_arch_number(request.arch); !arch) return fail(arch.error().message);
  if (request.files.empty()) return fail("no source file: name the program's files");
  for (const std::string& file : request.files) {
    if (access(file.c_str(), R_OK) != 0) {
      return fail(ErrorKind::file, "cannot read " + file + ": " + std::strerror(errno));
    }
  }
  ScratchDir scratch;
  if (scratch.path().empty()) return fail(ErrorKind::file, "cannot create a temporary folder");
  const std::string executable = scratch.path() + "/program";
  // Host code without the C library's _FORTIFY_SOURCE checks, as the simulator's build
  // (kernel_compiler.cpp's shaping_flags says why).
  std::vector<std::string> argv{nvcc, "-arch=" + request.arch, "-O2", "-Xcompiler=-U_FORTIFY_SOURCE",
                                "-o", executable};
  auto user_flags = user_compiler_flags(request.include_dirs, request.definitions);
  if (!user_flags) return user_flags.error();
  argv.insert(argv.end(), user_flags->begin(), user_flags->end());
  for (const std::string& flag : request.host_compiler_flags) argv.push_back("-Xcompiler=" + flag);
  for (const std::string& flag : request.linker_flags) argv.push_back("-Xlinker=" + flag);
  argv.insert(argv.end(), request.nvcc_flags.begin(), request.nvcc_flags.end());
  if (const std::string header = scratch.path() + "/warpsim_removed_apis.h";
      write_file_atomically(header, kRemovedRuntimeApis)) {
    argv.insert(argv.end(), {"-include", header});
  }
  std::vector<std::pair<std::string, std::string>> environment;
  if (request.buffers_dir.empty()) {
    argv.insert(argv.end(), request.files.begin(), request.files.end());
  } else {
    // The program with its launches wrapped to record their buffers, under #line so that nvcc's
    // messages name the user's files; their folders stay first for "..." includes. Only what
    // nvcc compiles as CUDA (.cu) has launches: .cpp, .c and the rest go as they are.
    auto toolchain = find_toolchain();
    if (!toolchain) return toolchain.error();
    std::vector<std::string> sources;
    for (std::size_t i = 0; i < request.files.size(); ++i) {
      const fs::path absolute = fs::absolute(request.files[i]).lexically_normal();
      if (const std::string folder = "-I" + absolute.parent_path().string();
          std::find(argv.begin(), argv.end(), folder) == argv.end()) {
        argv.push_back(folder);
      }
      if (absolute.extension() != ".cu") {
        sources.push_back(absolute.string());
        continue;
      }
      // One folder per file: two files of one name from different folders stay apart.
      const fs::path folder = fs::path(scratch.path()) / std::to_string(i);
      std::error_code error;
      fs::create_directories(folder, error);
      auto recorded =
          write_gpu_program(request.files[i], *user_flags, toolchain->include_dir, folder.string());
      if (!recorded) return recorded.error();
      sources.push_back(*recorded);
    }
    argv.push_back("-I" + toolchain->include_dir);
    argv.insert(argv.end(), sources.begin(), sources.end());
    environment.emplace_back(launch_buffers::kLaunchBuffersDirEnv,
                             fs::absolute(request.buffers_dir).lexically_normal().string());
  }
  const ProcessOutput build = run_process(argv);
  if (!build.started || build.exit_code != 0) {
    Error error{ErrorKind::compile, files_text(request.files) + " did not compile with nvcc",
                build.output};
    return error;
  }
  NativeRun run;
  const ProcessOutput version = run_process({nvcc, "--version"});
  std::istringstream lines(version.output);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("release") != std::string::npos) run.nvcc_version = line;
  }
  std::vector<std::string> program_argv{executable};
  program_argv.insert(program_argv.end(), request.program_args.begin(), request.program_args.end());
  const std::string stdout_path = scratch.path() + "/stdout";
  const ChildEnd end =
      run_limited(program_argv, environment, stdout_path, request.time_limit_seconds);
  if (!end.started) return fail(ErrorKind::internal, end.failure);
  run.timed_out = end.timed_out;
  run.seconds = end.seconds;
  run.exit_code =
      WIFSIGNALED(end.wait_status) ? 128 + WTERMSIG(end.wait_status) : WEXITSTATUS(end.wait_status);
  run.program_stdout = read_whole(stdout_path);
  return run;
}

}  // namespace warpsim::runner
