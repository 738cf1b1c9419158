#include "warpsim/step_view.hpp"

#include <algorithm>

#include <bit>
#include <cstdio>

namespace warpsim {
namespace {

bool is_signed(ValueType type) {
  return type == ValueType::i32 || type == ValueType::i64;
}

// The type a step's outputs are read as.
ValueType output_type(ResultKind result, ValueType type) {
  switch (result) {
    case ResultKind::value:
      return type;
    case ResultKind::lane_mask:
      return ValueType::none;
    case ResultKind::predicate:
    case ResultKind::count:
      return ValueType::i32;
    case ResultKind::none:
      break;
  }
  return ValueType::none;
}

// The type a step's inputs are read as: votes and barriers pass an int predicate.
ValueType input_type(Op op, ValueType type) {
  return intrinsic_for(op).operand == OperandKind::predicate ? ValueType::i32 : type;
}

bool has_input(Op op) { return intrinsic_for(op).operand != OperandKind::none; }

std::string_view argument_name(Op op) { return intrinsic_for(op).argument.name; }

}  // namespace

std::string_view to_string(LaneState state) {
  switch (state) {
    case LaneState::took_part:
      return "took part";
    case LaneState::inactive:
      return "diverged elsewhere";
    case LaneState::not_in_mask:
      return "not in the mask";
    case LaneState::exited:
      return "exited";
  }
  return "?";
}

std::string_view to_string(ValueFormat format) {
  switch (format) {
    case ValueFormat::natural:
      return "natural";
    case ValueFormat::decimal:
      return "decimal";
    case ValueFormat::hex:
      return "hex";
    case ValueFormat::binary:
      return "binary";
  }
  return "natural";
}

std::optional<ValueFormat> value_format_from_string(std::string_view name) {
  for (const ValueFormat f :
       {ValueFormat::natural, ValueFormat::decimal, ValueFormat::hex, ValueFormat::binary}) {
    if (to_string(f) == name) return f;
  }
  return std::nullopt;
}

std::string format_bits(std::uint64_t bits, ValueType type, ValueFormat format) {
  const bool wide = is_64bit(type);
  char text[80];
  switch (format) {
    case ValueFormat::natural:
      return type == ValueType::none ? format_mask(static_cast<LaneMask>(bits))
                                     : format_value(bits, type);
    case ValueFormat::decimal:
      if (is_signed(type)) {
        return wide ? std::to_string(static_cast<std::int64_t>(bits))
                    : std::to_string(static_cast<std::int32_t>(bits));
      }
      return std::to_string(wide ? bits : static_cast<std::uint32_t>(bits));
    case ValueFormat::hex:
      if (wide) {
        std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(bits));
      } else {
        std::snprintf(text, sizeof text, "0x%08x", static_cast<std::uint32_t>(bits));
      }
      return text;
    case ValueFormat::binary: {
      const int digits = wide ? 64 : 32;
      std::string out(static_cast<std::size_t>(digits), '0');
      for (int b = 0; b < digits; ++b) {
        if ((bits >> b) & 1u) out[static_cast<std::size_t>(digits - 1 - b)] = '1';
      }
      return out;
    }
  }
  return format_value(bits, type);
}

std::string site_text(const Trace& trace, SourceLine where) {
  std::string file = where.file < trace.files.size() ? trace.files[where.file] : "?";
  const auto slash = file.find_last_of('/');
  if (slash != std::string::npos) file = file.substr(slash + 1);
  return file + ":" + std::to_string(where.line);
}

StepView describe_step(const Trace& trace, const TraceIndex& index, std::size_t step,
                       const StepViewOptions& options) {
  const TraceStep s = trace.steps.at(step);
  const StepInfo& info = index.info(step);
  const IntrinsicInfo& intrinsic = intrinsic_for(s.op);

  StepView v;
  v.step = step;
  v.warp = info.warp;
  v.position = info.position;
  v.warp_steps = static_cast<std::uint32_t>(index.steps_of(info.warp).size());
  v.pass = info.pass;
  v.op = s.op;
  v.type = s.type;
  v.family = intrinsic.family;
  v.name = std::string(intrinsic.name);
  v.contract = std::string(intrinsic.contract);
  v.where = info.where;
  v.site = site_text(trace, info.where);
  v.mask = s.mask;
  v.participants = s.participants;
  v.exited = s.exited;
  v.undefined = s.undefined;
  v.result = result_kind(s.op);
  v.diagnostics = index.diagnostics_of(step);

  // Lanes named by any participant's mask; a block barrier names the whole warp.
  const bool barrier = is_block_barrier(s.op);
  LaneMask named = barrier ? kFullMask : 0;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (has_lane(s.participants, lane)) named |= s.lane_mask[lane_at(lane)];
  }
  // Lanes that had not exited when the call was made, and exited before it completed
  // (named_lane_exited_later): running other code then, as the step's banner says, not exited.
  LaneMask exited_later = 0;
  for (const std::size_t d : v.diagnostics) {
    const Diagnostic& diagnostic = trace.diagnostics[d];
    if (diagnostic.kind != DiagnosticKind::named_lane_exited_later) continue;
    exited_later |= diagnostic.step_lanes != 0 ? diagnostic.step_lanes : diagnostic.lanes;
  }
  for (int lane = 0; lane < kWarpSize; ++lane) {
    LaneState state = LaneState::not_in_mask;
    if (has_lane(s.participants, lane)) {
      state = LaneState::took_part;
    } else if (has_lane(s.exited, lane) && !has_lane(exited_later, lane)) {
      state = LaneState::exited;
    } else if (has_lane(named, lane)) {
      state = LaneState::inactive;
      v.inactive |= lane_bit(lane);
    }
    v.lanes[lane_at(lane)] = state;
    v.source[lane_at(lane)] = state == LaneState::took_part ? s.src_lane[lane_at(lane)] : std::int8_t{-1};
    v.group[lane_at(lane)] = -1;
  }
  if (s.op == Op::match_any) {
    std::int8_t groups = 0;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      if (!has_lane(s.participants, lane) || v.group[lane_at(lane)] >= 0) continue;
      const auto members = static_cast<LaneMask>(s.output[lane_at(lane)]) & s.participants;
      for (int other = lane; other < kWarpSize; ++other) {
        if (has_lane(members, other)) v.group[lane_at(other)] = groups;
      }
      v.group[lane_at(lane)] = groups++;
    }
  }

  // Facts every participant shares; what differs by lane becomes a row.
  const int first = s.participants == 0 ? 0 : std::countr_zero(s.participants);
  bool uniform_mask = true, uniform_arg = true, uniform_width = true;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!has_lane(s.participants, lane)) continue;
    uniform_mask = uniform_mask && s.lane_mask[lane_at(lane)] == s.lane_mask[lane_at(first)];
    uniform_arg = uniform_arg && s.arg[lane_at(lane)] == s.arg[lane_at(first)];
    uniform_width = uniform_width && s.width[lane_at(lane)] == s.width[lane_at(first)];
  }
  if (intrinsic_for(s.op).mask != MaskParameter::none) {
    v.facts.emplace_back("mask", uniform_mask ? format_mask(s.mask) : "differs by lane");
  }
  const bool shuffle = is_shuffle(s.op);
  if (shuffle && uniform_arg) v.facts.emplace_back(argument_name(s.op), std::to_string(s.arg[lane_at(first)]));
  if (shuffle && uniform_width) v.facts.emplace_back("width", std::to_string(s.width[lane_at(first)]));
  if (s.op == Op::barrier_sync) {  // a warp's lanes wait at one barrier with one count
    v.facts.emplace_back("barrier", std::to_string(s.arg[lane_at(first)]));
    v.facts.emplace_back("count", s.width[lane_at(first)] == 0 ? std::string("the whole block")
                                                          : std::to_string(s.width[lane_at(first)]));
  }
  if (s.type != ValueType::none) v.facts.emplace_back("type", std::string(to_string(s.type)));

  const auto row = [&](RowKind kind, std::string label, auto cell_text) {
    StepRow r;
    r.kind = kind;
    r.label = std::move(label);
    for (int lane = 0; lane < kWarpSize; ++lane) {
      if (has_lane(s.participants, lane)) r.cells[lane_at(lane)].text = cell_text(lane);
    }
    v.rows.push_back(std::move(r));
    return &v.rows.back();
  };
  const ValueType in_type = input_type(s.op, s.type);
  const ValueType out_type = output_type(v.result, s.type);
  if (has_input(s.op)) {
    row(RowKind::input, "in",
        [&](int lane) { return format_bits(s.input[lane_at(lane)], in_type, options.format); });
  }
  if (shuffle && !uniform_arg) {
    row(RowKind::argument, std::string(argument_name(s.op)),
        [&](int lane) { return std::to_string(s.arg[lane_at(lane)]); });
  }
  if (shuffle && !uniform_width) {
    row(RowKind::width, "width", [&](int lane) { return std::to_string(s.width[lane_at(lane)]); });
  }
  if (shuffle) {
    row(RowKind::source, "from", [&](int lane) { return std::to_string(s.src_lane[lane_at(lane)]); });
  }
  if (v.result != ResultKind::none) {
    StepRow* out = row(RowKind::output, "out", [&](int lane) {
      return format_bits(s.output[lane_at(lane)], out_type, options.format);
    });
    for (int lane = 0; lane < kWarpSize; ++lane) {
      if (!has_lane(s.participants, lane)) continue;
      out->cells[lane_at(lane)].undefined = has_lane(s.undefined, lane);
      out->cells[lane_at(lane)].changed = s.output[lane_at(lane)] != s.input[lane_at(lane)];
    }
  }
  if (intrinsic_for(s.op).pred_out) {
    row(RowKind::predicate, "pred", [&](int lane) { return has_lane(s.pred, lane) ? "1" : "0"; });
  }
  if (options.after && has_input(s.op) && v.result == ResultKind::value) {
    // The same call's next pass passes the same expression: what each lane holds by then.
    if (const auto next = index.find(info.warp, info.where, info.pass + 1)) {
      const TraceStep n = trace.steps.at(*next);
      if (n.op == s.op && n.type == s.type) {
        StepRow r;
        r.kind = RowKind::after;
        r.label = "after";
        bool any_changed = false;
        for (int lane = 0; lane < kWarpSize; ++lane) {
          if (!has_lane(s.participants, lane) || !has_lane(n.participants, lane)) continue;
          LaneCell& cell = r.cells[lane_at(lane)];
          cell.text = format_bits(n.input[lane_at(lane)], in_type, options.format);
          cell.changed = n.input[lane_at(lane)] != s.input[lane_at(lane)];
          any_changed = any_changed || cell.changed;
        }
        if (any_changed) v.rows.push_back(std::move(r));
      }
    }
  }
  if (options.other != nullptr && v.result != ResultKind::none) {
    StepRow r;
    r.kind = RowKind::other;
    r.label = options.other_label;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      const std::optional<std::uint64_t>& theirs = (*options.other)[lane_at(lane)];
      if (!theirs || !has_lane(s.participants, lane)) continue;
      LaneCell& cell = r.cells[lane_at(lane)];
      cell.text = format_bits(*theirs, out_type, options.format);
      cell.undefined = has_lane(s.undefined, lane);
      cell.differs = !cell.undefined && *theirs != s.output[lane_at(lane)];
      if (cell.differs) v.other_differs |= lane_bit(lane);
    }
    v.rows.push_back(std::move(r));
    v.has_other = true;
  }
  return v;
}

bool reads_as_zero(std::string_view text) {
  if (text.starts_with("0x")) text.remove_prefix(2);
  if (text.starts_with("-")) text.remove_prefix(1);
  if (text.empty()) return false;
  return std::all_of(text.begin(), text.end(), [](char c) { return c == '0'; });
}

}  // namespace warpsim
