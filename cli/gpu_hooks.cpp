// Where the `warpsim` command reaches the GPU: only in builds with warpsim::gpu.
#include "gpu_hooks.hpp"

#include <chrono>
#include <cstdio>

#ifdef WARPSIM_HAVE_GPU
#include "cuda_driver.hpp"
#include "kernel_launch.hpp"
#include "vectors_record.hpp"
#endif

namespace warpsim::cli {

#ifdef WARPSIM_HAVE_GPU

Expected<void> probe_gpu() {
  auto device = gpu::probe_device();
  if (!device) return device.error();
  return {};
}

Expected<GpuRun> run_on_gpu(const runner::KernelFileRequest& request,
                            const runner::KernelFileResult& sim, const GpuRunFlags& flags) {
  auto source = runner::read_text_file(request.file);
  if (!source) return source.error();
  gpu::GpuRunRequest g = gpu::gpu_request_for(request, sim, std::move(*source));
  g.trace.enabled = flags.trace_blocks > 0;
  g.trace.blocks = flags.trace_blocks;
  g.trace.capacity = flags.trace_calls;
  return gpu::run_on_gpu(g);
}

int vectors_record(const VectorRecordFlags& flags) {
  gpu::RecordOptions options;
  options.out = flags.out;
  options.seed = flags.seed;
  options.cases = flags.cases;
  options.device = flags.device;
  options.run.progress = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
  auto summary = gpu::record_vectors(options);
  if (!summary) {
    std::fprintf(stderr, "warpsim vectors record: %s\n", to_string(summary.error()).c_str());
    return summary.error().kind == ErrorKind::no_device ? 3 : 1;
  }
  std::printf("%s: %zu cases, %zu lane results from %s\n", summary->out.c_str(),
              static_cast<std::size_t>(summary->header.cases), summary->stats.lane_results,
              summary->header.device.c_str());
  return 0;
}

#else

namespace {
Error no_gpu_support() {
  return fail(ErrorKind::no_device, "this warpsim was built without CUDA support");
}
}  // namespace

Expected<void> probe_gpu() { return no_gpu_support(); }

Expected<GpuRun> run_on_gpu(const runner::KernelFileRequest&, const runner::KernelFileResult&,
                            const GpuRunFlags&) {
  return no_gpu_support();
}

int vectors_record(const VectorRecordFlags&) {
  std::fprintf(stderr, "warpsim vectors record: %s\n", no_gpu_support().message.c_str());
  return 3;
}

#endif

}  // namespace warpsim::cli
