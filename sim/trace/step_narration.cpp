#include "warpsim/step_narration.hpp"

#include <algorithm>
#include <bit>
#include <cctype>

namespace warpsim {
namespace {

std::string cell(const StepView& v, RowKind kind, int lane) {
  const StepRow* r = find_row(v, kind);
  return r == nullptr ? std::string() : r->cells[lane_at(lane)].text;
}

std::string fact(const StepView& v, std::string_view name) {
  for (const auto& [n, value] : v.facts) {
    if (n == name) return value;
  }
  return {};
}

LaneMask lanes_in(const StepView& v, LaneState state) {
  LaneMask m = 0;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (v.lanes[lane_at(lane)] == state) m |= lane_bit(lane);
  }
  return m;
}

std::string participation(const StepView& v) {
  if (v.participants == kFullMask) return "All 32 lanes took part.";
  std::string s = v.participants == 0 ? "No lane took part"
                                      : "L" + lanes_phrase(v.participants).substr(1) + " took part";
  const LaneMask diverged = lanes_in(v, LaneState::inactive);
  const LaneMask off = lanes_in(v, LaneState::not_in_mask);
  const LaneMask exited = lanes_in(v, LaneState::exited);
  if (diverged != 0) {
    s += "; " + lanes_phrase(diverged) +
         " diverged elsewhere (named in the mask, but running other code)";
  }
  if (off != 0) s += "; " + lanes_phrase(off) + " were not in the mask";
  if (exited != 0) s += "; " + lanes_phrase(exited) + " had exited";
  return s + ".";
}

std::string shuffle_sentence(const StepView& v, int e) {
  const int src = v.source[lane_at(e)];
  if (src < 0) return {};
  const std::string in_src = cell(v, RowKind::input, src);
  const std::string out_e = cell(v, RowKind::output, e);
  const std::string le = "lane " + std::to_string(e), ls = "lane " + std::to_string(src);
  std::string received = src == e ? le + " kept its own value " + out_e
                                  : le + " received " + out_e + " from " + ls;
  switch (v.op) {
    case Op::shfl_xor: {
      const std::string m = fact(v, "laneMask");
      std::string s = "Each lane received the value of its partner lane i ^ " +
                      (m.empty() ? "laneMask" : m) + ": " + received;
      if (src != e && v.source[lane_at(src)] == e) {
        s += ", and " + ls + " received " + cell(v, RowKind::output, src) + " from " + le +
             ": partners swap values.";
      } else {
        s += ".";
      }
      return s;
    }
    case Op::shfl_up:
    case Op::shfl_down: {
      const std::string d = fact(v, "delta");
      LaneMask kept = 0;
      for (int lane = 0; lane < kWarpSize; ++lane) {
        if (v.source[lane_at(lane)] == lane) kept |= lane_bit(lane);
      }
      std::string s = std::string("Each lane received the value of the lane ") +
                      (d.empty() ? "delta" : d) + (v.op == Op::shfl_up ? " below" : " above") +
                      " it: " + received + ".";
      if (kept != 0) {
        const bool one = std::popcount(kept) == 1;
        s += " " + std::string(1, static_cast<char>(std::toupper(lanes_phrase(kept)[0]))) +
             lanes_phrase(kept).substr(1) + " had no such lane within the shuffle's width and " +
             (one ? "kept its own value." : "kept their own values.");
      }
      return s;
    }
    default: {
      bool broadcast = v.participants != 0;
      for (int lane = 0; lane < kWarpSize; ++lane) {
        if (has_lane(v.participants, lane) && v.source[lane_at(lane)] != src) broadcast = false;
      }
      if (broadcast) {
        return "Every lane read " + ls + ": a broadcast of " + in_src + " to the whole warp.";
      }
      return "Each lane read the lane it named (row 'from'): " + received + ".";
    }
  }
}

}  // namespace

std::string lanes_phrase(LaneMask lanes) {
  return (std::popcount(lanes) == 1 ? "lane " : "lanes ") + format_lanes(lanes);
}

std::vector<std::string> narrate_step(const StepView& v, int example_lane) {
  std::vector<std::string> out;
  out.push_back(participation(v));
  if (v.participants == 0) return out;
  const int e = example_lane >= 0 && has_lane(v.participants, example_lane)
                    ? example_lane
                    : std::countr_zero(v.participants);
  const std::string first_out = cell(v, RowKind::output, e);
  switch (v.family) {
    case IntrinsicFamily::shuffle:
      out.push_back(shuffle_sentence(v, e));
      break;
    case IntrinsicFamily::vote:
      if (v.op == Op::ballot) {
        out.push_back("Each lane's predicate became its bit of one 32-bit word, " + first_out +
                      ", and every lane that took part received that word.");
      } else {
        out.push_back("The predicates were gathered as bits of one word; every lane that took "
                      "part received " + first_out + ".");
      }
      break;
    case IntrinsicFamily::activemask:
      out.push_back("Every lane executing this call received the mask of the lanes executing it "
                    "with it: " + first_out + ".");
      break;
    case IntrinsicFamily::match:
      if (v.op == Op::match_any) {
        int groups = 0;
        for (int lane = 0; lane < kWarpSize; ++lane) groups = std::max(groups, v.group[lane_at(lane)] + 1);
        out.push_back("Lanes passing equal values form a group (" + std::to_string(groups) +
                      (groups == 1 ? " group" : " groups") +
                      "); each lane received the mask of its own group: lane " +
                      std::to_string(e) + " received " + first_out + ".");
      } else {
        out.push_back("Every lane received " + first_out +
                      (reads_as_zero(first_out) ? ": the values differ." : ": all values are equal."));
      }
      break;
    case IntrinsicFamily::reduce:
      out.push_back("Every lane that took part received the one result over all callers' "
                    "values: " + first_out + ".");
      break;
    case IntrinsicFamily::warp_barrier:
      out.push_back("The lanes of the mask wait here for each other; none goes on until all of "
                    "them have arrived.");
      break;
    case IntrinsicFamily::block_barrier:
      if (v.op == Op::barrier_sync) {
        out.push_back("This warp waited at a named barrier until every live lane of it was there "
                      "and enough warps had arrived; warps that do not use this barrier ran on.");
        break;
      }
      out.push_back("Every thread of the block waits here until all of them have arrived" +
                    std::string(v.result == ResultKind::none ? "." : "; each received " + first_out + "."));
      break;
    case IntrinsicFamily::bit:
      break;
  }
  if (v.undefined != 0) {
    out.push_back("The result of " + lanes_phrase(v.undefined) +
                  " is undefined (marked ?): CUDA gives no value there, and the simulator will "
                  "not invent one.");
  }
  if (example_lane >= 0 && example_lane < kWarpSize) {
    const std::string in = cell(v, RowKind::input, example_lane);
    const std::string got = cell(v, RowKind::output, example_lane);
    if (has_lane(v.participants, example_lane)) {
      std::string s = "Watched lane " + std::to_string(example_lane) + ":";
      if (!in.empty()) s += " passed in " + in;
      if (!got.empty()) s += std::string(in.empty() ? "" : ",") + " received " + got;
      out.push_back(s + ".");
    } else {
      out.push_back("Watched lane " + std::to_string(example_lane) + " " +
                    std::string(to_string(v.lanes[lane_at(example_lane)])) + " at this step.");
    }
  }
  return out;
}

}  // namespace warpsim
