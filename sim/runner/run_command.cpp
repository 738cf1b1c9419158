// `warpsim run` and its C++ face: read, resolve, compile (cached), run in a child process, then
// report (the command) or return values (run_kernel_file(KernelFileRequest)).
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "argument_buffers.hpp"
#include "child_process.hpp"
#include "kernel_compiler.hpp"
#include "run_report.hpp"
#include "stop_diagnostic.hpp"

namespace warpsim::runner {
namespace fs = std::filesystem;
namespace {

Result<std::string> read_source(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Result<std::string>::fail("cannot read " + path + ": " + std::strerror(errno));
  std::string text;
  char chunk[65536];
  while (true) {
    const ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      close(fd);
      return Result<std::string>::fail("cannot read " + path + ": " + std::strerror(error));
    }
    if (n == 0) break;
    text.append(chunk, static_cast<std::size_t>(n));
  }
  close(fd);
  return Result<std::string>::ok(std::move(text));
}

LaunchOptions launch_options_for(const KernelFileRequest& request, bool record_steps) {
  LaunchOptions launch;
  launch.grid = request.grid;
  launch.block = request.block;
  launch.dynamic_shared_bytes = request.shared_bytes;
  launch.policy = request.policy;
  launch.seed = request.seed;
  launch.max_steps = request.max_steps;
  launch.record_steps = record_steps;
  return launch;
}

RunStatus run_status(LaunchStatus status) {
  switch (status) {
    case LaunchStatus::completed:
      return RunStatus::completed;
    case LaunchStatus::deadlock:
      return RunStatus::deadlock;
    case LaunchStatus::step_budget_exceeded:
      return RunStatus::step_budget_exceeded;
    case LaunchStatus::kernel_exception:
      return RunStatus::kernel_exception;
  }
  return RunStatus::crashed;
}

void add_summary(RunReport& report, const RunSummary& summary) {
  report.message = summary.message;
  report.steps = summary.steps;
  for (const Diagnostic& diagnostic : summary.diagnostics) {
    ReportDiagnostic d;
    d.kind = std::string(to_string(diagnostic.kind));
    d.message = diagnostic.message;
    d.lanes = diagnostic.lanes;
    d.has_position = true;
    d.block_idx = coordinates(diagnostic.block, report.grid);
    d.warp = diagnostic.warp;
    if (diagnostic.where.line != 0 && diagnostic.where.file < summary.files.size()) {
      d.file = summary.files[diagnostic.where.file];
      d.line = diagnostic.where.line;
    }
    report.diagnostics.push_back(std::move(d));
  }
  // A launch that stopped is always among the diagnostics, even where the runtime recorded it
  // only as the result's message.
  if (summary.status != LaunchStatus::completed) {
    const DiagnosticKind kind = summary.status == LaunchStatus::deadlock ? DiagnosticKind::deadlock
                                : summary.status == LaunchStatus::step_budget_exceeded
                                    ? DiagnosticKind::step_budget_exceeded
                                    : DiagnosticKind::kernel_fault;
    const std::string name(to_string(kind));
    const bool recorded = std::any_of(report.diagnostics.begin(), report.diagnostics.end(),
                                      [&](const ReportDiagnostic& d) { return d.kind == name; });
    if (!recorded) report.diagnostics.push_back({name, summary.message, 0, false, {}, 0, {}, 0});
  }
  for (const PrintfRecord& record : summary.printf_records) {
    report.printf_lines.push_back({coordinates(record.block, report.grid),
                                   coordinates(record.thread, report.block), record.text});
  }
}

// Fills the report from what the child sent; returns how the run ended.
RunStatus add_outcome(RunReport& report, const ChildOutcome& outcome, const StopContext& context) {
  const Frame* summary_frame = nullptr;
  const Frame* stop_frame = nullptr;  // the last (most complete) one
  for (const Frame& frame : outcome.frames) {
    if (frame.tag == FrameTag::summary) summary_frame = &frame;
    if (frame.tag == FrameTag::stopped && frame.payload.size() == sizeof(StopReport)) {
      stop_frame = &frame;
    }
  }
  if (summary_frame != nullptr) {
    if (const std::optional<RunSummary> summary = decode_summary(summary_frame->payload)) {
      add_summary(report, *summary);
      return run_status(summary->status);
    }
  }
  if (stop_frame != nullptr) {
    StopReport stop;
    std::memcpy(&stop, stop_frame->payload.data(), sizeof stop);
    report.diagnostics.push_back(stop_diagnostic(stop, context));
    report.message = report.diagnostics.back().message;
    return stop.signal == kTimeLimitSignal ? RunStatus::timeout : RunStatus::crashed;
  }
  report.message = outcome.timed_out ? "the kernel did not finish within the time limit and "
                                       "could not say where it was"
                                     : describe_wait_status(outcome.wait_status);
  report.diagnostics.push_back({std::string(to_string(DiagnosticKind::kernel_fault)),
                                report.message,
                                0,
                                false,
                                {},
                                0,
                                {},
                                0});
  return RunStatus::crashed;
}

bool trace_destination_writable(const std::string& path) {
  const fs::path parent = fs::absolute(path).parent_path();
  return access(parent.c_str(), W_OK) == 0;
}

// One run of a kernel file before anyone shows it: what `warpsim run` and the C++ API share.
struct KernelRun {
  RunStatus status = RunStatus::bad_input;
  std::string error;            // bad_input: one line
  std::string compiler_output;  // a failed compile: the compiler's output (and a hint), whole lines
  RunReport report;             // what ran, less `buffers`: the caller points it into `buffers`
  ArgumentBuffers buffers;      // the arguments, as the kernel left them
  std::optional<std::string> trace_json;  // when asked for and the launch returned
  std::optional<GpuStageResult> gpu;      // --gpu: what the GPU stage returned, when it ran
  std::string gpu_skipped;                // --gpu: why the GPU stage did not run, when it did not
  std::vector<std::string> warnings;      // about the compiled file (CompiledKernel::warnings)
};

std::vector<OutputBuffer> buffer_bytes(const ArgumentBuffers& buffers) {
  std::vector<OutputBuffer> bytes;
  for (const GuardedBuffer& buffer : buffers.buffers()) {
    const std::byte* data = buffer.data;
    bytes.push_back(
        {buffer.arg, buffer.type, {data, data + buffer.count * element_size(buffer.type)}});
  }
  return bytes;
}

// Runs the GPU stage after a completed simulation; exceptions become a failed stage.
GpuStageResult run_gpu_stage(const GpuStage& stage, const GpuStageInput& input) {
  try {
    return stage(input);
  } catch (const std::exception& error) {
    GpuStageResult failed;
    failed.error = GpuStageError::failed;
    failed.message = error.what();
    return failed;
  }
}

// The kernels that a macro declares, seen in the preprocessed file; empty when it does not
// preprocess (the compile will say why).
std::vector<KernelInfo> macro_kernels(const std::string& file, const std::vector<KernelInfo>& written,
                                      int arch = 900) {
  auto toolchain = find_toolchain();
  if (!toolchain) return {};
  auto expanded = preprocess_for_kernel_scan(*toolchain, file, arch);
  if (!expanded) return {};
  std::vector<KernelInfo> found;
  for (KernelInfo& kernel : scan_kernels(*expanded)) {
    const bool known = std::any_of(written.begin(), written.end(),
                                   [&](const KernelInfo& k) { return k.name == kernel.name; });
    if (!known) {
      kernel.line = 0;  // a line of the preprocessed text, not of the file
      found.push_back(std::move(kernel));
    }
  }
  return found;
}

// Resolves --kernel against the kernels written in the file; a name found there in no form is
// looked up again among those that macros declare.
Result<KernelChoice> find_kernel(const std::string& source, const KernelFileRequest& request,
                                 int arch) {
  std::vector<KernelInfo> kernels = scan_kernels(source);
  auto kernel = resolve_kernel(kernels, request.kernel, request.file);
  if (kernel || kernel.error.rfind("unknown kernel", 0) != 0) return kernel;
  const std::vector<KernelInfo> more = macro_kernels(request.file, kernels, arch);
  if (more.empty()) return kernel;
  kernels.insert(kernels.end(), more.begin(), more.end());
  return resolve_kernel(kernels, request.kernel, request.file);
}

// Reads, resolves, compiles (cached) and runs `request` in a child process, into `run`; then,
// with a `gpu_stage` and a simulation that completed, the GPU stage.
void run_request(const KernelFileRequest& request, bool want_trace, bool color_diagnostics,
                 const GpuStage* gpu_stage, KernelRun& run) {
  if (gpu_stage != nullptr && !*gpu_stage) gpu_stage = nullptr;
  want_trace = want_trace || gpu_stage != nullptr;  // the GPU comparison needs the steps
  auto bad_input = [&](std::string message) {
    run.status = RunStatus::bad_input;
    run.error = std::move(message);
  };
  const auto arch = cuda_arch_number(request.arch);
  if (!arch) return bad_input(arch.error);
  auto source = read_source(request.file);
  if (!source) return bad_input(source.error);
  const auto kernel = find_kernel(*source, request, *arch);
  if (!kernel) return bad_input(kernel.error);
  run.report.kernel = kernel->name;
  if (std::string problem = check_launch_shape(request.grid, request.block); !problem.empty()) {
    return bad_input(problem);
  }
  auto buffers = ArgumentBuffers::create(request.args);
  if (!buffers) return bad_input(buffers.error);
  run.buffers = std::move(*buffers);
  // The child writes into the shared buffers: the GPU must start from the bytes as they are now.
  std::vector<OutputBuffer> initial;
  if (gpu_stage != nullptr) initial = buffer_bytes(run.buffers);

  auto toolchain = find_toolchain();
  if (!toolchain) return bad_input(toolchain.error);
  const fs::path absolute = fs::absolute(request.file).lexically_normal();
  const std::string prepared = prepare_source(*source, absolute.string(), *kernel);
  const std::string kernel_name = kernel->name.substr(0, kernel->name.find('<'));
  auto compiled = compile_kernel(
      *toolchain, prepared,
      {absolute.parent_path().string(), *arch, color_diagnostics, absolute.string(), kernel_name});
  if (!compiled) {
    run.compiler_output = compiled.error;
    if (!compiled.error.empty() && compiled.error.back() != '\n') run.compiler_output += "\n";
    if (compiled.error.find("<warpsim-generated>") != std::string::npos) {
      run.compiler_output += "warpsim run: the error is in warpsim's launch code for '" +
                             kernel->name +
                             "': is the kernel overloaded, or is a parameter of a type --arg "
                             "cannot give?\n";
    }
    return bad_input(request.file + " did not compile");
  }
  run.warnings = compiled->warnings;

  const LaunchOptions launch = launch_options_for(request, want_trace);
  const ChildOutcome outcome =
      run_in_child({compiled->shared_object, &request.args, &run.buffers, launch, want_trace, -1},
                   request.timeout_seconds);
  if (!outcome.started) return bad_input(outcome.failure);
  for (const Frame& frame : outcome.frames) {
    if (frame.tag == FrameTag::bad_input) return bad_input(frame.payload);
  }

  run.report.file = request.file;
  run.report.grid = request.grid;
  run.report.block = request.block;
  const StopContext context{request.timeout_seconds, launch.stack_bytes,
                            launch.dynamic_shared_bytes, &run.buffers, compiled->shared_object,
                            absolute.string()};
  run.status = add_outcome(run.report, outcome, context);
  run.report.status = std::string(to_string(run.status));
  for (const Frame& frame : outcome.frames) {
    if (frame.tag == FrameTag::trace_json) run.trace_json = frame.payload;
  }
  if (gpu_stage == nullptr) return;

  // Only a launch that completed goes to the GPU: a deadlocked kernel would hang the device.
  if (run.status != RunStatus::completed) {
    run.gpu_skipped = "not run on the GPU: the simulation did not complete (" +
                      std::string(to_string(run.status)) + ")";
    return;
  }
  std::string trace_error = "the simulator sent no trace";
  std::optional<Trace> trace;
  if (run.trace_json) trace = read_trace_json(*run.trace_json, trace_error);
  if (!trace) {
    run.gpu = GpuStageResult{};
    run.gpu->error = GpuStageError::failed;
    run.gpu->message = "cannot read the simulator's trace: " + trace_error;
    return;
  }
  GpuStageInput input;
  input.source = *source;
  input.file = request.file;
  input.kernel = *kernel;
  input.args = &request.args;
  input.initial = std::move(initial);
  input.final_buffers = buffer_bytes(run.buffers);
  input.trace = &*trace;
  input.grid = request.grid;
  input.block = request.block;
  input.shared_bytes = request.shared_bytes;
  input.timeout_seconds = request.timeout_seconds;
  run.gpu = run_gpu_stage(*gpu_stage, input);
}

std::string_view gpu_error_name(GpuStageError error) {
  switch (error) {
    case GpuStageError::none:
      return "none";
    case GpuStageError::no_device:
      return "no_device";
    case GpuStageError::compile:
      return "compile";
    case GpuStageError::invalid_argument:
      return "invalid_argument";
    case GpuStageError::failed:
      return "failed";
  }
  return "failed";
}

int gpu_exit_status(GpuStageError error) {
  switch (error) {
    case GpuStageError::none:
      return kExitRan;
    case GpuStageError::no_device:
      return kExitNoGpu;
    case GpuStageError::compile:
    case GpuStageError::invalid_argument:
      return kExitBadInput;
    case GpuStageError::failed:
      return kExitKernelFailed;
  }
  return kExitKernelFailed;
}

// A crash's diagnostic in the trace's terms (a timeout has none: the status says it).
void add_crash_diagnostics(const RunReport& report, Trace& trace) {
  for (const ReportDiagnostic& d : report.diagnostics) {
    for (const DiagnosticKind kind :
         {DiagnosticKind::out_of_bounds, DiagnosticKind::kernel_fault}) {
      if (d.kind != to_string(kind)) continue;
      Diagnostic diagnostic;
      diagnostic.kind = kind;
      diagnostic.message = d.message;
      diagnostic.lanes = d.lanes;
      diagnostic.block =
          d.block_idx.x + std::uint64_t{trace.grid.x} *
                              (d.block_idx.y + std::uint64_t{trace.grid.y} * d.block_idx.z);
      diagnostic.warp = d.warp;
      if (!d.file.empty()) diagnostic.where = {trace.file_index(d.file), d.line};
      trace.diagnostics.push_back(std::move(diagnostic));
    }
  }
}

}  // namespace

std::string_view to_string(RunStatus status) {
  switch (status) {
    case RunStatus::completed:
      return "completed";
    case RunStatus::deadlock:
      return "deadlock";
    case RunStatus::step_budget_exceeded:
      return "step_budget_exceeded";
    case RunStatus::kernel_exception:
      return "kernel_exception";
    case RunStatus::crashed:
      return "crashed";
    case RunStatus::timeout:
      return "timeout";
    case RunStatus::bad_input:
      return "bad_input";
  }
  return "?";
}

int exit_status(RunStatus status) {
  if (status == RunStatus::completed) return kExitRan;
  return status == RunStatus::bad_input ? kExitBadInput : kExitKernelFailed;
}

const OutputBuffer& KernelFileResult::buffer_of(std::size_t arg, ElementType type) const {
  for (const OutputBuffer& buffer : buffers) {
    if (buffer.arg != arg) continue;
    if (buffer.type == type) return buffer;
    throw std::invalid_argument("parameter " + std::to_string(arg) + " of '" + kernel + "' holds " +
                                std::string(to_string(buffer.type)) + ", not " +
                                std::string(to_string(type)));
  }
  throw std::invalid_argument("parameter " + std::to_string(arg) + " of '" + kernel +
                              "' is not a buffer" +
                              (status == RunStatus::bad_input ? " (the run never started)" : ""));
}

int list_kernels(const std::string& file, std::ostream& out, std::ostream& err) {
  auto source = read_source(file);
  if (!source) {
    err << "warpsim run: " << source.error << "\n";
    return kExitBadInput;
  }
  const std::vector<KernelInfo> written = scan_kernels(*source);
  for (const KernelInfo& kernel : written) {
    out << kernel.name << (kernel.is_template ? "<...>" : "") << "  (line " << kernel.line << ")\n";
  }
  for (const KernelInfo& kernel : macro_kernels(file, written)) {
    out << kernel.name << (kernel.is_template ? "<...>" : "") << "  (declared by a macro)\n";
  }
  return kExitRan;
}

KernelFileResult run_kernel_file(const KernelFileRequest& request) {
  KernelRun run;
  run_request(request, /*want_trace=*/true, /*color_diagnostics=*/false, nullptr, run);
  KernelFileResult result;
  result.status = run.status;
  result.kernel = run.report.kernel;
  if (run.status == RunStatus::bad_input) {
    result.message = run.error;
    if (!run.compiler_output.empty()) result.message += "\n" + run.compiler_output;
    return result;
  }
  result.message = run.report.message;
  result.steps = run.report.steps;
  result.warnings = run.warnings;
  result.buffers = buffer_bytes(run.buffers);
  if (run.trace_json) {
    std::istringstream in(*run.trace_json);
    std::string error;
    [[maybe_unused]] const bool read = read_trace_json(in, result.trace, error);
    assert(read && "the child's trace JSON reads back");
  } else {
    result.trace.grid = request.grid;
    result.trace.block = request.block;
    add_crash_diagnostics(run.report, result.trace);
  }
  return result;
}

int run_kernel_file(const RunOptions& options, std::ostream& out, std::ostream& err) {
  auto bad_input = [&](const std::string& message) {
    err << "warpsim run: " << message << "\n";
    return kExitBadInput;
  };
  const bool want_trace = !options.trace_path.empty();
  if (want_trace && !trace_destination_writable(options.trace_path)) {
    return bad_input("cannot write --trace " + options.trace_path + ": " + std::strerror(errno));
  }
  KernelRun run;
  run_request(options, want_trace, isatty(STDERR_FILENO) != 0, &options.gpu_stage, run);
  if (run.status == RunStatus::bad_input) {
    err << run.compiler_output;
    return bad_input(run.error);
  }
  for (const std::string& warning : run.warnings) err << "warpsim run: warning: " << warning << "\n";
  const GpuStageError gpu_error = run.gpu ? run.gpu->error : GpuStageError::none;
  if (gpu_error == GpuStageError::no_device) {  // one line, nothing else
    err << "warpsim run: --gpu: " << run.gpu->message << "\n";
    return kExitNoGpu;
  }
  for (const GuardedBuffer& buffer : run.buffers.buffers()) run.report.buffers.push_back(&buffer);
  if (run.gpu && gpu_error == GpuStageError::none) {
    run.report.gpu_json = run.gpu->json;
    run.report.gpu_text = run.gpu->text;
    run.report.gpu_printf = run.gpu->printf_output;
  } else if (run.gpu) {
    run.report.gpu_json = "{\"error\":" + json_string(gpu_error_name(gpu_error)) +
                          ",\"message\":" + json_string(run.gpu->message) + "}";
  } else if (!run.gpu_skipped.empty()) {
    run.report.gpu_json = "{\"skipped\":" + json_string(run.gpu_skipped) + "}";
  }
  int status = exit_status(run.status);
  if (options.json) {
    write_report_json(out, run.report);
    if (status != kExitRan) err << "warpsim run: " << run.report.message << "\n";
  } else {
    write_report_text(out, run.report);
  }
  if (run.gpu) {
    for (const std::string& note : run.gpu->notes) err << "warpsim run: --gpu: " << note << "\n";
  }
  if (!run.gpu_skipped.empty()) err << "warpsim run: --gpu: " << run.gpu_skipped << "\n";
  if (gpu_error != GpuStageError::none) {
    err << run.gpu->details;
    if (!run.gpu->details.empty() && run.gpu->details.back() != '\n') err << "\n";
    err << "warpsim run: --gpu: " << run.gpu->message << "\n";
    status = std::max(status, gpu_exit_status(gpu_error));
  }
  if (want_trace) {
    if (!run.trace_json) {
      err << "warpsim run: no trace written: the launch did not return\n";
    } else if (std::ofstream file(options.trace_path, std::ios::binary | std::ios::trunc);
               !(file << *run.trace_json).flush()) {
      return bad_input("cannot write " + options.trace_path + ": " + std::strerror(errno));
    }
  }
  return status;
}
}  // namespace warpsim::runner
