#include "model/live_gpu.hpp"

#include <chrono>
#include <cmath>

#ifdef WARPSIM_HAVE_GPU
#include "kernel_launch.hpp"
#endif

namespace warpsim::gui {

#ifdef WARPSIM_HAVE_GPU

Expected<GpuRun> run_live_gpu(const RunRequest& request, const runner::KernelFileResult& sim) {
  const runner::KernelFileRequest& r = request.file;
  auto source = runner::read_text_file(r.file);
  if (!source) return source.error();
  gpu::GpuRunRequest g;
  g.source = std::move(*source);
  g.path = r.file;
  g.kernel_expression = sim.kernel_expression;
  g.kernel_name = sim.kernel;
  g.args = r.args;
  g.initial.resize(g.args.size());
  for (const runner::OutputBuffer& buffer : sim.initial_buffers) {
    if (buffer.arg < g.initial.size()) g.initial[buffer.arg] = buffer.bytes;
  }
  g.grid = r.grid;
  g.block = r.block;
  g.dynamic_shared_bytes = r.shared_bytes;
  g.trace.enabled = true;
  g.trace.blocks = 4;
  g.trace.capacity = 1024;
  g.timeout = std::chrono::milliseconds(
      static_cast<std::int64_t>(std::ceil(r.timeout_seconds * 1000.0)));
  return gpu::run_on_gpu(g);
}

#else

Expected<GpuRun> run_live_gpu(const RunRequest&, const runner::KernelFileResult&) {
  return fail(ErrorKind::no_device, "this warpsim-gui was built without CUDA support");
}

#endif

}  // namespace warpsim::gui
