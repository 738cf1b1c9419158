// Where the `warpsim` command reaches the GPU: only in builds with warpsim::gpu.
#include <charconv>
#include <cstdio>
#include <string>

#include "commands.hpp"

#ifdef WARPSIM_HAVE_GPU
#include "cuda_driver.hpp"
#include "vectors_record.hpp"
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

}  // namespace

int gpu_run_unavailable() {
  auto device = gpu::probe_device();
  if (!device) {
    std::fprintf(stderr, "warpsim run: --gpu: %s\n", device.error().message.c_str());
  } else {
    std::fprintf(stderr,
                 "warpsim run: --gpu: running kernel files on the GPU (%s) is not "
                 "available yet\n",
                 device->name.c_str());
  }
  return kExitNoGpu;
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

int vectors_record_command(const Args&) {
  std::fprintf(stderr, "warpsim vectors record: this warpsim was built without CUDA support\n");
  return kExitNoGpu;
}

#endif

}  // namespace warpsim::cli
