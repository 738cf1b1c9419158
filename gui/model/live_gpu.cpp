#include "model/live_gpu.hpp"

#include <chrono>

#ifdef WARPSIM_HAVE_GPU
#include "kernel_launch.hpp"
#endif

namespace warpsim::gui {

#ifdef WARPSIM_HAVE_GPU

Expected<GpuRun> run_live_gpu(const RunRequest& request, const runner::KernelFileResult& sim) {
  const runner::KernelFileRequest& r = request.file;
  auto source = runner::read_text_file(r.file);
  if (!source) return source.error();
  gpu::GpuRunRequest g = gpu::gpu_request_for(r, sim, std::move(*source));
  g.trace.enabled = true;
  g.trace.blocks = 4;
  g.trace.capacity = 1024;
  return gpu::run_on_gpu(g);
}

#else

Expected<GpuRun> run_live_gpu(const RunRequest&, const runner::KernelFileResult&) {
  return fail(ErrorKind::no_device, "this warpsim-gui was built without CUDA support");
}

#endif

}  // namespace warpsim::gui
