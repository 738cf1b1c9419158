// The GPU side, live: the same launch on this machine's CUDA device (NVRTC, the driver loaded at
// run time), traced, for the GUI's side-by-side row. In builds without warpsim::gpu, and on
// machines without a device, it fails with one line saying so.
#pragma once

#include "model/app_model.hpp"

namespace warpsim::gui {

// A LiveGpu: 4 blocks traced, up to 1024 calls a thread (as `warpsim run --gpu`, with more calls).
Expected<GpuRun> run_live_gpu(const RunRequest& request, const runner::KernelFileResult& sim);

}  // namespace warpsim::gui
