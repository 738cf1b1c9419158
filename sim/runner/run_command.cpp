// Running a kernel file: read, resolve, compile (cached), run in a child process, and return
// what happened as one KernelFileResult (the CLI and the GUI render it).
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "argument_buffers.hpp"
#include "child_process.hpp"
#include "content_hash.hpp"
#include "host_session.hpp"
#include "kernel_child.hpp"
#include "kernel_compiler.hpp"
#include "stop_diagnostic.hpp"
#include "warpsim/kernel_file_runner.hpp"
#include "warpsim/program.hpp"

namespace warpsim::runner {
namespace fs = std::filesystem;
namespace {


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
    case LaunchStatus::out_of_bounds:
      return RunStatus::crashed;  // as an access into a guard page is without the checks
    case LaunchStatus::time_limit:
      return RunStatus::timeout;
  }
  return RunStatus::crashed;
}

// The launch's own summary (diagnostics, printf; sent when no trace was recorded) as a trace.
void add_summary(Trace& trace, const RunSummary& summary) {
  trace.files = summary.files;
  trace.diagnostics = summary.diagnostics;
  trace.printf_records = summary.printf_records;
  trace.waits = summary.waits;
}

// A diagnostic of the whole run: no lanes, block, step or line of its own.
Diagnostic whole_run(DiagnosticKind kind, const std::string& message) {
  Diagnostic d;
  d.kind = kind;
  d.message = message;
  return d;
}

// A launch that stopped is always among the diagnostics, even where the runtime recorded it only
// as the result's message.
void add_stop_diagnostic(Trace& trace, LaunchStatus status, const std::string& message) {
  if (status == LaunchStatus::completed) return;
  const DiagnosticKind kind = status == LaunchStatus::deadlock ? DiagnosticKind::deadlock
                              : status == LaunchStatus::step_budget_exceeded
                                  ? DiagnosticKind::step_budget_exceeded
                              : status == LaunchStatus::out_of_bounds ? DiagnosticKind::out_of_bounds
                              : status == LaunchStatus::time_limit    ? DiagnosticKind::timeout
                                                                      : DiagnosticKind::kernel_fault;
  const bool recorded = std::any_of(trace.diagnostics.begin(), trace.diagnostics.end(),
                                    [&](const Diagnostic& d) { return d.kind == kind; });
  if (!recorded) trace.diagnostics.push_back(whole_run(kind, message));
}

// Fills the result's trace, message and steps from what the child sent; returns how the run ended.
RunStatus add_outcome(KernelFileResult& result, const ChildOutcome& outcome,
                      const StopContext& context) {
  if (outcome.too_much_output) {
    result.message = "the kernel's process sent more than the sandbox lets it (huge output?) "
                     "and was stopped";
    result.trace.diagnostics.push_back(whole_run(DiagnosticKind::kernel_fault, result.message));
    return RunStatus::crashed;
  }
  const Frame* summary_frame = nullptr;
  const Frame* stop_frame = nullptr;  // the last (most complete) one
  const Frame* steps_frame = nullptr;
  for (const Frame& frame : outcome.frames) {
    if (frame.tag == FrameTag::summary) summary_frame = &frame;
    if (frame.tag == FrameTag::steps) steps_frame = &frame;
    if (frame.tag == FrameTag::stopped && frame.payload.size() == sizeof(StopReport)) {
      stop_frame = &frame;
    }
  }
  if (summary_frame != nullptr) {
    if (const std::optional<RunSummary> summary = decode_summary(summary_frame->payload)) {
      result.message = summary->message;
      result.steps = summary->steps;
      add_summary(result.trace, *summary);
      if (steps_frame != nullptr) {
        std::optional<StepLog> steps = StepLog::deserialize(steps_frame->payload);
        assert(steps && "the child's steps read back");
        if (steps) result.trace.steps = std::move(*steps);
      }
      if (summary->status == LaunchStatus::time_limit) {
        // The launch stopped itself at --timeout, its findings kept (kernel_child.cpp).
        std::ostringstream limit;
        limit << "kernel did not finish within " << context.timeout_seconds << " s ("
              << summary->steps << (summary->steps == 1 ? " warp-level step" : " warp-level steps")
              << " ran): ";
        result.message = limit.str() + result.message;
        for (Diagnostic& d : result.trace.diagnostics) {
          if (d.kind == DiagnosticKind::timeout) d.message = limit.str() + d.message;
        }
        result.cpu_seconds_at_limit = summary->cpu_seconds_at_limit;
        result.wait_seconds_at_limit = summary->wait_seconds_at_limit;
      }
      add_stop_diagnostic(result.trace, summary->status, result.message);
      return run_status(summary->status);
    }
  }
  if (outcome.timed_out && !outcome.launched) {
    std::ostringstream text;
    text << "the kernel's process did not reach the launch within " << kStartAllowanceSeconds
         << " s: loading the kernel object (its static initialisers) did not end";
    result.message = text.str();
    result.trace.diagnostics.push_back(whole_run(DiagnosticKind::timeout, result.message));
    return RunStatus::timeout;
  }
  if (stop_frame != nullptr) {
    StopReport stop;
    std::memcpy(&stop, stop_frame->payload.data(), sizeof stop);
    result.trace.diagnostics.push_back(stop_diagnostic(stop, context, result.trace));
    result.message = result.trace.diagnostics.back().message;
    result.steps = stop.steps;
    return stop.signal == kTimeLimitSignal ? RunStatus::timeout : RunStatus::crashed;
  }
  result.message = outcome.timed_out ? "the kernel did not finish within the time limit and "
                                       "could not say where it was"
                                     : describe_wait_status(outcome.wait_status);
  const DiagnosticKind kind = outcome.timed_out ? DiagnosticKind::timeout : DiagnosticKind::kernel_fault;
  result.trace.diagnostics.push_back(whole_run(kind, result.message));
  return outcome.timed_out ? RunStatus::timeout : RunStatus::crashed;
}

std::vector<OutputBuffer> buffer_bytes(const ArgumentBuffers& buffers) {
  std::vector<OutputBuffer> bytes;
  for (const GuardedBuffer& buffer : buffers.buffers()) {
    const std::byte* data = buffer.data;
    bytes.push_back(
        {buffer.arg, buffer.type, {data, data + buffer.count * element_size(buffer.type)},
         buffer.field});
  }
  return bytes;
}

// The kernels that a macro declares, seen in the preprocessed file; empty when it does not
// preprocess (the compile will say why).
std::vector<KernelInfo> macro_kernels(const std::string& file, const std::vector<KernelInfo>& written,
                                      int arch = 900,
                                      const std::vector<std::string>& user_flags = {},
                                      const Sandbox* sandbox = nullptr) {
  auto toolchain = find_toolchain();
  if (!toolchain) return {};
  toolchain->sandbox = sandbox;
  auto expanded = preprocess_for_kernel_scan(*toolchain, file, arch, user_flags);
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
Expected<KernelChoice> find_kernel(const std::string& source, const KernelFileRequest& request,
                                   int arch, const std::vector<std::string>& user_flags) {
  const Sandbox* sandbox = request.sandbox.active() ? &request.sandbox : nullptr;
  std::vector<KernelInfo> kernels = scan_kernels(source);
  auto kernel = resolve_kernel(kernels, request.kernel, request.file);
  if (kernel || kernel.error().message.rfind("unknown kernel", 0) != 0) return kernel;
  const std::vector<KernelInfo> more =
      macro_kernels(request.file, kernels, arch, user_flags, sandbox);
  if (more.empty()) return kernel;
  kernels.insert(kernels.end(), more.begin(), more.end());
  return resolve_kernel(kernels, request.kernel, request.file);
}

// `box` without the hidden folders that hold warpsim's own toolchain (a class folder that holds
// the build): the compile and the run need it, so it stays visible (README says so).
Sandbox without_toolchain(Sandbox box, const Toolchain& toolchain) {
  const auto holds = [](const std::string& folder, const std::string& path) {
    std::error_code error;
    const std::string root = fs::weakly_canonical(folder, error).string();
    const std::string inner = fs::weakly_canonical(path, error).string();
    return !root.empty() && (root == "/" || inner == root || inner.rfind(root + "/", 0) == 0);
  };
  std::erase_if(box.hidden, [&](const std::string& folder) {
    for (const std::string& path : {toolchain.library, toolchain.kernel_host, toolchain.shim_dir,
                                    toolchain.include_dir}) {
      if (holds(folder, path)) return true;
    }
    return std::any_of(toolchain.header_sources.begin(), toolchain.header_sources.end(),
                       [&](const std::string& path) { return holds(folder, path); });
  });
  return box;
}

}  // namespace

Expected<std::string> read_text_file(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fail(ErrorKind::file, "cannot read " + path + ": " + std::strerror(errno));
  std::string text;
  char chunk[65536];
  while (true) {
    const ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      close(fd);
      return fail(ErrorKind::file, "cannot read " + path + ": " + std::strerror(error));
    }
    if (n == 0) break;
    text.append(chunk, static_cast<std::size_t>(n));
  }
  close(fd);
  return Expected<std::string>(std::move(text));
}

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

namespace {

// The checks that `--check NAMES` turns on, as request fields; every check includes bounds.
template <class Request>
Expected<void> add_checks(std::string_view names, Request& request) {
  while (true) {
    const std::size_t comma = names.find(',');
    const std::string_view name = names.substr(0, comma);
    if (name == "races") {
      request.check_races = true;
    } else if (name == "uninit") {
      request.check_uninitialized_shared = true;
    } else if (name == "bounds") {
    } else if (name == "all") {
      request.check_races = request.check_uninitialized_shared = true;
    } else {
      return fail("--check '" + std::string(name) + "': give races, uninit, bounds or all");
    }
    request.check_bounds = true;
    if (comma == std::string_view::npos) return {};
    names.remove_prefix(comma + 1);
  }
}

}  // namespace

Expected<void> add_memory_checks(std::string_view names, KernelFileRequest& request) {
  return add_checks(names, request);
}

Expected<void> add_memory_checks(std::string_view names, ProgramRequest& request) {
  return add_checks(names, request);
}

int exit_status(RunStatus status) {
  if (status == RunStatus::completed) return kExitRan;
  return status == RunStatus::bad_input ? kExitBadInput : kExitKernelFailed;
}

bool is_memory_finding(DiagnosticKind kind) {
  return kind == DiagnosticKind::data_race || kind == DiagnosticKind::uninitialized_shared_read ||
         kind == DiagnosticKind::uninitialized_global_read ||
         kind == DiagnosticKind::uninitialized_local_stored || kind == DiagnosticKind::out_of_bounds;
}

int KernelFileResult::exit_status() const {
  const bool found = std::any_of(trace.diagnostics.begin(), trace.diagnostics.end(),
                                 [](const Diagnostic& d) { return is_memory_finding(d.kind); });
  return status == RunStatus::completed && found ? kExitFindings : runner::exit_status(status);
}

std::uint64_t OutputBuffer::element(std::uint64_t index) const {
  const std::size_t size = element_size(type);
  std::uint64_t bits = 0;
  std::memcpy(&bits, bytes.data() + index * size, size);
  return bits;
}

const OutputBuffer& KernelFileResult::buffer_of(std::size_t arg, ElementType type,
                                                std::int32_t field) const {
  const std::string which = field < 0 ? "parameter " + std::to_string(arg)
                                      : "field " + std::to_string(field) + " of parameter " +
                                            std::to_string(arg);
  for (const OutputBuffer& buffer : buffers) {
    if (buffer.arg != arg || buffer.field != field) continue;
    if (buffer.type == type) return buffer;
    throw std::invalid_argument(which + " of '" + kernel + "' holds " +
                                std::string(to_string(buffer.type)) + ", not " +
                                std::string(to_string(type)));
  }
  throw std::invalid_argument(which + " of '" + kernel + "' is not a buffer" +
                              (status == RunStatus::bad_input ? " (the run never started)" : ""));
}

Expected<std::vector<KernelListing>> list_kernels(const std::string& file) {
  auto source = read_text_file(file);
  if (!source) return source.error();
  std::vector<KernelListing> listing;
  const std::vector<KernelInfo> written = scan_kernels(*source);
  for (const KernelInfo& kernel : written) listing.push_back({kernel, false});
  for (const KernelInfo& kernel : macro_kernels(file, written)) listing.push_back({kernel, true});
  return listing;
}

namespace {

// What a run needs of the kernel file before its launch: resolved, compiled, the sandbox of its
// launches. The same for every launch of the file with the same compile (KernelFileRunner).
struct PreparedKernel {
  std::string name;        // KernelFileResult::kernel
  std::string expression;  // KernelFileResult::kernel_expression
  std::string absolute;    // the file, absolute
  std::vector<std::string> warnings;
  CompiledKernel compiled;
  std::string kernel_host;
  std::vector<std::string> readable;  // inside the sandbox's hidden folders: what the launch reads
  std::optional<Sandbox> run_box;     // the sandbox of the launch: the kernel cache hidden too
};

// Everything of a request that the preparation depends on: requests with the same key share it.
std::string preparation_key(const KernelFileRequest& r) {
  ContentHash key;
  key.add(r.file).add(r.kernel).add(r.arch).add(r.any_check() ? "checked" : "plain");
  key.add(r.color_compiler_output ? "color" : "plain");
  for (const std::string& dir : r.include_dirs) key.add("I").add(dir);
  for (const std::string& define : r.defines) key.add("D").add(define);
  const Sandbox& box = r.sandbox;
  key.add(to_string(box.isolation)).add(box.bwrap).add(box.syscall_filter ? "filter" : "-");
  key.add(box.scratch);
  for (const std::string& h : box.hidden) key.add("hidden").add(h);
  for (const std::string& v : box.visible) key.add("visible").add(v);
  for (const std::uint64_t limit : {box.limits.cpu_seconds, box.limits.memory_bytes,
                                    box.limits.processes, box.limits.file_bytes,
                                    box.limits.output_bytes}) {
    key.add(std::to_string(limit));
  }
  return key.hex();
}

}  // namespace

// Runs of one file in one serving host (host_session.hpp), the file prepared once.
struct KernelFileRunner::State {
  std::string key;  // preparation_key of `prepared`
  std::optional<PreparedKernel> prepared;
  std::unique_ptr<HostSession> host;
  std::size_t ended_hosts_starts = 0;  // the starts of hosts replaced by another file's
};

KernelFileRunner::KernelFileRunner() : state_(std::make_unique<State>()) {}
KernelFileRunner::~KernelFileRunner() = default;
KernelFileRunner::KernelFileRunner(KernelFileRunner&&) noexcept = default;
KernelFileRunner& KernelFileRunner::operator=(KernelFileRunner&&) noexcept = default;

namespace {

// run_kernel_file, and KernelFileRunner::run when `state` is given: the kernel file prepared (or
// as `state` has it prepared for the same key) and launched (in `state`'s host).
KernelFileResult run_request(const KernelFileRequest& request, KernelFileRunner::State* state);

}  // namespace

KernelFileResult KernelFileRunner::run(const KernelFileRequest& request) {
  return run_request(request, state_.get());
}

std::size_t KernelFileRunner::hosts_started() const {
  return state_->ended_hosts_starts + (state_->host ? state_->host->starts() : 0);
}

KernelFileResult run_kernel_file(const KernelFileRequest& request) {
  return run_request(request, nullptr);
}

namespace {

KernelFileResult run_request(const KernelFileRequest& request, KernelFileRunner::State* state) {
  KernelFileResult result;
  result.file = request.file;
  result.grid = request.grid;
  result.block = request.block;
  result.trace.grid = request.grid;
  result.trace.block = request.block;
  auto bad_input = [&](std::string message, std::string details = {}) {
    result.status = RunStatus::bad_input;
    result.message = std::move(message);
    result.details = std::move(details);
    return std::move(result);
  };
  std::string key;
  const PreparedKernel* ready = nullptr;  // prepared for this request already
  if (state != nullptr) {
    key = preparation_key(request);
    if (state->prepared && state->key == key) ready = &*state->prepared;
  }
  // The preparation's first part: the file read, its kernel resolved.
  std::optional<PreparedKernel> made;
  std::string source;
  std::vector<std::string> user_flags;
  KernelChoice choice;
  int arch_number = 0;
  if (ready == nullptr) {
    const auto arch = cuda_arch_number(request.arch);
    if (!arch) return bad_input(arch.error().message);
    arch_number = *arch;
    const Sandbox* sandbox = request.sandbox.active() ? &request.sandbox : nullptr;
    if (sandbox != nullptr && !sandbox->can_read(request.file)) {
      return bad_input(request.file + " lies (or links) where its sandbox hides files: refused");
    }
    auto text = read_text_file(request.file);
    if (!text) return bad_input(text.error().message);
    source = std::move(*text);
    auto flags = user_compiler_flags(request.include_dirs, request.defines);
    if (!flags) return bad_input(flags.error().message);
    user_flags = std::move(*flags);
    for (std::string& flag : source_flags(source)) user_flags.push_back(std::move(flag));
    const auto kernel = find_kernel(source, request, *arch, user_flags);
    if (!kernel) return bad_input(kernel.error().message);
    choice = *kernel;
    made.emplace();
    made->name = kernel->name;
    made->expression = kernel->expression;
    made->absolute = fs::absolute(request.file).lexically_normal().string();
    result.kernel = kernel->name;
    result.kernel_expression = kernel->expression;
  } else {
    result.kernel = ready->name;
    result.kernel_expression = ready->expression;
  }
  if (const Expected<void> shape = check_launch_shape(request.grid, request.block); !shape) {
    return bad_input(shape.error().message);
  }
  auto buffers = ArgumentBuffers::create(request.args);
  if (!buffers) return bad_input(buffers.error().message);
  // The child writes into the shared buffers: a GPU run must start from the bytes as they are now.
  if (request.keep_initial_buffers) result.initial_buffers = buffer_bytes(*buffers);

  if (ready == nullptr) {
    // The preparation's second part: the compile (or the cache's object).
    auto toolchain = find_toolchain();
    if (!toolchain) return bad_input(toolchain.error().message);
    const Sandbox* sandbox = request.sandbox.active() ? &request.sandbox : nullptr;
    std::optional<Sandbox> compile_box;
    if (sandbox != nullptr) {
      compile_box = without_toolchain(*sandbox, *toolchain);
      sandbox = &*compile_box;
    }
    toolchain->sandbox = sandbox;
    UserSources sources = user_sources(*toolchain, source, made->absolute, user_flags);
    const std::string prepared = prepare_source(sources.main, made->absolute, choice);
    const std::string kernel_name = choice.name.substr(0, choice.name.find('<'));
    auto compiled = compile_kernel(
        *toolchain, prepared,
        {fs::path(made->absolute).parent_path().string(), arch_number,
         request.color_compiler_output, made->absolute, kernel_name, user_flags,
         request.any_check(), CompileOutput::shared_object, false, false,
         std::move(sources.headers)});
    if (!compiled) {
      std::string output = compiled.error().message;
      if (!output.empty() && output.back() != '\n') output += "\n";
      if (const std::string hint = unsupported_library_hint(output); !hint.empty())
        output += hint + "\n";
      if (output.find("<warpsim-generated>") != std::string::npos) {
        output += "warpsim: the error is in warpsim's launch code for '" + choice.name +
                  "': is the kernel overloaded, or is a parameter of a type --arg cannot give?\n";
      }
      return bad_input(request.file + " did not compile", std::move(output));
    }
    made->compiled = std::move(*compiled);
    made->warnings = made->compiled.warnings;
    made->kernel_host = toolchain->kernel_host;
    made->readable = {made->compiled.shared_object, toolchain->kernel_host,
                      fs::path(toolchain->library).parent_path().string()};
    if (sandbox != nullptr) {
      made->run_box = *sandbox;
      made->run_box->hidden.push_back(toolchain->cache_dir);
    }
    if (state != nullptr) {
      if (state->key != key && state->host) {  // a host for another kernel object
        state->ended_hosts_starts += state->host->starts();
        state->host.reset();
      }
      state->key = key;
      state->prepared = std::move(made);
      ready = &*state->prepared;
    } else {
      ready = &*made;
    }
  }
  result.warnings = ready->warnings;

  LaunchOptions launch;
  launch.grid = request.grid;
  launch.block = request.block;
  launch.dynamic_shared_bytes = request.shared_bytes;
  launch.policy = request.policy;
  launch.seed = request.seed;
  launch.order_seed = request.order_seed;
  launch.max_steps = request.max_steps;
  launch.record_steps = request.record_steps;
  launch.never_set_fill = ready->compiled.never_set_fill;
  launch.checks.races = request.check_races;
  launch.checks.uninitialized_shared = request.check_uninitialized_shared;
  launch.checks.uninitialized_global = request.check_uninitialized_shared;  // `:undefined` buffers
  launch.checks.bounds = request.check_bounds;
  // Spinning lanes yield to the others (forward progress) for as long as the run may take: the
  // time limit ends a livelock, and its report names the lanes that spin.
  launch.spin_limit = std::numeric_limits<std::uint64_t>::max();
  JobMessage job{ready->compiled.shared_object, request.args, buffers->buffers(), launch,
                 request.record_steps};
  job.time_limit_seconds = request.timeout_seconds;
  const Sandbox* run_box = ready->run_box ? &*ready->run_box : nullptr;
  if (run_box != nullptr) {
    job.isolation = run_box->isolation;
    job.syscall_filter = run_box->syscall_filter;
    job.max_processes = run_box->limits.processes;
  }
  ChildOutcome outcome;
  if (state != nullptr) {
    if (!state->host) {
      state->host = std::make_unique<HostSession>(ready->kernel_host,
                                                  run_box ? *run_box : Sandbox{}, ready->readable);
    }
    outcome = state->host->run(job, *buffers, request.timeout_seconds);
  } else {
    outcome = run_in_child(ready->kernel_host, job, *buffers, request.timeout_seconds, run_box,
                           ready->readable);
  }
  if (!outcome.started) return bad_input(outcome.failure);
  for (const Frame& frame : outcome.frames) {
    if (frame.tag == FrameTag::bad_input) return bad_input(frame.payload);
  }
  const StopContext context{request.timeout_seconds, launch.stack_bytes,
                            launch.dynamic_shared_bytes, &*buffers,
                            [&compiled = ready->compiled] { return object_with_lines(compiled); },
                            ready->absolute, request.grid};
  result.status = add_outcome(result, outcome, context);
  if (outcome.timed_out) {
    result.cpu_seconds_at_limit = outcome.cpu_seconds_at_limit;
    result.wait_seconds_at_limit = outcome.wait_seconds_at_limit;
  }
  for (const BufferOverwrite& before : buffers->writes_before()) {
    result.trace.diagnostics.push_back(write_before_diagnostic(before));
  }
  result.trace.grid = request.grid;
  result.trace.block = request.block;
  result.buffers = buffer_bytes(*buffers);
  return result;
}

}  // namespace

}  // namespace warpsim::runner
