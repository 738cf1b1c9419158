// The GPU comparison (warpsim/device_trace.hpp) as the readable report's lines and as the "gpu"
// member of `run --json`, e.g.
//   GPU: NVIDIA H100 80GB HBM3 (sm_90, driver 13.0, 580.65.06, CUDA 13.0, 2026-11-23T10:00:00Z)
//     buffer arg 1 (f32[128]): identical
//     buffer arg 3 (i32[64]): 2 of 64 elements differ; first [5]: sim 7, gpu 9
//     steps: 128 lanes x 640 calls identical (blocks 0-3 traced)
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "warpsim/device_trace.hpp"

namespace warpsim::cli {

// "NVIDIA H100 80GB HBM3 (sm_90, driver 13.0, 580.65.06, CUDA 13.0, 2026-11-23T10:00:00Z)"
std::string device_text(const GpuDevice& device);
std::string format_gpu_comparison_text(const GpuComparison& comparison);
nlohmann::ordered_json gpu_device_json(const GpuDevice& device);
nlohmann::ordered_json gpu_comparison_json(const GpuComparison& comparison);
// One buffer element as run.md's JSON writes it: a number, or "nan" / "inf" / "-inf".
nlohmann::ordered_json element_json(std::uint64_t bits, ValueType type);

}  // namespace warpsim::cli
