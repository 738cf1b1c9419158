#include "model/step_figure.hpp"

#include <algorithm>
#include <bit>
#include <optional>
#include <cmath>
#include <string_view>

#include "model/palette.hpp"
#include "model/step_figure_builder.hpp"

namespace warpsim::gui {
namespace figure_detail {

Figure Builder::build() {
  down_ = choose_orientation(v_, o_) == Orientation::lanes_down;
  margin_ = 10 * s_;
  y_ = margin_;
  if (o_.title) title();
  banners();
  lanes();
  if (o_.legend) legend();
  fig_.width = std::max(down_ ? flow_ + margin_ : o_.width, widest_text_ + 2 * margin_);
  fig_.height = y_ + margin_;
  fig_.fonts = m_;
  return std::move(fig_);
}

// ---- text outside the lane section
float Builder::text_width(std::string_view text, Face face) const {
  if (o_.measure) return o_.measure(text, face);
  const float advance = face == Face::value   ? m_.value_advance
                        : face == Face::small ? m_.label_advance * m_.small_size / m_.label_size
                        : face == Face::title ? m_.label_advance * m_.title_size / m_.label_size
                                              : m_.label_advance;
  return static_cast<float>(text.size()) * advance;
}

float Builder::face_size(Face face) const {
  switch (face) {
    case Face::value:
      return m_.value_size;
    case Face::small:
      return m_.small_size;
    case Face::title:
      return m_.title_size;
    case Face::label:
      break;
  }
  return m_.label_size;
}

void Builder::text_line(std::string text, Face face, Rgba colour) {
  const float h = face_size(face) + 4 * s_;
  widest_text_ = std::max(widest_text_, text_width(text, face));
  add_text(fig_, {margin_, y_ + h / 2}, std::move(text), colour, face);
  y_ += h;
}

void Builder::title() {
  const Palette& p = kPalette;
  std::string head = v_.name;
  for (const auto& [name, value] : v_.facts) head += "  ·  " + name + " " + value;
  const std::string which =
      !v_.waits             ? "step " + std::to_string(v_.position + 1) + " of " +
                                  std::to_string(v_.warp_steps)
      : v_.warp_steps == 0 ? std::string("before any step")
                           : "after step " + std::to_string(v_.warp_steps) + " of " +
                                 std::to_string(v_.warp_steps);
  std::string where = which + " of block " +
                      std::to_string(v_.warp.block) + ", warp " + std::to_string(v_.warp.warp) +
                      "  ·  " + v_.site;
  if (v_.pass > 1) where += " (pass " + std::to_string(v_.pass) + ")";
  // Where the step is: on the title's line, right-aligned, when both fit; else below it.
  const float h = m_.title_size + 4 * s_;
  const float room = o_.width - 2 * margin_;
  widest_text_ = std::max(widest_text_, text_width(head, Face::title));
  add_text(fig_, {margin_, y_ + h / 2}, head, p.ink, Face::title);
  if (!down_ && text_width(head, Face::title) + text_width(where, Face::small) + 30 * s_ <= room) {
    add_text(fig_, {o_.width - margin_, y_ + h / 2}, where, p.faint_ink, Face::small,
             Align::right);
    y_ += h;
  } else {
    y_ += h;
    text_line(where, Face::small, p.faint_ink);
  }
  if (o_.contract) text_line(v_.contract, Face::label, p.ink);
  for (const std::string& paragraph : o_.caption) wrapped(paragraph, Face::label, p.ink);
  y_ += 4 * s_;
}

// A paragraph broken into lines at spaces to fit `room` pixels (a word longer than a line is
// cut where it must be).
std::vector<std::string> Builder::wrap(const std::string& paragraph, Face face, float room) const {
  std::vector<std::string> lines;
  std::string line;
  std::size_t at = 0;
  while (at < paragraph.size()) {
    std::size_t end = paragraph.find(' ', at);
    if (end == std::string::npos) end = paragraph.size();
    std::string word = paragraph.substr(at, end - at);
    at = end + 1;
    const std::string longer = line.empty() ? word : line + " " + word;
    if (line.empty() || text_width(longer, face) <= room) {
      line = longer;
    } else {
      lines.push_back(line);
      line = word;
    }
    while (text_width(line, face) > room && line.size() > 1) {
      std::size_t cut = line.size() - 1;
      while (cut > 1 && text_width(line.substr(0, cut), face) > room) --cut;
      lines.push_back(line.substr(0, cut));
      line = line.substr(cut);
    }
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

void Builder::wrapped(const std::string& paragraph, Face face, Rgba colour) {
  for (const std::string& line :
       wrap(paragraph, face, std::max(200.0f, o_.width - 2 * margin_))) {
    text_line(line, face, colour);
  }
}

// A banner: the text wrapped to the figure's width, in a box as loud as its colours.
void Builder::banner(const std::string& text, Rgba fill, Rgba edge) {
  const float line_h = m_.label_size + 4 * s_;
  const float w = std::max(200.0f, o_.width - 2 * margin_);
  const std::vector<std::string> lines = wrap(text, Face::label, w - 16 * s_);
  const float h = line_h * static_cast<float>(lines.size()) + 6 * s_;
  const Box b{margin_, y_, margin_ + w, y_ + h};
  add_fill(fig_, b, fill, 3 * s_);
  add_stroke(fig_, b, edge, 1.5f * s_, 3 * s_);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    add_text(fig_, {b.x0 + 8 * s_, b.y0 + 3 * s_ + line_h * (static_cast<float>(i) + 0.5f)},
             lines[i], kPalette.ink, Face::label);
  }
  fig_.probes.push_back({{b.x0 + 3, b.center().y}, fill, "diagnostic banner"});
  y_ += h + 4 * s_;
}

void Builder::banners() {
  for (const std::string& d : o_.diagnostics) {
    banner("! " + d, kPalette.diagnostic_fill, kPalette.diagnostic);
  }
  if (v_.has_other && o_.other_is_expected) {
    if (v_.other_differs != 0) {
      banner("! Lane" + std::string(std::popcount(v_.other_differs) > 1 ? "s " : " ") +
                 format_lanes(v_.other_differs) +
                 " received other values than the reference solution's (row 'expected')",
             tint(kPalette.differs, 0.2f), kPalette.differs);
    } else {
      text_line(
          "Every lane received what the reference solution's lanes did here (row "
          "'expected')",
          Face::small, kPalette.faint_ink);
    }
  } else if (v_.has_other && v_.other_differs != 0) {
    banner("! The GPU's result differs from the simulator's at lane" +
               std::string(std::popcount(v_.other_differs) > 1 ? "s " : " ") +
               format_lanes(v_.other_differs) + (o_.other_note.empty() ? "" : "  (" + o_.other_note + ")"),
           tint(kPalette.differs, 0.2f), kPalette.differs);
  } else if (v_.has_other && !o_.other_note.empty()) {
    text_line("The GPU agrees at every lane  (" + o_.other_note + ")", Face::small,
              kPalette.faint_ink);
  }
}

// ---- the lane section
void Builder::lanes() {
  const float row_label_w = kLabelChars * m_.label_advance;
  header_ = down_ ? m_.small_size + 12 * s_ : 0;
  if (down_) {
    ax_.down = true;
    ax_.pitch = m_.value_size + 8 * s_;
    ax_.cell = ax_.pitch - 2 * s_;
    ax_.lane0 = y_ + header_;
    flow_ = margin_;
  } else {
    ax_.pitch = std::clamp((o_.width - 2 * margin_ - row_label_w) / kWarpSize, 14 * s_, 90 * s_);
    ax_.cell = ax_.pitch - std::max(2.0f, ax_.pitch * 0.08f);
    ax_.lane0 = margin_ + row_label_w;
    flow_ = y_;
  }
  value_depth_ = down_ ? static_cast<float>(std::max<std::size_t>(widest_value(v_), 3)) *
                                 m_.value_advance + 14 * s_
                       : m_.value_size + 10 * s_;
  gap_ = 3 * s_;

  const float section_start = flow_;
  // The watched lane's band is painted first, under everything in its column.
  const std::size_t band_index = fig_.shapes.size();
  if (o_.watched_lane >= 0) add_fill(fig_, {}, kPalette.watched_band);

  lane_numbers();
  state_row();
  if (!v_.waits && !is_block_barrier(v_.op) && v_.op != Op::activemask) mask_row();
  history_bands();
  flow_ += 4 * s_;

  if (v_.waits) {
    wait();
  } else {
    switch (v_.family) {
      case IntrinsicFamily::shuffle:
        shuffle();
        break;
      case IntrinsicFamily::vote:
      case IntrinsicFamily::activemask:
        vote();
        break;
      case IntrinsicFamily::match:
        match();
        break;
      case IntrinsicFamily::reduce:
        reduce();
        break;
      case IntrinsicFamily::warp_barrier:
      case IntrinsicFamily::block_barrier:
        barrier();
        break;
      case IntrinsicFamily::bit:
        break;
    }
  }
  trailing_rows();

  if (o_.watched_lane >= 0 && o_.watched_lane < kWarpSize) {
    const float a = ax_.lane_start(o_.watched_lane) - (ax_.pitch - ax_.cell) / 2;
    std::get<FillRect>(fig_.shapes[band_index]).box =
        ax_.span_box(a, a + ax_.pitch, section_start - 2 * s_, flow_ + 2 * s_);
  }
  y_ = down_ ? ax_.lanes_end() + 8 * s_ : flow_ + 8 * s_;
}

Span Builder::row(std::string_view label, float depth, Face face) {
  // Lanes down: the label heads its column, so the column is at least as wide as the label.
  if (down_) depth = std::max(depth, text_width(label, Face::small) + 8 * s_);
  const Span r{flow_, flow_ + depth};
  flow_ += depth + gap_;
  if (down_) {
    add_text(fig_, {r.mid(), ax_.lane0 - header_ / 2}, std::string(label), kPalette.faint_ink,
             Face::small, Align::center);
  } else {
    add_text(fig_, {ax_.lane0 - 8 * s_, r.mid()}, std::string(label), kPalette.faint_ink, face,
             Align::right);
  }
  return r;
}

Span Builder::zone(float depth) {
  const Span z{flow_, flow_ + depth};
  flow_ += depth + gap_;
  return z;
}

float Builder::small_depth(float chars) const {
  return down_ ? chars * m_.label_advance * m_.small_size / m_.label_size + 10 * s_
               : m_.small_size + 7 * s_;
}

// A cell painted as its lane's state: fill, pattern and outline.
// `cross`: whether an exited lane's cell is crossed out (not where its tag must be read).
void Builder::state_cell(Box b, LaneState state, const std::string& what, bool cross) {
  const LaneStyle ls = lane_style(state);
  add_fill(fig_, b, ls.fill, 2 * s_);
  if (ls.pattern == Pattern::hatched) add_hatching(fig_, b, ls.pattern_colour, 6 * s_, 1.2f * s_);
  if (ls.pattern == Pattern::crossed && cross) {
    add_cross(fig_, b, ls.pattern_colour, 1.3f * s_, 4 * s_);
  }
  if (ls.dashed_outline) {
    add_dashed_stroke(fig_, b, ls.outline, 1.2f * s_, 3 * s_, 2 * s_);
  } else {
    add_stroke(fig_, b, ls.outline, 1.2f * s_, 2 * s_);
  }
  probe(b, ls.fill, ls.pattern == Pattern::hatched ? ls.pattern_colour : ls.fill, what);
}

void Builder::probe(Box b, Rgba colour, Rgba alt, std::string what) {
  // Left of centre, clear of the outline and of centred text.
  Probe p{{b.x0 + 3, b.center().y}, colour, std::move(what)};
  fig_.probes.push_back(p);
  if (!(alt == colour)) {
    p.colour = alt;
    p.what += " (pattern)";
    fig_.probes.push_back(p);
  }
}

std::string Builder::fit(const std::string& text, float room) const {
  if (down_) return text;
  const auto fits = static_cast<std::size_t>(std::max(0.0f, room / m_.value_advance));
  if (columns(text) <= fits) return text;
  if (fits <= 1) return "…";
  return first_columns(text, fits - 1) + "…";
}

void Builder::lane_numbers() {
  const Span r = row("lane", small_depth(2.5f));
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const Box b = ax_.cell_box(lane, r.f0, r.f1);
    add_text(fig_, b.center(), std::to_string(lane),
             lane == o_.watched_lane ? kPalette.ink : kPalette.faint_ink, Face::small,
             Align::center);
  }
}

void Builder::state_row() {
  const Span r = row("state", small_depth(4.5f));
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const LaneState state = v_.lanes[lane_at(lane)];
    const Box b = ax_.cell_box(lane, r.f0, r.f1);
    state_cell(b, state, "lane " + std::to_string(lane) + " state (" +
                             std::string(to_string(state)) + ")", false);
    const LaneStyle ls = lane_style(state);
    add_text(fig_, b.center(), std::string(ls.tag), ls.text, Face::small, Align::center);
    fig_.hits.push_back({b, lane, RowKind::input,
                         "lane " + std::to_string(lane) + " " +
                             std::string(state_explanation(state))});
  }
}

void Builder::mask_row() {
  const Span r = row("mask", small_depth(1.5f));
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const bool set = has_lane(v_.mask, lane);
    const Box b = ax_.cell_box(lane, r.f0, r.f1);
    bit_cell(b, set, "mask bit " + std::to_string(lane));
  }
}

void Builder::bit_cell(Box b, bool set, std::string what) {
  add_fill(fig_, b, set ? kPalette.bit_set : kPalette.bit_clear, 1.5f * s_);
  add_stroke(fig_, b, set ? kPalette.bit_set : kPalette.rule, 1, 1.5f * s_);
  add_text(fig_, b.center(), set ? "1" : "0", set ? rgb(0xFFFFFF) : kPalette.faint_ink,
           Face::small, Align::center);
  probe(b, set ? kPalette.bit_set : kPalette.bit_clear, set ? kPalette.bit_set : kPalette.bit_clear,
        std::move(what));
}

// The warp's earlier steps, oldest first, as thin bands: a butterfly draws itself.
void Builder::history_bands() {
  if (history_.empty()) return;
  const float depth = down_ ? 44 * s_ : 20 * s_;
  const Rgba faded = with_alpha(kPalette.arrow, 120);
  for (const StepView& h : history_) {
    std::string name = short_name(h);
    if (name.starts_with("shfl_")) name.erase(0, 5);
    const Span r = row(std::to_string(h.position + 1) + ": " + name, depth, Face::small);
    if (h.family == IntrinsicFamily::shuffle) {
      // Lines, no heads: together the bands draw the network of the shuffles so far.
      for (int lane = 0; lane < kWarpSize; ++lane) {
        const int src = h.source[lane_at(lane)];
        if (src < 0) continue;
        add_line(fig_, ax_.point(static_cast<float>(src), r.f0 + 1 * s_),
                 ax_.point(static_cast<float>(lane), r.f1 - 1 * s_), faded, 1.0f * s_);
      }
    } else {
      for (int lane = 0; lane < kWarpSize; ++lane) {
        if (h.lanes[lane_at(lane)] != LaneState::took_part) continue;
        add_line(fig_, ax_.point(static_cast<float>(lane), r.f0 + 3 * s_),
                 ax_.point(static_cast<float>(lane), r.f1 - 3 * s_), faded, 1.0f * s_);
      }
    }
  }
  const Span rule = zone(1);
  add_line(fig_, ax_.point(-0.5f, rule.f0), ax_.point(kWarpSize - 0.5f, rule.f0), kPalette.rule,
           1);
}

// One lane's cell of a value row.
void Builder::value_cell(const StepRow& r, int lane, Span span, std::optional<Rgba> fill_override,
                std::string text_override) {
  const LaneCell& c = r.cells[lane_at(lane)];
  const LaneState state = v_.lanes[lane_at(lane)];
  const Box b = ax_.cell_box(lane, span.f0, span.f1);
  const std::string who = "lane " + std::to_string(lane) + " " + r.label;
  const bool hidden = (o_.hide_outputs && (r.kind == RowKind::output || r.kind == RowKind::other ||
                                           r.kind == RowKind::after)) ||
                      (o_.hide_after && r.kind == RowKind::after) ||
                      (r.kind == RowKind::input && has_lane(o_.hidden_inputs, lane));
  if (c.text.empty() && state != LaneState::took_part) {
    state_cell(b, state, who + " (" + std::string(to_string(state)) + ")");
    fig_.hits.push_back({b, lane, r.kind, "lane " + std::to_string(lane) + " " +
                                              std::string(state_explanation(state))});
    return;
  }
  const LaneStyle ls = lane_style(LaneState::took_part);
  if (hidden) {
    add_fill(fig_, b, kPalette.hidden, 2 * s_);
    add_dashed_stroke(fig_, b, kPalette.faint_ink, 1, 3 * s_, 2 * s_);
    // The guesses sit in the row asked about: the inputs' when those are hidden.
    const bool asked_row = r.kind == (o_.hidden_inputs != 0 ? RowKind::input : RowKind::output);
    const std::string& guess = asked_row ? o_.guesses[lane_at(lane)] : std::string();
    add_text(fig_, b.center(), guess.empty() ? "?" : fit(guess, ax_.cell - 6 * s_),
             guess.empty() ? kPalette.faint_ink : okabe_ito::blue, Face::value, Align::center);
    probe(b, kPalette.hidden, kPalette.hidden, who + " (hidden)");
    fig_.hits.push_back({b, lane, r.kind,
                         "lane " + std::to_string(lane) +
                             (r.kind == RowKind::input   ? ": what does it pass in?"
                              : r.kind == RowKind::after ? ": what does it hold after the step?"
                                                         : ": what does it receive?") +
                             " Type your guess in the Predict panel"});
    return;
  }
  const Rgba fill = c.undefined ? tint(kPalette.undefined, 0.25f)
                    : c.differs ? tint(kPalette.differs, 0.3f)
                                : fill_override.value_or(ls.fill);
  add_fill(fig_, b, fill, 2 * s_);
  if (c.undefined) {
    add_stroke(fig_, b, kPalette.undefined, 2 * s_, 2 * s_);
  } else if (c.differs) {
    add_stroke(fig_, b, kPalette.differs, 2.5f * s_, 2 * s_);
  } else {
    add_stroke(fig_, b, ls.outline, 1.2f * s_, 2 * s_);
  }
  std::string text = text_override.empty() ? c.text : text_override;
  if (c.undefined) text = "?" + text;
  if (c.differs) text = "!" + text;
  const Rgba ink = c.undefined ? kPalette.undefined : kPalette.ink;
  add_text(fig_, b.center(), fit(text, ax_.cell - 6 * s_), ink, Face::value, Align::center);
  probe(b, fill, fill, who + (c.undefined ? " (undefined)" : c.differs ? " (differs)" : ""));
  std::string tip = "lane " + std::to_string(lane) + " " + r.label + ": " + c.text;
  if (r.kind == RowKind::output) {
    tip = "lane " + std::to_string(lane) + " received " + c.text;
    if (v_.source[lane_at(lane)] >= 0) tip += " from lane " + std::to_string(v_.source[lane_at(lane)]);
    if (c.undefined) tip += " (undefined: CUDA gives no value here)";
  } else if (r.kind == RowKind::input) {
    tip = "lane " + std::to_string(lane) + " passed in " + c.text;
  } else if (r.kind == RowKind::after) {
    tip = "lane " + std::to_string(lane) + " holds " + c.text +
          " after the step (what it passes in at the call's next pass)";
  } else if (r.kind == RowKind::other) {
    tip = "lane " + std::to_string(lane) + " on the GPU received " + c.text +
          (c.differs ? " (the simulator's differs)" : "");
  }
  fig_.hits.push_back({b, lane, r.kind, std::move(tip)});
}

Span Builder::value_row(const StepRow& r, float depth) {
  const Span span = row(r.label, depth > 0 ? depth : value_depth_);
  for (int lane = 0; lane < kWarpSize; ++lane) value_cell(r, lane, span);
  return span;
}

Span Builder::small_row(const StepRow& r) {
  std::size_t chars = 2;
  for (const LaneCell& c : r.cells) chars = std::max(chars, c.text.size());
  const Span span = row(r.label, small_depth(static_cast<float>(chars) + 0.5f));
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const LaneCell& c = r.cells[lane_at(lane)];
    if (c.text.empty()) continue;
    add_text(fig_, ax_.cell_box(lane, span.f0, span.f1).center(), c.text, kPalette.faint_ink,
             Face::small, Align::center);
  }
  return span;
}

// ---- legend
void Builder::legend() {
  const float h = m_.small_size + 10 * s_;
  float x = margin_;
  const float right = std::max(o_.width, fig_.width) - margin_;
  const auto place = [&](float w) {
    if (x + w > right && x > margin_) {
      x = margin_;
      y_ += h + 2 * s_;
    }
    const float at_x = x;
    x += w + 14 * s_;
    return at_x;
  };
  if (!group_legend_.empty()) text_line(group_legend_, Face::small, kPalette.ink);
  for (const LaneState state : {LaneState::took_part, LaneState::inactive,
                                LaneState::not_in_mask, LaneState::exited}) {
    const LaneStyle ls = lane_style(state);
    const std::string name(to_string(state));
    const float sw = 26 * s_;
    const std::string text = std::string(ls.tag) + ": " + name;
    const float x0 = place(sw + 6 * s_ + text_width(text, Face::small));
    const Box b{x0, y_, x0 + sw, y_ + h - 2 * s_};
    const std::size_t probes = fig_.probes.size();
    state_cell(b, state, "legend " + name);
    fig_.probes.resize(probes);  // the legend is not what a test should find
    add_text(fig_, {b.x1 + 6 * s_, b.center().y}, text, kPalette.ink, Face::small);
  }
  if (v_.family == IntrinsicFamily::shuffle) {
    const float x0 = place(30 * s_ + text_width("value read from lane", Face::small));
    add_arrow(fig_, {x0, y_ + h / 2}, {x0 + 24 * s_, y_ + h / 2}, kPalette.arrow, 1.5f * s_,
              7 * s_);
    add_text(fig_, {x0 + 30 * s_, y_ + h / 2}, "value read from lane", kPalette.ink, Face::small);
  }
  const auto glyph = [&](const std::string& mark, Rgba colour, const std::string& text) {
    const float x0 = place(text_width(mark + " " + text, Face::small));
    add_text(fig_, {x0, y_ + h / 2}, mark, colour, Face::value);
    add_text(fig_, {x0 + text_width(mark, Face::value) + 4 * s_, y_ + h / 2}, text, kPalette.ink,
             Face::small);
  };
  if (v_.undefined != 0) glyph("?", kPalette.undefined, "undefined result");
  if (v_.has_other) glyph("!", kPalette.differs, "differs from the GPU");
  if (o_.watched_lane >= 0) {
    const float x0 = place(30 * s_ + text_width("watched lane", Face::small));
    add_fill(fig_, {x0, y_, x0 + 24 * s_, y_ + h - 2 * s_}, kPalette.watched_band, 2 * s_);
    add_text(fig_, {x0 + 30 * s_, y_ + h / 2}, "watched lane " + std::to_string(o_.watched_lane),
             kPalette.ink, Face::small);
  }
  y_ += h;
}

}  // namespace figure_detail

using figure_detail::Builder;
using figure_detail::kLabelChars;
using figure_detail::widest_value;


std::string short_name(const StepView& step) {
  std::string name = step.name;
  if (name.starts_with("__")) name.erase(0, 2);
  if (name.ends_with("_sync")) name.erase(name.size() - 5);
  if (step.family == IntrinsicFamily::shuffle) {
    for (const auto& [fact, value] : step.facts) {
      if (fact == "laneMask" || fact == "delta" || fact == "srcLane") return name + " " + value;
    }
  }
  return name;
}

Orientation choose_orientation(const StepView& step, const StepFigureOptions& options) {
  if (options.orientation != Orientation::automatic) return options.orientation;
  const FontMetrics& m = options.metrics;
  const float s = m.value_size / 14.0f;
  const float pitch = std::clamp((options.width - 20 * s - kLabelChars * m.label_advance) / kWarpSize,
                                 14 * s, 90 * s);
  const float cell = pitch - std::max(2.0f, pitch * 0.08f);
  const float needed = static_cast<float>(widest_value(step)) * m.value_advance + 6 * s;
  return needed <= cell ? Orientation::lanes_across : Orientation::lanes_down;
}

Figure build_step_figure(const StepView& step, std::span<const StepView> history,
                         const StepFigureOptions& options) {
  return Builder(step, history, options).build();
}

}  // namespace warpsim::gui
