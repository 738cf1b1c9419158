// The families' parts of a step's figure (step_figure_builder.hpp says how the builder is split).
#include "model/step_figure_builder.hpp"

#include <algorithm>
#include <bit>
#include <optional>
#include <cmath>
#include <string_view>

#include "model/palette.hpp"

namespace warpsim::gui::figure_detail {

// ---- families
void Builder::shuffle() {
  Span in{};
  if (const StepRow* r = find_row(v_, RowKind::input)) in = value_row(*r);
  if (const StepRow* r = find_row(v_, RowKind::argument)) small_row(*r);
  if (const StepRow* r = find_row(v_, RowKind::width)) small_row(*r);
  const Span arrows = zone(arrow_depth());
  const StepRow* out_row = find_row(v_, RowKind::output);
  const float out_start = arrows.f1 + gap_;
  // Arrows from the source lane's value to the value it became: the watched lane's last.
  const auto arrow = [&](int lane) {
    const int src = v_.source[lane_at(lane)];
    if (src < 0) return;
    const Point a = ax_.point(static_cast<float>(src), arrows.f0 + 1 * s_);
    const Point end = ax_.point(static_cast<float>(lane), out_start - 1 * s_);
    const float t = std::clamp(o_.reveal, 0.0f, 1.0f);
    const Point b{a.x + (end.x - a.x) * t, a.y + (end.y - a.y) * t};
    const bool undefined = has_lane(v_.undefined, lane);
    const bool watched = lane == o_.watched_lane;
    const Rgba colour = undefined ? kPalette.arrow_undefined
                        : watched ? kPalette.arrow_watched
                                  : kPalette.arrow;
    const float thick = (watched ? 2.6f : 1.5f) * s_;
    if (undefined) {
      add_dashed_line(fig_, a, b, colour, thick, 5 * s_, 3 * s_);
      add_arrow(fig_, {b.x - (b.x - a.x) * 0.01f, b.y - (b.y - a.y) * 0.01f}, b, colour, thick,
                8 * s_);
    } else {
      add_arrow(fig_, a, b, colour, thick, 8 * s_);
    }
    if (t >= 1) {
      fig_.probes.push_back({{(a.x + b.x) / 2, (a.y + b.y) / 2}, colour,
                             "arrow " + std::to_string(src) + " -> " + std::to_string(lane)});
    }
  };
  // Predict mode: where each value comes from is part of the answer, so no arrows yet.
  if (!o_.hide_outputs) {
    for (int lane = 0; lane < kWarpSize; ++lane) {
      if (lane != o_.watched_lane) arrow(lane);
    }
    if (o_.watched_lane >= 0 && o_.watched_lane < kWarpSize) arrow(o_.watched_lane);
  } else {
    zone_caption(arrows, "Which lane does each lane read, and what does it receive? "
                         "Guess, then Check: the arrows appear.");
  }
  (void)in;
  if (out_row != nullptr) value_row(*out_row);
  other_row();  // the GPU's values right under the simulator's, to compare lane by lane
  if (const StepRow* r = find_row(v_, RowKind::source); r != nullptr && !o_.hide_outputs) {
    small_row(*r);
  }
}

// The word of one bit per lane: ballot's result, the votes' predicates, __activemask's lanes.
LaneMask Builder::vote_word() const {
  if (v_.op == Op::activemask) return v_.participants;
  LaneMask word = 0;
  if (const StepRow* in = find_row(v_, RowKind::input)) {
    for (int lane = 0; lane < kWarpSize; ++lane) {
      const LaneCell& c = in->cells[lane_at(lane)];
      if (!c.text.empty() && !reads_as_zero(c.text)) word |= lane_bit(lane);
    }
  }
  return word;
}

// A wide label over a zone, on a white ground so that lines under it do not cross the text.
void Builder::zone_caption(Span z, const std::string& text) {
  const float w = text_width(text, Face::small) + 10 * s_;
  const float mid = (ax_.lane0 + ax_.lanes_end()) / 2;
  if (down_) {
    // Lanes down: the caption sits in the header above the zone.
    add_text(fig_, {z.mid(), ax_.lane0 - header_ / 2}, text, kPalette.ink, Face::small,
             Align::center);
    return;
  }
  const Box b{mid - w / 2, z.mid() - m_.small_size / 2 - 2 * s_, mid + w / 2,
              z.mid() + m_.small_size / 2 + 2 * s_};
  add_fill(fig_, b, with_alpha(rgb(0xFFFFFF), 235), 3 * s_);
  add_text(fig_, b.center(), text, kPalette.ink, Face::small, Align::center);
}

// Every participant's out cell fed from one place (a word, a tree's root).
void Builder::fan(Span z, std::optional<float> from_lane_pos) {
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (v_.lanes[lane_at(lane)] != LaneState::took_part) continue;
    const Point a = ax_.point(from_lane_pos.value_or(static_cast<float>(lane)), z.f0);
    add_arrow(fig_, a, ax_.point(static_cast<float>(lane), z.f1 + gap_ - 1 * s_),
              with_alpha(kPalette.arrow, 170), 1.1f * s_, 6 * s_);
  }
}

// A mask too wide for its cell: its hex digits without 0x and leading zeros ("9249"), cut to
// the last digits that fit; the word above and the tooltip give it whole.
std::string Builder::compact_mask(const std::string& text) const {
  const float room = ax_.cell - 6 * s_;
  if (down_ || static_cast<float>(text.size()) * m_.value_advance <= room) return text;
  std::string digits = text.starts_with("0x") ? text.substr(2) : text;
  const auto nonzero = digits.find_first_not_of('0');
  digits = nonzero == std::string::npos ? "0" : digits.substr(nonzero);
  const auto fits = static_cast<std::size_t>(std::max(1.0f, room / m_.value_advance));
  if (digits.size() > fits) digits = "…" + digits.substr(digits.size() - (fits - 1));
  return digits;
}

void Builder::mask_out_row() {
  const StepRow* out = find_row(v_, RowKind::output);
  if (out == nullptr) return;
  const Span span = row(out->label, value_depth_);
  for (int lane = 0; lane < kWarpSize; ++lane) {
    std::string text = compact_mask(out->cells[lane_at(lane)].text);
    if (v_.op == Op::match_any && v_.group[lane_at(lane)] >= 0) {
      text = std::string(group_letter(v_.group[lane_at(lane)]));
    }
    std::optional<Rgba> fill;
    if (v_.op == Op::match_any && v_.group[lane_at(lane)] >= 0) fill = group_colour(v_.group[lane_at(lane)]);
    value_cell(*out, lane, span, fill, text);
  }
}

void Builder::vote() {
  const bool has_in = find_row(v_, RowKind::input) != nullptr;
  if (has_in) value_row(*find_row(v_, RowKind::input));
  // Predict mode: the word is the answer (or, with the predicates hidden, gives them away).
  const bool word_hidden = o_.hide_outputs || o_.hidden_inputs != 0;
  const LaneMask word = word_hidden ? 0 : vote_word();
  const Span drop = zone(28 * s_);
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (v_.lanes[lane_at(lane)] != LaneState::took_part) continue;
    const bool set = !word_hidden && has_lane(word, lane);
    add_arrow(fig_, ax_.point(static_cast<float>(lane), drop.f0),
              ax_.point(static_cast<float>(lane), drop.f1 + gap_ - 1),
              set ? kPalette.arrow : kPalette.rule, (set ? 1.6f : 1.0f) * s_, 6 * s_);
  }
  const Span w = row(v_.op == Op::activemask ? "lanes" : "word", small_depth(1.5f));
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const Box b = ax_.cell_box(lane, w.f0, w.f1);
    if (word_hidden) {
      add_fill(fig_, b, kPalette.hidden, 1.5f * s_);
      add_text(fig_, b.center(), "?", kPalette.faint_ink, Face::small, Align::center);
      probe(b, kPalette.hidden, kPalette.hidden, "word bit " + std::to_string(lane) + " (hidden)");
      continue;
    }
    bit_cell(b, has_lane(word, lane), "word bit " + std::to_string(lane));
  }
  const Span f = zone(30 * s_);
  fan(f, std::nullopt);
  std::string caption;
  switch (word_hidden ? Op::syncwarp : v_.op) {
    case Op::syncwarp:
      caption = "which bits are set? Guess, then Check: the word appears";
      break;
    case Op::ballot:
      caption = "bit i = lane i's predicate:  " + format_mask(word) + " to every lane that took part";
      break;
    case Op::activemask:
      caption = "bit i = lane i is here:  " + format_mask(word) + " to every lane that took part";
      break;
    case Op::any:
      caption = std::string("any bit set?  ") + (word != 0 ? "yes: 1" : "no: 0");
      break;
    case Op::all:
      caption = std::string("every caller's bit set?  ") +
                ((word & v_.participants) == v_.participants ? "yes: 1" : "no: 0");
      break;
    case Op::uni:
      caption = std::string("all callers' bits equal?  ") +
                ((word == 0 || (word & v_.participants) == v_.participants) ? "yes: 1" : "no: 0");
      break;
    default:
      break;
  }
  zone_caption(f, caption);
  if (v_.result == ResultKind::lane_mask) {
    mask_out_row();
  } else if (const StepRow* out = find_row(v_, RowKind::output)) {
    value_row(*out);
  }
  other_row();
}

void Builder::match() {
  const StepRow* in = find_row(v_, RowKind::input);
  if (in != nullptr) {
    const Span span = row(in->label, value_depth_);
    for (int lane = 0; lane < kWarpSize; ++lane) {
      std::optional<Rgba> fill;
      if (v_.group[lane_at(lane)] >= 0 && !o_.hide_outputs) fill = group_colour(v_.group[lane_at(lane)]);
      value_cell(*in, lane, span, fill);
    }
  }
  // One bracket per group: ticks from each member down to a line that joins them. Predict
  // mode: the groups are the answer, so none is drawn yet.
  int groups = 0;
  for (int lane = 0; lane < kWarpSize; ++lane) groups = std::max(groups, v_.group[lane_at(lane)] + 1);
  const bool all = v_.op == Op::match_all;
  if (all && v_.participants != 0) groups = 1;
  if (o_.hide_outputs) groups = 0;
  const int levels = std::clamp(groups, 1, 4);
  const float level_step = 9 * s_;
  const Span z = zone(level_step * static_cast<float>(levels + 1) + 4 * s_);
  for (int g = 0; g < groups; ++g) {
    int first = -1, last = -1;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      const bool member = all ? v_.lanes[lane_at(lane)] == LaneState::took_part : v_.group[lane_at(lane)] == g;
      if (!member) continue;
      if (first < 0) first = lane;
      last = lane;
      const float level = z.f0 + level_step * static_cast<float>(g % levels + 1);
      add_line(fig_, ax_.point(static_cast<float>(lane), z.f0),
               ax_.point(static_cast<float>(lane), level), darker(group_colour(g)), 1.5f * s_);
    }
    if (first < 0) continue;
    const float level = z.f0 + level_step * static_cast<float>(g % levels + 1);
    add_line(fig_, ax_.point(static_cast<float>(first), level),
             ax_.point(static_cast<float>(last), level), darker(group_colour(g)), 2 * s_);
  }
  if (all && !o_.hide_outputs) {
    const StepRow* pred = find_row(v_, RowKind::predicate);
    const bool agree = pred != nullptr && v_.participants != 0 &&
                       pred->cells[lane_at(std::countr_zero(v_.participants))].text == "1";
    zone_caption({z.f1 - level_step, z.f1},
                 agree ? "all values equal: every caller gets the callers' mask, *pred = 1"
                       : "values differ: every caller gets 0, *pred = 0");
  }
  mask_out_row();
  other_row();
  if (!all && groups > 0) {
    // Which letter is which mask.
    std::string legend;
    for (int g = 0; g < groups && g < 8; ++g) {
      const int lowest = [&] {
        for (int lane = 0; lane < kWarpSize; ++lane) {
          if (v_.group[lane_at(lane)] == g) return lane;
        }
        return 0;
      }();
      LaneMask members = 0;
      for (int lane = 0; lane < kWarpSize; ++lane) {
        if (v_.group[lane_at(lane)] == g) members |= lane_bit(lane);
      }
      (void)lowest;
      legend += std::string(legend.empty() ? "" : "   ") + std::string(group_letter(g)) + " = " +
                format_mask(members);
    }
    if (groups > 8) legend += "   ... (" + std::to_string(groups) + " groups)";
    group_legend_ = "groups (same value, same letter): " + legend;
  }
}

Rgba Builder::darker(Rgba c) {
  return {static_cast<std::uint8_t>(c.r * 0.55f), static_cast<std::uint8_t>(c.g * 0.55f),
          static_cast<std::uint8_t>(c.b * 0.55f), 255};
}

std::string_view Builder::reduce_symbol() const {
  switch (v_.op) {
    case Op::reduce_add:
      return "+";
    case Op::reduce_min:
      return "min";
    case Op::reduce_max:
      return "max";
    case Op::reduce_and:
      return "&";
    case Op::reduce_or:
      return "|";
    case Op::reduce_xor:
      return "^";
    default:
      return "";
  }
}

void Builder::reduce() {
  if (const StepRow* in = find_row(v_, RowKind::input)) value_row(*in);
  // A tree: level k joins groups of 2^k lanes; only groups holding a caller are drawn.
  const float level_step = (down_ ? 22 : 15) * s_;
  const Span tree = zone(level_step * 5 + 4 * s_);
  const auto group_pos = [](int k, int j) {
    const float size = static_cast<float>(1 << k);
    return static_cast<float>(j) * size + size / 2 - 0.5f;
  };
  const auto has_caller = [&](int k, int j) {
    const int size = 1 << k;
    for (int lane = j * size; lane < (j + 1) * size; ++lane) {
      if (v_.lanes[lane_at(lane)] == LaneState::took_part) return true;
    }
    return false;
  };
  const Rgba line = with_alpha(kPalette.arrow, 200);
  for (int k = 1; k <= 5; ++k) {
    const float f = tree.f0 + level_step * static_cast<float>(k);
    const float child_f = tree.f0 + level_step * static_cast<float>(k - 1);
    for (int j = 0; j < (kWarpSize >> k); ++j) {
      if (!has_caller(k, j)) continue;
      const Point node = ax_.point(group_pos(k, j), f);
      for (int c = 0; c < 2; ++c) {
        if (!has_caller(k - 1, 2 * j + c)) continue;
        add_line(fig_, ax_.point(group_pos(k - 1, 2 * j + c), child_f), node, line, 1.2f * s_);
      }
      if (k < 5) {
        fig_.shapes.emplace_back(Circle{node, 2.2f * s_, kPalette.arrow, kPalette.arrow, 1});
      }
    }
  }
  // The root: the one result, then out to every caller.
  const StepRow* out = find_row(v_, RowKind::output);
  std::string result;
  if (out != nullptr && v_.participants != 0) {
    result = out->cells[lane_at(std::countr_zero(v_.participants))].text;
  }
  if (o_.hide_outputs) result = "?";
  const Span root = zone(value_depth_);
  const float half = std::max(2.5f, (static_cast<float>(result.size() + 6) * m_.value_advance) /
                                        ax_.pitch / 2);
  const Box rb = ax_.span_box(ax_.lane_mid(15.5f) - half * ax_.pitch,
                              ax_.lane_mid(15.5f) + half * ax_.pitch, root.f0, root.f1);
  add_line(fig_, ax_.point(15.5f, tree.f1 - 4 * s_), ax_.point(15.5f, root.f0), line, 1.2f * s_);
  add_fill(fig_, rb, kPalette.result, 3 * s_);
  add_stroke(fig_, rb, okabe_ito::bluish_green, 1.5f * s_, 3 * s_);
  add_text(fig_, rb.center(), std::string(reduce_symbol()) + " = " + result, kPalette.ink,
           Face::value, Align::center);
  fig_.probes.push_back({{rb.x0 + 3, rb.center().y}, kPalette.result, "reduction result"});
  const Span f = zone(30 * s_);
  fan(f, 15.5f);
  if (out != nullptr) value_row(*out);
  other_row();
}

void Builder::barrier() {
  if (const StepRow* in = find_row(v_, RowKind::input)) value_row(*in);
  const Span z = zone(34 * s_);
  const float bar = 6 * s_;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const LaneState state = v_.lanes[lane_at(lane)];
    if (state == LaneState::took_part) {
      add_arrow(fig_, ax_.point(static_cast<float>(lane), z.f0),
                ax_.point(static_cast<float>(lane), z.f1 - bar), kPalette.arrow, 1.5f * s_,
                7 * s_);
    } else if (state == LaneState::inactive) {
      // Named but elsewhere: it never reaches the bar.
      add_dashed_line(fig_, ax_.point(static_cast<float>(lane), z.f0),
                      ax_.point(static_cast<float>(lane), z.mid()), okabe_ito::orange,
                      1.5f * s_, 3 * s_, 3 * s_);
    }
  }
  const Box bar_box = ax_.span_box(ax_.lane0, ax_.lanes_end(), z.f1 - bar, z.f1);
  add_fill(fig_, bar_box, kPalette.barrier, 1.5f * s_);
  fig_.probes.push_back({bar_box.center(), kPalette.barrier, "barrier bar"});
  const Span c = zone(m_.small_size + 8 * s_);
  zone_caption(c, v_.op == Op::syncwarp
                      ? "__syncwarp: each lane of the mask waits here until all of them arrive"
                  : v_.op == Op::barrier_sync
                      ? "__barrier_sync: the warp waits here until all its live lanes and the "
                        "barrier's count of threads have arrived; warps that do not use it run on"
                      : "__syncthreads: each thread waits here until every thread of the block "
                        "arrives");
  if (const StepRow* out = find_row(v_, RowKind::output)) value_row(*out);
  other_row();
}

// A deadlock (wait_view.hpp): each waiting lane's call, line and mask, then every one of them
// stopped at a wall that no lane gets past.
void Builder::wait() {
  for (const StepRow& r : v_.rows) small_row(r);
  const Span z = zone(34 * s_);
  const float bar = 6 * s_;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (v_.lanes[lane_at(lane)] != LaneState::took_part) continue;
    add_arrow(fig_, ax_.point(static_cast<float>(lane), z.f0),
              ax_.point(static_cast<float>(lane), z.f1 - bar), okabe_ito::vermillion, 1.5f * s_,
              7 * s_);
  }
  const Box bar_box = ax_.span_box(ax_.lane0, ax_.lanes_end(), z.f1 - bar, z.f1);
  add_fill(fig_, bar_box, okabe_ito::vermillion, 1.5f * s_);
  fig_.probes.push_back({bar_box.center(), okabe_ito::vermillion, "deadlock bar"});
  // Lanes down, a caption would sit over the rows' labels: the banners say it there.
  if (!down_) {
    const Span c = zone(m_.small_size + 8 * s_);
    zone_caption(c, "deadlock: every lane waits for lanes that never arrive; a GPU hangs here");
  }
}

// The other side's (the GPU's) row, once: under the outputs.
void Builder::other_row() {
  const StepRow* other = find_row(v_, RowKind::other);
  if (other == nullptr || other_drawn_) return;
  other_drawn_ = true;
  const Span span = row(other->label, value_depth_);
  const StepRow* out = find_row(v_, RowKind::output);
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const std::string& text = other->cells[lane_at(lane)].text;
    if (v_.op == Op::match_any && out != nullptr) {
      // In the simulator's row's notation: the letter (and colour) of the group whose mask it
      // is; a mask the simulator gave no lane keeps its digits.
      int group = -1;
      for (int l = 0; l < kWarpSize && group < 0; ++l) {
        if (v_.group[lane_at(l)] >= 0 && out->cells[lane_at(l)].text == text) group = v_.group[lane_at(l)];
      }
      if (group >= 0) {
        value_cell(*other, lane, span, group_colour(group), std::string(group_letter(group)));
        continue;
      }
    }
    value_cell(*other, lane, span, std::nullopt,
               v_.result == ResultKind::lane_mask ? compact_mask(text) : "");
  }
}

// Rows not drawn by a family (match_all's *pred, the GPU's), after everything else.
void Builder::trailing_rows() {
  for (const StepRow& r : v_.rows) {
    if (r.kind == RowKind::predicate) small_row(r);
  }
  other_row();
  // What each lane holds once it has used the result (the next pass's value in).
  if (const StepRow* after = find_row(v_, RowKind::after)) value_row(*after);
}

}  // namespace warpsim::gui::figure_detail
