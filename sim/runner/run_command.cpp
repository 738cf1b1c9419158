// `warpsim run`: read, resolve, compile (cached), run in a child process, report.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>

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

LaunchOptions launch_options_for(const RunOptions& options) {
  LaunchOptions launch;
  launch.grid = options.grid;
  launch.block = options.block;
  launch.dynamic_shared_bytes = options.shared_bytes;
  launch.policy = options.policy;
  launch.seed = options.seed;
  launch.max_steps = options.max_steps;
  launch.record_steps = !options.trace_path.empty();
  return launch;
}

void add_summary(RunReport& report, const RunSummary& summary) {
  report.status = std::string(to_string(summary.status));
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

// Fills the report from what the child sent; returns the exit status.
int add_outcome(RunReport& report, const ChildOutcome& outcome, const StopContext& context) {
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
      return summary->status == LaunchStatus::completed ? kExitRan : kExitKernelFailed;
    }
  }
  if (stop_frame != nullptr) {
    StopReport stop;
    std::memcpy(&stop, stop_frame->payload.data(), sizeof stop);
    report.diagnostics.push_back(stop_diagnostic(stop, context));
    report.status = stop.signal == kTimeLimitSignal ? "timeout" : "crashed";
    report.message = report.diagnostics.back().message;
    return kExitKernelFailed;
  }
  report.status = "crashed";
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
  return kExitKernelFailed;
}

bool trace_destination_writable(const std::string& path) {
  const fs::path parent = fs::absolute(path).parent_path();
  return access(parent.c_str(), W_OK) == 0;
}

}  // namespace

int list_kernels(const std::string& file, std::ostream& out, std::ostream& err) {
  auto source = read_source(file);
  if (!source) {
    err << "warpsim run: " << source.error << "\n";
    return kExitBadInput;
  }
  for (const KernelInfo& kernel : scan_kernels(*source)) {
    out << kernel.name << (kernel.is_template ? "<...>" : "") << "  (line " << kernel.line << ")\n";
  }
  return kExitRan;
}

int run_kernel_file(const RunOptions& options, std::ostream& out, std::ostream& err) {
  auto bad_input = [&](const std::string& message) {
    err << "warpsim run: " << message << "\n";
    return kExitBadInput;
  };
  auto source = read_source(options.file);
  if (!source) return bad_input(source.error);
  const auto kernel = resolve_kernel(scan_kernels(*source), options.kernel, options.file);
  if (!kernel) return bad_input(kernel.error);
  if (std::string problem = check_launch_shape(options.grid, options.block); !problem.empty()) {
    return bad_input(problem);
  }
  if (!options.trace_path.empty() && !trace_destination_writable(options.trace_path)) {
    return bad_input("cannot write --trace " + options.trace_path + ": " + std::strerror(errno));
  }
  auto buffers = ArgumentBuffers::create(options.args);
  if (!buffers) return bad_input(buffers.error);

  auto toolchain = find_toolchain();
  if (!toolchain) return bad_input(toolchain.error);
  const fs::path absolute = fs::absolute(options.file).lexically_normal();
  const std::string prepared = prepare_source(*source, absolute.string(), *kernel);
  auto compiled = compile_kernel(*toolchain, prepared, absolute.parent_path().string(),
                                 isatty(STDERR_FILENO) != 0);
  if (!compiled) {
    err << compiled.error;
    if (!compiled.error.empty() && compiled.error.back() != '\n') err << "\n";
    if (compiled.error.find("<warpsim-generated>") != std::string::npos) {
      err << "warpsim run: the error is in warpsim's launch code for '" << kernel->name
          << "': is the kernel overloaded, or is a parameter of a type --arg cannot give?\n";
    }
    return bad_input(options.file + " did not compile");
  }

  const LaunchOptions launch = launch_options_for(options);
  const ChildOutcome outcome = run_in_child(
      {compiled->shared_object, &options.args, &*buffers, launch, !options.trace_path.empty(), -1},
      options.timeout_seconds);
  if (!outcome.started) return bad_input(outcome.failure);
  for (const Frame& frame : outcome.frames) {
    if (frame.tag == FrameTag::bad_input) return bad_input(frame.payload);
  }

  RunReport report;
  report.kernel = kernel->name;
  report.file = options.file;
  report.grid = options.grid;
  report.block = options.block;
  for (const GuardedBuffer& buffer : buffers->buffers()) report.buffers.push_back(&buffer);
  const StopContext context{options.timeout_seconds, launch.stack_bytes, &*buffers,
                            compiled->shared_object, absolute.string()};
  const int status = add_outcome(report, outcome, context);

  if (options.json) {
    write_report_json(out, report);
    if (status != kExitRan) err << "warpsim run: " << report.message << "\n";
  } else {
    write_report_text(out, report);
  }
  if (!options.trace_path.empty()) {
    const auto trace = std::find_if(outcome.frames.begin(), outcome.frames.end(),
                                    [](const Frame& f) { return f.tag == FrameTag::trace_json; });
    if (trace == outcome.frames.end()) {
      err << "warpsim run: no trace written: the launch did not return\n";
    } else if (std::ofstream file(options.trace_path, std::ios::binary | std::ios::trunc);
               !(file << trace->payload).flush()) {
      return bad_input("cannot write " + options.trace_path + ": " + std::strerror(errno));
    }
  }
  return status;
}

}  // namespace warpsim::runner
