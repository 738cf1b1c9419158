#include "warpsim/trace.hpp"

#include <bit>
#include <charconv>
#include <cstdio>
#include <cstring>

namespace warpsim {

std::string_view to_string(DiagnosticKind kind) {
  switch (kind) {
    case DiagnosticKind::caller_not_in_mask: return "caller_not_in_mask";
    case DiagnosticKind::mask_mismatch: return "mask_mismatch";
    case DiagnosticKind::missing_lane: return "missing_lane";
    case DiagnosticKind::undefined_source: return "undefined_source";
    case DiagnosticKind::split_call_sites: return "split_call_sites";
    case DiagnosticKind::divergent_syncthreads: return "divergent_syncthreads";
    case DiagnosticKind::named_lane_exited_later: return "named_lane_exited_later";
    case DiagnosticKind::activemask_as_mask: return "activemask_as_mask";
    case DiagnosticKind::uninitialised_value: return "uninitialised_value";
    case DiagnosticKind::deadlock: return "deadlock";
    case DiagnosticKind::step_budget_exceeded: return "step_budget_exceeded";
    case DiagnosticKind::out_of_bounds: return "out_of_bounds";
    case DiagnosticKind::kernel_fault: return "kernel_fault";
    case DiagnosticKind::timeout: return "timeout";
    case DiagnosticKind::data_race: return "data_race";
    case DiagnosticKind::uninitialized_shared_read: return "uninitialized_shared_read";
    case DiagnosticKind::uninitialized_global_read: return "uninitialized_global_read";
    case DiagnosticKind::uninitialized_local_stored: return "uninitialized_local_stored";
  }
  return "?";
}

std::optional<DiagnosticKind> diagnostic_kind_from_string(std::string_view name) {
  for (int k = 0; k < kDiagnosticKindCount; ++k) {
    const auto kind = static_cast<DiagnosticKind>(k);
    if (to_string(kind) == name) return kind;
  }
  return std::nullopt;
}

std::string diagnostic_union_text(const Diagnostic& d) {
  if (d.occurrences <= 1 || d.step_message.empty()) return {};
  return "over " + std::to_string(d.occurrences) + " steps at this line: lanes " +
         format_lanes(d.lanes);
}

std::string diagnostic_at_step_text(const Trace& trace, const Diagnostic& d) {
  const LaneMask lanes = d.step_message.empty() ? d.lanes : d.step_lanes;
  std::string message = d.step_message.empty() ? d.message : d.step_message;
  // Files by their last path component, as everything else on a step names them.
  for (const std::string& file : trace.files) {
    const auto slash = file.find_last_of('/');
    if (slash == std::string::npos) continue;
    const std::string name = file.substr(slash + 1);
    for (auto at = message.find(file); at != std::string::npos; at = message.find(file, at)) {
      message.replace(at, file.size(), name);
      at += name.size();
    }
  }
  std::string text = std::string(to_string(d.kind));
  if (lanes != 0) text += " (lanes " + format_lanes(lanes) + ")";
  text += ": " + message;
  if (const std::string over = diagnostic_union_text(d); !over.empty()) {
    text += " (" + over + ")";
  } else if (d.occurrences > 1) {
    text += " (" + std::to_string(d.occurrences) + " times at this line)";
  }
  return text;
}

std::uint32_t Trace::file_index(const std::string& path) {
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (files[i] == path) return static_cast<std::uint32_t>(i);
  }
  files.push_back(path);
  return static_cast<std::uint32_t>(files.size() - 1);
}

std::string format_lanes(LaneMask lanes) {
  if (lanes == 0) return "none";
  std::string text;
  int lane = 0;
  while (lane < kWarpSize) {
    if (!has_lane(lanes, lane)) {
      ++lane;
      continue;
    }
    int last = lane;
    while (last + 1 < kWarpSize && has_lane(lanes, last + 1)) ++last;
    if (!text.empty()) text += ',';
    text += std::to_string(lane);
    if (last > lane) text += '-' + std::to_string(last);
    lane = last + 1;
  }
  return text;
}

std::string format_mask(LaneMask mask) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "0x%08x", mask);
  return buffer;
}

std::string format_value(std::uint64_t bits, ValueType type) {
  char buffer[40];
  const auto shortest = [&](auto value) {
    const auto r = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, r.ptr);
  };
  switch (type) {
    case ValueType::i32: return std::to_string(static_cast<std::int32_t>(bits));
    case ValueType::u32: return std::to_string(static_cast<std::uint32_t>(bits));
    case ValueType::i64: return std::to_string(static_cast<std::int64_t>(bits));
    case ValueType::u64: return std::to_string(bits);
    case ValueType::f32: {
      float f;
      const auto b = static_cast<std::uint32_t>(bits);
      std::memcpy(&f, &b, sizeof f);
      return shortest(f);
    }
    case ValueType::f64: {
      double d;
      std::memcpy(&d, &bits, sizeof d);
      return shortest(d);
    }
    default: {
      std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(bits));
      return buffer;
    }
  }
}

}  // namespace warpsim
