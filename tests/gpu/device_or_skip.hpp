// For suites labelled `gpu`: the device, or a clear "skipped" message where there is none.
#pragma once

#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "cuda_driver.hpp"

namespace warpsim::gpu::test {

inline std::optional<DeviceInfo> device_or_skip() {
  auto device = probe_device();
  if (device) return *device;
  std::string reason = device.error().message;
  const std::string prefix = "no CUDA device: ";
  if (reason.rfind(prefix, 0) == 0) reason.erase(0, prefix.size());
  MESSAGE("skipped: no CUDA device (" << reason << ")");
  return std::nullopt;
}

}  // namespace warpsim::gpu::test
