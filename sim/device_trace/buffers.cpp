// Buffer contents after a simulator run and a GPU run, element by element.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "warpsim/device_trace.hpp"

namespace warpsim {
namespace {

bool is_buffer_type(ValueType t) {
  using enum ValueType;
  return t == i32 || t == u32 || t == f32 || t == i64 || t == u64 || t == f64;
}

std::size_t element_bytes(ValueType t) { return is_64bit(t) ? 8 : 4; }

std::uint64_t element_at(std::span<const std::byte> bytes, std::size_t size, std::uint64_t index) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, bytes.data() + index * size, size);  // little-endian host, as CUDA's
  return bits;
}

bool is_nan(std::uint64_t bits, ValueType type) {
  if (type == ValueType::f32) {
    const auto b = static_cast<std::uint32_t>(bits);
    return (b & 0x7f800000u) == 0x7f800000u && (b & 0x007fffffu) != 0;
  }
  return (bits & 0x7ff0000000000000ull) == 0x7ff0000000000000ull &&
         (bits & 0x000fffffffffffffull) != 0;
}

// Maps a float's bits onto an unsigned line on which adjacent floats are adjacent integers
// (-0 and +0 both at the middle).
std::uint64_t ordered(std::uint64_t bits, ValueType type) {
  if (type == ValueType::f32) {
    const auto b = static_cast<std::uint32_t>(bits);
    const std::uint64_t magnitude = b & 0x7fffffffu;
    return (b & 0x80000000u) != 0 ? 0x80000000ull - magnitude : 0x80000000ull + magnitude;
  }
  const std::uint64_t magnitude = bits & 0x7fffffffffffffffull;
  return (bits >> 63) != 0 ? 0x8000000000000000ull - magnitude : 0x8000000000000000ull + magnitude;
}

}  // namespace

std::uint64_t ulp_distance(std::uint64_t a, std::uint64_t b, ValueType type) {
  if (type != ValueType::f32 && type != ValueType::f64)
    return a == b ? 0 : std::numeric_limits<std::uint64_t>::max();
  if (is_nan(a, type) || is_nan(b, type)) return std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t x = ordered(a, type), y = ordered(b, type);
  return x > y ? x - y : y - x;
}

BufferComparison compare_buffer(const BufferData& sim, const BufferData& gpu,
                                std::uint64_t ulp_tolerance) {
  BufferComparison r;
  r.arg = sim.arg;
  r.field = sim.field;
  r.type = sim.type;
  if (sim.type != gpu.type) {
    r.problem = "the simulator's buffer holds " + std::string(to_string(sim.type)) +
                ", the GPU's " + std::string(to_string(gpu.type));
    return r;
  }
  if (!is_buffer_type(sim.type)) {
    r.problem = "buffers of " + std::string(to_string(sim.type)) + " are not compared";
    return r;
  }
  const std::size_t size = element_bytes(sim.type);
  if (sim.bytes.size() != gpu.bytes.size() || sim.bytes.size() % size != 0) {
    r.problem = "the simulator's buffer has " + std::to_string(sim.bytes.size()) +
                " bytes, the GPU's " + std::to_string(gpu.bytes.size());
    return r;
  }
  const bool floating = sim.type == ValueType::f32 || sim.type == ValueType::f64;
  r.count = sim.bytes.size() / size;
  for (std::uint64_t i = 0; i < r.count; ++i) {
    const std::uint64_t a = element_at(sim.bytes, size, i);
    const std::uint64_t b = element_at(gpu.bytes, size, i);
    if (a == b) continue;
    if (floating && ulp_tolerance > 0) {
      const bool both_nan = is_nan(a, sim.type) && is_nan(b, sim.type);
      const std::uint64_t ulps = ulp_distance(a, b, sim.type);
      if (both_nan || ulps <= ulp_tolerance) {
        ++r.within_tolerance;
        if (!both_nan && ulps > r.max_ulp) r.max_ulp = ulps;
        continue;
      }
    }
    if (floating) {
      const std::uint64_t ulps = ulp_distance(a, b, sim.type);
      if (ulps > r.max_ulp) r.max_ulp = ulps;
    }
    if (r.differing++ == 0) {
      r.first_index = i;
      r.sim_bits = a;
      r.gpu_bits = b;
    }
  }
  return r;
}

std::vector<BufferComparison> compare_buffers(std::span<const BufferData> sim,
                                              std::span<const BufferData> gpu,
                                              std::uint64_t ulp_tolerance) {
  std::vector<BufferComparison> out;
  for (const BufferData& s : sim) {
    const BufferData* match = nullptr;
    for (const BufferData& g : gpu) {
      if (g.arg == s.arg && g.field == s.field) match = &g;
    }
    if (match == nullptr) {
      BufferComparison r;
      r.arg = s.arg;
      r.field = s.field;
      r.type = s.type;
      r.problem = "the GPU run returned no buffer for this argument";
      out.push_back(std::move(r));
    } else {
      out.push_back(compare_buffer(s, *match, ulp_tolerance));
    }
  }
  for (const BufferData& g : gpu) {
    bool found = false;
    for (const BufferData& s : sim) found = found || (s.arg == g.arg && s.field == g.field);
    if (found) continue;
    BufferComparison r;
    r.arg = g.arg;
    r.field = g.field;
    r.type = g.type;
    r.problem = "the simulator run has no buffer for this argument";
    out.push_back(std::move(r));
  }
  return out;
}

std::string format_element(std::uint64_t bits, ValueType type) {
  char text[64];
  const auto special = [](double v) -> const char* {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    return nullptr;
  };
  switch (type) {
    case ValueType::i32:
      return std::to_string(static_cast<std::int32_t>(static_cast<std::uint32_t>(bits)));
    case ValueType::u32:
      return std::to_string(static_cast<std::uint32_t>(bits));
    case ValueType::i64:
      return std::to_string(static_cast<std::int64_t>(bits));
    case ValueType::u64:
      return std::to_string(bits);
    case ValueType::f32: {
      float f = 0;
      const auto b = static_cast<std::uint32_t>(bits);
      std::memcpy(&f, &b, sizeof f);
      if (const char* s = special(f)) return s;
      std::snprintf(text, sizeof text, "%.9g", static_cast<double>(f));
      return text;
    }
    case ValueType::f64: {
      double d = 0;
      std::memcpy(&d, &bits, sizeof d);
      if (const char* s = special(d)) return s;
      std::snprintf(text, sizeof text, "%.17g", d);
      return text;
    }
    default:
      return format_value(bits, type);
  }
}

}  // namespace warpsim
