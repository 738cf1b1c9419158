#include "kernel_launch.hpp"

#include <cmath>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "device_std_headers.hpp"
#include "device_trace_prelude.hpp"

namespace warpsim::gpu {
namespace {

Error invalid(std::string message) { return Error{ErrorKind::bad_input, std::move(message), {}}; }

std::string first_line(std::string_view text) {
  const std::size_t end = text.find('\n');
  return std::string(text.substr(0, end));
}

// Checks the kernel NVRTC built against the arguments, where the driver can tell parameter sizes.
Expected<void> check_parameter_sizes(Gpu& gpu, const Kernel& kernel, const GpuRunRequest& request) {
  auto sizes = gpu.parameter_sizes(kernel);
  if (!sizes) return sizes.error();
  if (!*sizes) return {};
  const std::vector<std::size_t>& got = **sizes;
  const std::string name = "'" + request.kernel_name + "'";
  if (got.size() != request.args.size()) {
    return invalid("on the GPU, kernel " + name + " takes " + std::to_string(got.size()) +
                   " parameter(s) but " + std::to_string(request.args.size()) +
                   " --arg were given");
  }
  for (std::size_t i = 0; i < got.size(); ++i) {
    const std::size_t want = runner::arg_value_size(request.args[i]);
    if (got[i] != want) {
      return invalid("on the GPU, parameter " + std::to_string(i) + " of " + name + " (--arg " +
                     std::to_string(i + 1) + ") has " + std::to_string(got[i]) + " bytes but " +
                     request.args[i].type_text() + " gives " + std::to_string(want));
    }
  }
  return {};
}

// Where the recorder writes, on the device.
struct TraceBuffers {
  DeviceBuffer calls, counts;
  std::uint64_t traced_blocks = 0;
  std::uint64_t threads = 0;
};

Expected<TraceBuffers> start_trace(Gpu& gpu, const Module& module, const DeviceProgram& program,
                                   const GpuRunRequest& request) {
  TraceBuffers t;
  t.traced_blocks = std::min<std::uint64_t>(request.trace.blocks, request.grid.count());
  const std::uint64_t threads_per_block = request.block.count();
  t.threads = t.traced_blocks * threads_per_block;
  auto calls = gpu.allocate(t.threads * request.trace.capacity * sizeof(DeviceCallRecord));
  if (!calls) return calls.error();
  auto counts = gpu.allocate(t.threads * sizeof(std::uint64_t));
  if (!counts) return counts.error();
  const std::vector<std::uint64_t> zeros(t.threads, 0);
  if (auto r = counts->upload(std::as_bytes(std::span(zeros))); !r) return r.error();
  t.calls = std::move(*calls);
  t.counts = std::move(*counts);

  auto state_variable = module.global(program.trace_symbol);
  if (!state_variable) return state_variable.error();
  DeviceTraceState state;
  state.calls = t.calls.address();
  state.counts = t.counts.address();
  state.traced_blocks = t.traced_blocks;
  state.threads_per_block = static_cast<std::uint32_t>(threads_per_block);
  state.capacity = request.trace.capacity;
  if (auto r = gpu.write_global(*state_variable, std::as_bytes(std::span(&state, 1))); !r)
    return r.error();
  return t;
}

Expected<DeviceTrace> finish_trace(const TraceBuffers& t, const GpuRunRequest& request,
                                   const GpuDevice& device) {
  std::vector<std::uint64_t> counts(t.threads);
  if (auto r = t.counts.download(std::as_writable_bytes(std::span(counts))); !r) return r.error();
  std::vector<DeviceCallRecord> records(t.threads * request.trace.capacity);
  if (auto r = t.calls.download(std::as_writable_bytes(std::span(records))); !r) return r.error();
  auto trace = decode_device_trace(counts, records, request.trace.capacity, request.grid,
                                   request.block, t.traced_blocks);
  if (!trace) return trace.error();
  trace->device = device.name;
  trace->sm = device.sm;
  trace->driver = device.driver;
  trace->driver_release = device.driver_release;
  trace->date = device.date;
  return trace;
}

}  // namespace

ValueType value_type_of(runner::ElementType type) { return runner::shown_element(type, 0).type; }

Expected<CompileOptions> compile_options(const GpuRunRequest& request, int sm, bool traced) {
  auto user_flags = runner::user_compiler_flags(request.include_dirs, request.defines);
  if (!user_flags) return user_flags.error();
  CompileOptions options;
  options.sm = sm;
  options.options.push_back("--std=c++17");
  std::error_code ignored;
  std::filesystem::path folder = std::filesystem::absolute(request.path, ignored).parent_path();
  if (folder.empty()) folder = ".";
  options.options.push_back("-I" + folder.string());
  for (std::string& flag : *user_flags) options.options.push_back(std::move(flag));
  for (const SourceHeader& header : device_std_headers()) options.headers.push_back(header);
  options.name_expressions.push_back(request.kernel_expression);
  if (traced) options.name_expressions.push_back(kTraceStateExpression);
  return options;
}

std::vector<std::vector<std::byte>> kernel_param_bytes(const std::vector<runner::ArgSpec>& args,
                                                       std::span<const DevicePtr> buffer_addresses) {
  std::vector<std::vector<std::byte>> params(args.size());
  std::vector<std::vector<DevicePtr>> field_addresses(args.size());
  std::vector<DevicePtr> arg_address(args.size(), 0);
  const std::vector<runner::BufferSlot> slots = runner::buffer_slots(args);
  for (std::size_t k = 0; k < slots.size() && k < buffer_addresses.size(); ++k) {
    const runner::BufferSlot& slot = slots[k];
    if (slot.field < 0) {
      arg_address[slot.arg] = buffer_addresses[k];
    } else {
      std::vector<DevicePtr>& fields = field_addresses[slot.arg];
      fields.resize(args[slot.arg].fields.size(), 0);
      fields[static_cast<std::size_t>(slot.field)] = buffer_addresses[k];
    }
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    const runner::ArgSpec& arg = args[i];
    if (arg.is_struct) {
      params[i] = runner::pack_struct(arg, field_addresses[i]);
      continue;
    }
    const std::uint64_t bits = arg.is_buffer ? arg_address[i] : arg.scalar_bits;
    params[i].resize(runner::arg_value_size(arg));
    std::memcpy(params[i].data(), &bits, params[i].size());  // little-endian, as CUDA's
  }
  return params;
}

std::vector<std::span<const std::byte>> slot_initial_bytes(const GpuRunRequest& request) {
  std::vector<std::span<const std::byte>> out;
  std::size_t next_field = 0;
  for (const runner::BufferSlot& slot : runner::buffer_slots(request.args)) {
    if (slot.field < 0) {
      out.push_back(slot.arg < request.initial.size() ? request.initial[slot.arg]
                                                      : std::span<const std::byte>{});
    } else {
      out.push_back(next_field < request.field_initial.size() ? request.field_initial[next_field]
                                                              : std::span<const std::byte>{});
      ++next_field;
    }
  }
  return out;
}

Expected<void> check_request(const GpuRunRequest& request) {
  if (request.kernel_expression.empty()) return fail("no kernel named");
  if (Expected<void> shape = check_launch_shape(request.grid, request.block); !shape) return shape;
  if (!request.params.empty()) {
    KernelDescriptor descriptor;
    descriptor.name = request.kernel_name.c_str();
    descriptor.param_count = static_cast<std::uint32_t>(request.params.size());
    descriptor.params = request.params.data();
    if (Expected<void> fits = runner::check_args_against_kernel(request.args, descriptor); !fits) {
      return fits;
    }
  }
  if (request.initial.size() != request.args.size()) {
    return fail(std::to_string(request.args.size()) + " --arg but initial contents for " +
                std::to_string(request.initial.size()));
  }
  for (std::size_t i = 0; i < request.args.size(); ++i) {
    const runner::ArgSpec& arg = request.args[i];
    const std::uint64_t want = arg.is_buffer ? arg.count * runner::element_size(arg.type) : 0;
    if (request.initial[i].size() != want) {
      return fail("--arg " + std::to_string(i + 1) + " (" + arg.type_text() + ") needs " +
                  std::to_string(want) + " initial bytes, " +
                  std::to_string(request.initial[i].size()) + " given");
    }
  }
  const std::vector<runner::BufferSlot> slots = runner::buffer_slots(request.args);
  std::vector<std::span<const std::byte>> fields;
  for (const runner::BufferSlot& slot : slots) {
    if (slot.field >= 0) fields.push_back({});
  }
  if (request.field_initial.size() != fields.size()) {
    return fail(std::to_string(fields.size()) + " buffer fields of struct arguments but initial " +
                "contents for " + std::to_string(request.field_initial.size()));
  }
  const std::vector<std::span<const std::byte>> initial = slot_initial_bytes(request);
  for (std::size_t k = 0; k < slots.size(); ++k) {
    const runner::ArgSpec& spec = *slots[k].spec;
    const std::uint64_t want = spec.count * runner::element_size(spec.type);
    if (initial[k].size() != want) {
      return fail(runner::buffer_label(slots[k].arg, slots[k].field) + " (" + spec.type_text() +
                  ") needs " + std::to_string(want) + " initial bytes, " +
                  std::to_string(initial[k].size()) + " given");
    }
  }
  if (auto flags = runner::user_compiler_flags(request.include_dirs, request.defines); !flags) {
    return fail(flags.error().message);
  }
  if (request.trace.enabled && (request.trace.blocks == 0 || request.trace.capacity == 0)) {
    return fail("a device trace needs at least one block and a capacity of at least one call");
  }
  return {};
}

Expected<DeviceProgram> compile_for_device(const GpuRunRequest& request, int sm) {
  DeviceProgram out;
  if (request.trace.enabled) {
    const bool groups =
        uses_cooperative_groups(request.source, request.path, request.include_dirs);
    auto traced_options = compile_options(request, sm, true);
    if (!traced_options) return traced_options.error();
    auto traced = nvrtc_compile(traced_source(request.source, request.path, groups), request.path,
                                *traced_options);
    if (traced) {
      out.program = std::move(*traced);
      out.kernel_symbol = *out.program.lowered_name(request.kernel_expression);
      out.trace_symbol = *out.program.lowered_name(kTraceStateExpression);
      return out;
    }
    // The user's file as written decides: its own errors are the ones to show.
    auto plain_options = compile_options(request, sm, false);
    if (!plain_options) return plain_options.error();
    auto plain = nvrtc_compile(request.source, request.path, *plain_options);
    if (!plain) return plain.error();
    out.program = std::move(*plain);
    out.kernel_symbol = *out.program.lowered_name(request.kernel_expression);
    out.trace_note =
        "the device-side recorder does not compile with this file (a warpsim limitation): " +
        first_line(traced.error().details.empty() ? traced.error().message
                                                  : traced.error().details);
    return out;
  }
  auto plain_options = compile_options(request, sm, false);
  if (!plain_options) return plain_options.error();
  auto plain = nvrtc_compile(request.source, request.path, *plain_options);
  if (!plain) return plain.error();
  out.program = std::move(*plain);
  out.kernel_symbol = *out.program.lowered_name(request.kernel_expression);
  return out;
}

Expected<DeviceTrace> decode_device_trace(std::span<const std::uint64_t> counts,
                                          std::span<const DeviceCallRecord> records,
                                          std::uint32_t capacity, Dim3 grid, Dim3 block,
                                          std::uint64_t traced_blocks) {
  const std::uint64_t threads_per_block = block.count();
  if (counts.size() != traced_blocks * threads_per_block ||
      records.size() != counts.size() * capacity) {
    return Error{ErrorKind::internal,
                 "device trace: " + std::to_string(counts.size()) + " counters and " +
                     std::to_string(records.size()) + " records do not fit " +
                     std::to_string(traced_blocks) + " blocks of " +
                     std::to_string(threads_per_block) + " threads",
                 {}};
  }
  DeviceTrace trace;
  trace.grid = grid;
  trace.block = block;
  trace.traced_blocks = traced_blocks;
  trace.capacity = capacity;
  trace.threads.reserve(counts.size());
  for (std::size_t slot = 0; slot < counts.size(); ++slot) {
    DeviceThreadCalls thread;
    thread.block = slot / threads_per_block;
    thread.thread = static_cast<std::uint32_t>(slot % threads_per_block);
    const std::uint64_t recorded = std::min<std::uint64_t>(counts[slot], capacity);
    thread.dropped = counts[slot] - recorded;
    trace.dropped += thread.dropped;
    thread.calls.reserve(recorded);
    for (std::uint64_t k = 0; k < recorded; ++k) {
      const DeviceCallRecord& r = records[slot * capacity + k];
      if (r.op >= kOpCount || r.type > static_cast<std::uint8_t>(ValueType::bf16x2) || r.pred > 1) {
        return Error{ErrorKind::internal,
                     "device trace: record " + std::to_string(k) + " of block " +
                         std::to_string(thread.block) + " thread " + std::to_string(thread.thread) +
                         " is corrupt (op " + std::to_string(r.op) + ", type " +
                         std::to_string(r.type) + ")",
                     {}};
      }
      DeviceCall c;
      c.op = static_cast<Op>(r.op);
      c.type = static_cast<ValueType>(r.type);
      c.mask = r.mask;
      c.input = r.input;
      c.output = r.output;
      c.arg = r.arg;
      c.width = r.width;
      c.line = r.line;
      c.pred = r.pred != 0;
      thread.calls.push_back(c);
    }
    trace.threads.push_back(std::move(thread));
  }
  return trace;
}

std::string driver_release_from(std::string_view text) {
  // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.65.06  Sun Jul 27 06:54:38 UTC 2025"
  std::istringstream first(first_line(text));
  for (std::string word; first >> word;) {
    const bool version_like =
        word.find('.') != std::string::npos &&
        std::all_of(word.begin(), word.end(),
                    [](char c) { return (c >= '0' && c <= '9') || c == '.'; }) &&
        word.front() != '.' && word.back() != '.';
    if (version_like) return word;
  }
  return {};
}

std::string driver_release() {
  std::ifstream in("/proc/driver/nvidia/version");
  if (!in) return {};
  std::ostringstream text;
  text << in.rdbuf();
  return driver_release_from(text.str());
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

namespace {

// Device printf output: the driver writes it to the process's stdout when work completes, where it
// would break `run --json`. While alive, fd 1 goes to a temporary file; text() gives it back.
class StdoutCapture {
 public:
  StdoutCapture() {
    std::fflush(stdout);
    file_ = std::tmpfile();
    saved_ = file_ != nullptr ? ::dup(STDOUT_FILENO) : -1;
    if (saved_ < 0 || ::dup2(::fileno(file_), STDOUT_FILENO) < 0) restore();
  }
  StdoutCapture(const StdoutCapture&) = delete;
  StdoutCapture& operator=(const StdoutCapture&) = delete;
  ~StdoutCapture() {
    restore();
    if (file_ != nullptr) std::fclose(file_);
  }

  // Restores stdout and returns what was written meanwhile.
  std::string text() {
    restore();
    std::string out;
    if (file_ == nullptr) return out;
    std::rewind(file_);
    char chunk[4096];
    for (std::size_t n; (n = std::fread(chunk, 1, sizeof chunk, file_)) > 0;) out.append(chunk, n);
    return out;
  }

 private:
  void restore() {
    if (saved_ < 0) return;
    std::fflush(stdout);
    ::dup2(saved_, STDOUT_FILENO);
    ::close(saved_);
    saved_ = -1;
  }
  std::FILE* file_ = nullptr;
  int saved_ = -1;
};

// One launch of `program` with the request's arguments; fills run.buffers (and run.trace).
// `refused` is set when the driver would not start the kernel (nothing ran, buffers untouched).
Expected<void> execute(Gpu& gpu, const DeviceProgram& program, const GpuRunRequest& request,
                       GpuRun& run, bool& refused) {
  refused = false;
  auto module = gpu.load_module(program.program.cubin);
  if (!module) return module.error();
  auto kernel = module->kernel(program.kernel_symbol);
  if (!kernel) return kernel.error();
  if (auto r = check_parameter_sizes(gpu, *kernel, request); !r) return r;
  if (request.dynamic_shared_bytes > 0) {
    if (auto r = gpu.allow_dynamic_shared(*kernel, request.dynamic_shared_bytes); !r) return r;
  }

  // Buffers with the simulator's initial bytes; scalars by value (their bytes, little-endian);
  // structs laid out with their buffer fields' device addresses.
  const std::vector<runner::BufferSlot> slots = runner::buffer_slots(request.args);
  const std::vector<std::span<const std::byte>> initial = slot_initial_bytes(request);
  std::vector<DeviceBuffer> buffers;
  std::vector<DevicePtr> addresses;
  for (std::size_t k = 0; k < slots.size(); ++k) {
    auto buffer = gpu.allocate(initial[k].size());
    if (!buffer) return buffer.error();
    if (auto r = buffer->upload(initial[k]); !r) return r;
    addresses.push_back(buffer->address());
    buffers.push_back(std::move(*buffer));
  }
  std::vector<std::vector<std::byte>> values = kernel_param_bytes(request.args, addresses);
  std::vector<void*> params(values.size(), nullptr);
  for (std::size_t i = 0; i < values.size(); ++i) params[i] = values[i].data();
  std::optional<TraceBuffers> trace;
  if (!program.trace_symbol.empty()) {
    auto started = start_trace(gpu, *module, program, request);
    if (!started) return started.error();
    trace = std::move(*started);
  }

  LaunchShape shape;
  shape.grid_x = request.grid.x;
  shape.grid_y = request.grid.y;
  shape.grid_z = request.grid.z;
  shape.block_x = request.block.x;
  shape.block_y = request.block.y;
  shape.block_z = request.block.z;
  shape.shared_bytes = static_cast<unsigned>(request.dynamic_shared_bytes);
  StdoutCapture printf_output;
  if (auto r = gpu.launch(*kernel, shape, params); !r) {
    refused = true;
    return r;
  }
  if (auto r = gpu.synchronize(request.timeout); !r) return r;
  run.buffers.clear();
  for (std::size_t k = 0; k < slots.size(); ++k) {
    std::vector<std::byte> bytes(initial[k].size());
    if (auto r = buffers[k].download(bytes); !r) return r;
    runner::ShownBuffer shown = runner::shown_buffer(slots[k].spec->type, bytes);
    run.buffers.push_back(GpuBuffer{slots[k].arg, shown.type, std::move(shown.bytes), slots[k].field});
  }
  if (trace) {
    auto recorded = finish_trace(*trace, request, run.device);
    if (!recorded) return recorded.error();
    run.trace = std::move(*recorded);
  }
  run.printf_output = printf_output.text();
  return {};
}

}  // namespace

Expected<GpuRun> run_on_gpu(const GpuRunRequest& request) {
  if (Expected<void> valid = check_request(request); !valid) return valid.error();
  auto gpu = Gpu::open(request.device);
  if (!gpu) return gpu.error();

  GpuRun run;
  run.device = gpu_device(gpu->device());
  auto program = compile_for_device(request, run.device.sm);
  if (!program) return program.error();
  run.compile_log = program->program.log;
  run.trace_note = program->trace_note;
  bool refused = false;
  auto executed = execute(*gpu, *program, request, run, refused);
  if (!executed && refused && !program->trace_symbol.empty()) {
    // The recorder's extra registers can push a large block past the device's limits: run the
    // file as written instead, and say why there is no trace.
    GpuRunRequest plain_request = request;
    plain_request.trace.enabled = false;
    auto plain = compile_for_device(plain_request, run.device.sm);
    if (!plain) return plain.error();
    run.compile_log = plain->program.log;
    run.trace_note = "the traced kernel could not be launched (" + executed.error().message +
                     "); it ran without the device-side trace";
    executed = execute(*gpu, *plain, request, run, refused);
  }
  if (!executed) return executed.error();
  if (request.trace.enabled && !run.trace && run.trace_note.empty()) {
    run.trace_note = "the device-side recorder was not built";
  }
  return run;
}

GpuDevice gpu_device(const DeviceInfo& device) {
  GpuDevice d;
  d.name = device.name;
  d.sm = device.sm;
  d.driver = device.driver_version;
  d.driver_release = driver_release();
  d.cuda = nvrtc_version();
  d.date = utc_now();
  return d;
}

GpuRunRequest gpu_request_for(const runner::KernelFileRequest& request,
                              const runner::KernelFileResult& sim, std::string source) {
  GpuRunRequest g;
  g.source = std::move(source);
  g.path = request.file;
  g.kernel_expression = sim.kernel_expression;
  g.kernel_name = sim.kernel;
  g.args = request.args;
  g.initial.resize(g.args.size());
  for (const runner::BufferSlot& slot : runner::buffer_slots(g.args)) {
    std::span<const std::byte> bytes;
    for (const runner::OutputBuffer& buffer : sim.initial_buffers) {
      if (buffer.arg == slot.arg && buffer.field == slot.field) bytes = buffer.bytes;
    }
    if (slot.field < 0) {
      if (slot.arg < g.initial.size()) g.initial[slot.arg] = bytes;
    } else {
      g.field_initial.push_back(bytes);
    }
  }
  g.include_dirs = request.include_dirs;
  g.defines = request.defines;
  g.grid = request.grid;
  g.block = request.block;
  g.dynamic_shared_bytes = request.shared_bytes;
  g.timeout = std::chrono::milliseconds(
      static_cast<std::int64_t>(std::ceil(request.timeout_seconds * 1000.0)));
  return g;
}

}  // namespace warpsim::gpu
