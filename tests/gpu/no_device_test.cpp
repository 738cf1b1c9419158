// Without a driver or a device every GPU entry point fails cleanly, in one line, and never
// pretends. On a machine with a device these checks have nothing to check and say so.
#include <dlfcn.h>
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "cuda_driver.hpp"
#include "kernel_launch.hpp"
#include "nvrtc_compile.hpp"
#include "vectors_record.hpp"

using namespace warpsim;
using namespace warpsim::gpu;

namespace {

// Taken before main(): by then the dynamic loader has loaded every library the binary needs.
const bool cuda_loaded_at_start = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD) != nullptr;

void check_no_device_error(const Error& error) {
  CHECK(error.kind == ErrorKind::no_device);
  CHECK(error.message.rfind("no CUDA device: ", 0) == 0);
  CHECK(error.message.find('\n') == std::string::npos);
  CHECK(error.details.empty());
}

}  // namespace

TEST_CASE("the binary does not load libcuda by itself") {
  CHECK_FALSE(cuda_loaded_at_start);
}

TEST_CASE("without a device, every GPU entry point says so in one line") {
  const auto device = probe_device();
  if (device) {
    MESSAGE("a CUDA device is present (" << device->name << "); the no-device behaviour is not checked here");
    return;
  }
  MESSAGE(device.error().message);
  check_no_device_error(device.error());

  auto gpu = Gpu::open();
  REQUIRE_FALSE(gpu);
  check_no_device_error(gpu.error());
  CHECK(gpu.error().message == device.error().message);

  auto program = nvrtc_compile("__global__ void k() {}", "k.cu");  // sm 0: the device's own
  REQUIRE_FALSE(program);
  check_no_device_error(program.error());

  const auto out = std::filesystem::temp_directory_path() / "warpsim_no_device_test.jsonl.gz";
  std::filesystem::remove(out);
  RecordOptions options;
  options.cases = 100;
  options.out = out;
  auto summary = record_vectors(options);
  REQUIRE_FALSE(summary);
  check_no_device_error(summary.error());
  CHECK_FALSE(std::filesystem::exists(out));

  GpuRunRequest request;  // `run --gpu`: says so before compiling anything
  request.source = "__global__ void k() {}";
  request.path = "k.cu";
  request.kernel_expression = "::k";
  request.kernel_name = "k";
  request.grid = request.block = {1, 1, 1};
  request.trace.enabled = true;
  auto run = run_on_gpu(request);
  REQUIRE_FALSE(run);
  check_no_device_error(run.error());
}

TEST_CASE("a device ordinal that does not exist is refused") {
  auto device = probe_device(1000);
  REQUIRE_FALSE(device);
  check_no_device_error(device.error());
}
