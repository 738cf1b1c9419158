// The `run --gpu` report: readable lines and the "gpu" JSON object.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <numeric>
#include <vector>

#include "helpers.hpp"
#include "gpu_report.hpp"
#include "kernels.hpp"

using namespace warpsim;
using namespace warpsim::cli;
using device_trace_test::device_trace_of;
using device_trace_test::shape;
using json = nlohmann::ordered_json;

namespace {

struct Example {
  std::vector<float> in, out;
  LaunchResult sim;
  Example() : in(64), out(64) {
    std::iota(in.begin(), in.end(), 1.0f);
    sim = launch(shape(2, 32), [&] { dt_butterfly(in.data(), out.data()); });
    REQUIRE(sim.status == LaunchStatus::completed);
  }
};

GpuComparison comparison_for(const Trace& sim, const DeviceTrace& gpu,
                             std::vector<BufferComparison> buffers) {
  GpuComparison g;
  g.device.name = "NVIDIA H100 80GB HBM3";
  g.device.sm = 90;
  g.device.driver = 13000;
  g.device.driver_release = "580.65.06";
  g.grid = sim.grid;
  g.traced_blocks = gpu.traced_blocks;
  g.buffers = std::move(buffers);
  g.steps = compare(sim, gpu);
  return g;
}

}  // namespace

TEST_CASE("all identical: one line per buffer and one for the steps") {
  Example e;
  const std::vector<float> gpu_out = e.out;
  const BufferData sim_buffer{1, ValueType::f32, std::as_bytes(std::span(e.out))};
  const BufferData gpu_buffer{1, ValueType::f32, std::as_bytes(std::span(gpu_out))};
  const GpuComparison g = comparison_for(e.sim.trace, device_trace_of(e.sim.trace, 2),
                                         {compare_buffer(sim_buffer, gpu_buffer)});
  CHECK(g.identical());
  const std::string text = format_gpu_comparison_text(g);
  CHECK(text ==
        "GPU: NVIDIA H100 80GB HBM3 (sm_90, driver 13.0, 580.65.06)\n"
        "  buffer arg 1 (f32[64]): identical\n"
        "  steps: 64 lanes x 320 calls identical (blocks 0-1 traced)\n");

  const json j = gpu_comparison_json(g);
  CHECK(j["device"] == "NVIDIA H100 80GB HBM3");
  CHECK(j["sm"] == 90);
  CHECK(j["driver"] == 13000);
  CHECK(j["identical"] == true);
  REQUIRE(j["buffers"].size() == 1);
  CHECK(j["buffers"][0]["arg"] == 1);
  CHECK(j["buffers"][0]["identical"] == true);
  CHECK(j["buffers"][0]["first_difference"].is_null());
  CHECK(j["steps"]["compared"] == 320);
  CHECK(j["steps"]["lanes"] == 64);
  CHECK(j["steps"]["identical"] == true);
  CHECK(j["steps"]["first_difference"].is_null());
}

TEST_CASE(
    "differences: the first element and the first step, named for a person and for a program") {
  Example e;
  std::vector<float> gpu_out = e.out;
  gpu_out[5] = 527.5f;
  const BufferData sim_buffer{1, ValueType::f32, std::as_bytes(std::span(e.out))};
  const BufferData gpu_buffer{1, ValueType::f32, std::as_bytes(std::span(gpu_out))};
  DeviceTrace gpu = device_trace_of(e.sim.trace, 2);
  gpu.threads[32 + 4].calls[1].output = 0x40000000;  // block 1, lane 4, second shuffle: 2.0f
  gpu.threads[32 + 6].calls[1].output = 0x40000000;
  const GpuComparison g =
      comparison_for(e.sim.trace, gpu, {compare_buffer(sim_buffer, gpu_buffer)});
  CHECK_FALSE(g.identical());
  const std::string text = format_gpu_comparison_text(g);
  CAPTURE(text);
  CHECK(text.find(
            "  buffer arg 1 (f32[64]): 1 of 64 elements differ; first [5]: sim 528, gpu 527.5") !=
        std::string::npos);
  CHECK(text.find("  steps: 2 of 64 lanes differ; first at step 6 (block 1, warp 0, lanes 4,6, ") !=
        std::string::npos);
  CHECK(text.find("kernels.cuh:7, __shfl_xor_sync, call #1 of lane 4): output: sim ") !=
        std::string::npos);
  CHECK(text.find("gpu 2 (0x40000000)") != std::string::npos);

  const json j = gpu_comparison_json(g);
  CHECK(j["identical"] == false);
  CHECK(j["buffers"][0]["differing"] == 1);
  CHECK(j["buffers"][0]["first_difference"]["index"] == 5);
  CHECK(j["buffers"][0]["first_difference"]["sim"] == 528);
  CHECK(j["buffers"][0]["first_difference"]["gpu"] == 527.5);
  const json& d = j["steps"]["first_difference"];
  CHECK(d["step"] == 6);
  CHECK(d["block"] == 1);
  CHECK(d["warp"] == 0);
  CHECK(d["lane"] == 4);
  CHECK(d["lanes"] == "0x00000050");
  CHECK(d["field"] == "output");
  CHECK(d["line"] == 7);
  CHECK(d["gpu"]["output"] == "0x40000000");
  CHECK(d["sim"]["op"] == "shfl_xor_sync");
  CHECK(d["gpu_value"] == "2 (0x40000000)");
}

TEST_CASE("without a device trace the steps line says why") {
  GpuComparison g;
  g.device.name = "X";
  g.device.sm = 90;
  g.device.driver = 12080;
  g.steps_note = "no device trace was recorded";
  CHECK(format_gpu_comparison_text(g) ==
        "GPU: X (sm_90, driver 12.8)\n  steps: not compared: no device trace was recorded\n");
  const json j = gpu_comparison_json(g);
  CHECK(j["steps"].is_null());
  CHECK(j["steps_note"] == "no device trace was recorded");
  CHECK(j["identical"] == true);
}
