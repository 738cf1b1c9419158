// Where the `warpsim` command reaches the GPU: only in builds with warpsim::gpu.
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <span>
#include <string>
#include <vector>

#include "commands.hpp"

#ifdef WARPSIM_HAVE_GPU
#include "cuda_driver.hpp"
#include "kernel_launch.hpp"
#include "vectors_record.hpp"
#include "warpsim/device_trace.hpp"
#endif

namespace warpsim::cli {

#ifdef WARPSIM_HAVE_GPU

namespace {

template <class T>
bool parse_number(const std::string& text, T& value) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return !text.empty() && ec == std::errc{} && ptr == end;
}

// The GPU's buffers after the launch, as run.md prints buffers: [{"arg":1,"type":"f32",
// "values":[...]}] (NaN and infinities as strings).
std::string outputs_json(const gpu::GpuRun& run) {
  std::string out = "[";
  for (const gpu::GpuBuffer& buffer : run.buffers) {
    const ValueType type = gpu::value_type_of(buffer.type);
    const std::size_t size = runner::element_size(buffer.type);
    if (out.size() > 1) out += ',';
    out += "{\"arg\":" + std::to_string(buffer.arg) + ",\"type\":\"" +
           std::string(runner::to_string(buffer.type)) + "\",\"values\":[";
    for (std::size_t at = 0; at + size <= buffer.bytes.size(); at += size) {
      std::uint64_t bits = 0;
      std::memcpy(&bits, buffer.bytes.data() + at, size);
      const std::string value = format_element(bits, type);
      if (at > 0) out += ',';
      out += value == "nan" || value == "inf" || value == "-inf" ? json_string(value) : value;
    }
    out += "]}";
  }
  return out + "]";
}

// The device's printf output as run.md's "printf" list: one {"text":...} per line.
std::string printf_json(const std::string& text) {
  std::string out = "[";
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    end = end == std::string::npos ? text.size() : end + 1;
    if (out.size() > 1) out += ',';
    out += "{\"text\":" + json_string(std::string_view(text).substr(start, end - start)) + "}";
    start = end;
  }
  return out + "]";
}

runner::GpuStageError stage_error(gpu::GpuErrorKind kind) {
  switch (kind) {
    case gpu::GpuErrorKind::no_device:
      return runner::GpuStageError::no_device;
    case gpu::GpuErrorKind::compile:
      return runner::GpuStageError::compile;
    case gpu::GpuErrorKind::invalid_argument:
      return runner::GpuStageError::invalid_argument;
    case gpu::GpuErrorKind::driver:
    case gpu::GpuErrorKind::file:
    case gpu::GpuErrorKind::internal:
      break;
  }
  return runner::GpuStageError::failed;
}

// The kernel file on the GPU, compared with the simulator's run of it.
runner::GpuStageResult run_gpu_stage(const GpuRunFlags& flags,
                                     const runner::GpuStageInput& input) {
  runner::GpuStageResult result;
  gpu::GpuRunRequest request;
  request.source = std::string(input.source);
  request.path = input.file;
  request.kernel_expression = input.kernel.expression;
  request.kernel_name = input.kernel.name;
  if (input.args != nullptr) request.args = *input.args;
  request.initial.resize(request.args.size());
  for (const runner::OutputBuffer& buffer : input.initial) {
    if (buffer.arg < request.initial.size()) request.initial[buffer.arg] = buffer.bytes;
  }
  request.grid = input.grid;
  request.block = input.block;
  request.dynamic_shared_bytes = input.shared_bytes;
  request.trace.enabled = flags.trace_blocks > 0;
  request.trace.blocks = flags.trace_blocks;
  request.trace.capacity = flags.trace_calls;
  request.timeout = std::chrono::milliseconds(
      static_cast<std::int64_t>(std::ceil(input.timeout_seconds * 1000.0)));

  auto run = gpu::run_on_gpu(request);
  if (!run) {
    result.error = stage_error(run.error().kind);
    result.message = run.error().message;
    result.details = run.error().details;
    return result;
  }

  std::vector<BufferData> sim_buffers;
  for (const runner::OutputBuffer& buffer : input.final_buffers) {
    sim_buffers.push_back({buffer.arg, gpu::value_type_of(buffer.type), buffer.bytes});
  }
  const GpuComparison comparison =
      gpu::compare_run(*run, input.trace, sim_buffers, flags.tolerance_ulps);
  std::string json = gpu_comparison_json(comparison);
  json.pop_back();  // the closing brace: the GPU's own outputs follow
  json += ",\"outputs\":" + outputs_json(*run) + ",\"printf\":" + printf_json(run->printf_output);
  if (!run->compile_log.empty()) json += ",\"compile_log\":" + json_string(run->compile_log);
  json += '}';
  result.json = std::move(json);
  result.text = format_gpu_comparison_text(comparison);
  result.printf_output = run->printf_output;
  if (!run->compile_log.empty()) {
    result.notes.push_back("NVRTC: " + run->compile_log);
    while (!result.notes.back().empty() && result.notes.back().back() == '\n') {
      result.notes.back().pop_back();
    }
  }
  if (!flags.trace_out.empty()) {
    if (!run->trace) {
      result.notes.push_back("no device trace written to " + flags.trace_out + ": " +
                             (run->trace_note.empty() ? "none was recorded" : run->trace_note));
    } else {
      std::ofstream file(flags.trace_out, std::ios::binary | std::ios::trunc);
      if (file) write_device_trace_json(file, *run->trace);
      if (!file.flush()) {
        result.error = runner::GpuStageError::failed;
        result.message = "cannot write --gpu-trace-out " + flags.trace_out;
      }
    }
  }
  return result;
}

}  // namespace

int gpu_run_unavailable() {
  auto device = gpu::probe_device();
  if (!device) {
    std::fprintf(stderr, "warpsim run: --gpu: %s\n", device.error().message.c_str());
  } else {
    std::fprintf(stderr, "warpsim run: --gpu: the GPU (%s) cannot be used\n",
                 device->name.c_str());
  }
  return kExitNoGpu;
}

int attach_gpu_stage(const GpuRunFlags& flags, runner::RunOptions& options) {
  auto device = gpu::probe_device();
  if (!device) {
    std::fprintf(stderr, "warpsim run: --gpu: %s\n", device.error().message.c_str());
    return kExitNoGpu;
  }
  options.gpu_stage = [flags](const runner::GpuStageInput& input) {
    return run_gpu_stage(flags, input);
  };
  return 0;
}

int vectors_record_command(const Args& args) {
  gpu::RecordOptions options;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& name = args[i];
    if (i + 1 >= args.size()) {
      std::fprintf(stderr, "warpsim vectors record: %s needs a value\n", name.c_str());
      return kExitUsage;
    }
    const std::string& value = args[++i];
    bool ok = true;
    if (name == "--out") {
      options.out = value;
    } else if (name == "--seed") {
      ok = parse_number(value, options.seed);
    } else if (name == "--cases") {
      ok = parse_number(value, options.cases);
    } else if (name == "--device") {
      ok = parse_number(value, options.device);
    } else {
      std::fprintf(stderr, "warpsim vectors record: unknown option '%s'\n", name.c_str());
      return kExitUsage;
    }
    if (!ok) {
      std::fprintf(stderr, "warpsim vectors record: %s '%s' is not a number\n", name.c_str(),
                   value.c_str());
      return kExitUsage;
    }
  }
  if (options.out.empty()) {
    std::fprintf(stderr, "warpsim vectors record: --out FILE.jsonl[.gz] is required\n");
    return kExitUsage;
  }
  options.run.progress = [](const std::string& line) {
    std::fprintf(stderr, "%s\n", line.c_str());
  };
  auto summary = gpu::record_vectors(options);
  if (!summary) {
    std::fprintf(stderr, "warpsim vectors record: %s\n", to_string(summary.error()).c_str());
    return summary.error().kind == gpu::GpuErrorKind::no_device ? kExitNoGpu : 1;
  }
  std::printf("%s: %zu cases, %zu lane results from %s\n", summary->out.c_str(),
              static_cast<std::size_t>(summary->header.cases), summary->stats.lane_results,
              summary->header.device.c_str());
  return 0;
}

#else

int gpu_run_unavailable() {
  std::fprintf(stderr, "warpsim run: --gpu: this warpsim was built without CUDA support\n");
  return kExitNoGpu;
}

int attach_gpu_stage(const GpuRunFlags&, runner::RunOptions&) { return gpu_run_unavailable(); }

int vectors_record_command(const Args&) {
  std::fprintf(stderr, "warpsim vectors record: this warpsim was built without CUDA support\n");
  return kExitNoGpu;
}

#endif

}  // namespace warpsim::cli
