// Error values for everything GPU-facing: the driver, NVRTC, files. External failures never
// throw and never crash; they come back as a GpuError whose `message` is one plain line.
//
//   Expected<DeviceInfo> device = probe_device();
//   if (!device) { std::puts(device.error().message.c_str()); return 3; }
//   std::printf("%s sm_%d\n", device->name.c_str(), device->sm);
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace warpsim::gpu {

enum class GpuErrorKind : unsigned char {
  no_device,         // no driver, no device, or the ordinal asked for does not exist
  driver,            // a CUDA driver call failed
  compile,           // NVRTC rejected the source; `details` holds the compiler's log
  file,              // reading or writing a file failed
  invalid_argument,  // the caller asked for something impossible (bad sm, empty output path, ...)
  internal,          // the device did something the recorder cannot explain
};

struct GpuError {
  GpuErrorKind kind = GpuErrorKind::internal;
  std::string message;  // one line, no trailing newline
  std::string details;  // optional multi-line text, e.g. the NVRTC log (empty when none)
};

// message, plus details on the following lines when there are any.
inline std::string to_string(const GpuError& error) {
  if (error.details.empty()) return error.message;
  std::string text = error.message + "\n" + error.details;
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

// Either a T or a GpuError (std::expected arrives only with C++23).
template <class T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : state_(std::in_place_index<0>, std::move(value)) {}
  Expected(GpuError error) : state_(std::in_place_index<1>, std::move(error)) {}

  bool has_value() const { return state_.index() == 0; }
  explicit operator bool() const { return has_value(); }

  T& value() & { assert(has_value()); return std::get<0>(state_); }
  const T& value() const& { assert(has_value()); return std::get<0>(state_); }
  T&& value() && { assert(has_value()); return std::get<0>(std::move(state_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const GpuError& error() const { assert(!has_value()); return std::get<1>(state_); }

 private:
  std::variant<T, GpuError> state_;
};

template <>
class [[nodiscard]] Expected<void> {
 public:
  Expected() = default;
  Expected(GpuError error) : error_(std::move(error)) {}

  bool has_value() const { return !error_.has_value(); }
  explicit operator bool() const { return has_value(); }
  const GpuError& error() const { assert(error_.has_value()); return *error_; }

 private:
  std::optional<GpuError> error_;
};

}  // namespace warpsim::gpu
