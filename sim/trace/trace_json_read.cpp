// Reading the trace's JSON form back (walkthrough, GPU comparison, GUI).
#include <istream>
#include <sstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <nlohmann/json.hpp>

#include "warpsim/trace.hpp"

namespace warpsim {
namespace {

using nlohmann::json;

std::uint64_t bits(const json& value) {
  const std::string text = value.get<std::string>();
  std::size_t used = 0;
  const std::uint64_t result = std::stoull(text, &used, 16);
  if (used != text.size()) throw std::invalid_argument("bad hex '" + text + "'");
  return result;
}

LaneMask mask(const json& value) { return static_cast<LaneMask>(bits(value)); }

Dim3 dim3_of(const json& value) {
  return {value.at(0).get<std::uint32_t>(), value.at(1).get<std::uint32_t>(),
          value.at(2).get<std::uint32_t>()};
}

TraceStep read_step(const json& j) {
  TraceStep s;
  const auto op = op_from_string(j.at("op").get<std::string>());
  if (!op) throw std::invalid_argument("unknown op " + j.at("op").dump());
  s.op = *op;
  if (j.contains("type")) {
    const auto type = value_type_from_string(j.at("type").get<std::string>());
    if (!type) throw std::invalid_argument("unknown type " + j.at("type").dump());
    s.type = *type;
  }
  s.block = j.at("block").get<std::uint64_t>();
  s.warp = j.at("warp").get<std::uint32_t>();
  s.sequence = j.at("seq").get<std::uint32_t>();
  s.mask = mask(j.at("mask"));
  s.participants = mask(j.at("participants"));
  s.exited = mask(j.at("exited"));
  s.undefined = mask(j.at("undefined"));
  s.pred = mask(j.at("pred"));
  s.src_lane.fill(-1);
  for (const json& l : j.at("lanes")) {
    const int lane = l.at("lane").get<int>();
    if (lane < 0 || lane >= kWarpSize) throw std::invalid_argument("lane out of range");
    s.input[lane] = bits(l.at("in"));
    if (l.contains("arg")) {
      s.arg[lane] = l.at("arg").get<std::int32_t>();
      s.width[lane] = l.at("width").get<std::int32_t>();
      s.src_lane[lane] = static_cast<std::int8_t>(l.at("src").get<int>());
    }
    s.output[lane] = bits(l.at("out"));
    s.lane_mask[lane] = mask(l.at("mask"));
    s.where[lane] = {l.at("file").get<std::uint32_t>(), l.at("line").get<std::uint32_t>()};
  }
  return s;
}

}  // namespace

Expected<Trace> read_trace_json(std::istream& in) {
  try {
    const json j = json::parse(in);
    if (j.value("format", "") != "warpsim-trace") {
      return fail("not a warpsim trace (no \"format\":\"warpsim-trace\")");
    }
    if (j.value("version", 0) != 1) {
      return fail("unsupported warpsim trace version " + j.value("version", json()).dump());
    }
    Trace t;
    t.grid = dim3_of(j.at("grid"));
    t.block = dim3_of(j.at("block"));
    for (const json& f : j.at("files")) t.files.push_back(f.get<std::string>());
    for (const json& s : j.at("steps")) t.steps.push_back(read_step(s));
    for (const json& d : j.at("diagnostics")) {
      Diagnostic diagnostic;
      const auto kind = diagnostic_kind_from_string(d.at("kind").get<std::string>());
      if (!kind) throw std::invalid_argument("unknown diagnostic kind " + d.at("kind").dump());
      diagnostic.kind = *kind;
      diagnostic.message = d.at("message").get<std::string>();
      diagnostic.lanes = mask(d.at("lanes"));
      diagnostic.block = d.at("block").get<std::uint64_t>();
      diagnostic.warp = d.at("warp").get<std::uint32_t>();
      diagnostic.step = d.at("step").get<std::int64_t>();
      diagnostic.where = {d.at("file").get<std::uint32_t>(), d.at("line").get<std::uint32_t>()};
      diagnostic.occurrences = d.at("occurrences").get<std::uint64_t>();
      if (d.contains("step_message")) {
        diagnostic.step_message = d.at("step_message").get<std::string>();
        diagnostic.step_lanes = mask(d.at("step_lanes"));
      }
      if (d.contains("other_line")) {
        diagnostic.other_where = {d.at("other_file").get<std::uint32_t>(),
                                  d.at("other_line").get<std::uint32_t>()};
      }
      if (d.contains("step_before")) diagnostic.step_before = d.at("step_before").get<std::int64_t>();
      t.diagnostics.push_back(std::move(diagnostic));
    }
    for (const json& p : j.at("printf")) {
      t.printf_records.push_back({p.at("block").get<std::uint64_t>(),
                                  p.at("thread").get<std::uint32_t>(), p.at("text").get<std::string>()});
    }
    if (j.contains("waits")) {
      for (const json& w : j.at("waits")) {
        WarpWait wait;
        wait.block = w.at("block").get<std::uint64_t>();
        wait.warp = w.at("warp").get<std::uint32_t>();
        const json& lanes = w.at("lanes");
        if (lanes.size() != kWarpSize) throw std::invalid_argument("a wait has 32 lanes");
        for (std::size_t lane = 0; lane < kWarpSize; ++lane) {
          const json& l = lanes[lane];
          const int state = l.at("state").get<int>();
          if (state < 0 || state > static_cast<int>(LaneWait::State::running)) {
            throw std::invalid_argument("unknown lane wait state " + l.at("state").dump());
          }
          const auto op = op_from_string(l.at("op").get<std::string>());
          if (!op) throw std::invalid_argument("unknown op " + l.at("op").dump());
          wait.lanes[lane] = {static_cast<LaneWait::State>(state), *op,
                              {l.at("file").get<std::uint32_t>(), l.at("line").get<std::uint32_t>()},
                              mask(l.at("mask"))};
        }
        t.waits.push_back(wait);
      }
    }
    return t;
  } catch (const std::exception& e) {
    return fail(std::string("malformed trace: ") + e.what());
  }
}

Expected<Trace> read_trace_json(std::string_view text) {
  std::istringstream in{std::string(text)};
  return read_trace_json(in);
}

}  // namespace warpsim
