#include "model/step_figure.hpp"

#include <algorithm>
#include <bit>
#include <optional>
#include <cmath>
#include <string_view>

#include "model/palette.hpp"

namespace warpsim::gui {
namespace {

// Characters as they are shown: UTF-8 continuation bytes do not count ("…" is one).
std::size_t columns(std::string_view text) {
  std::size_t n = 0;
  for (const char c : text) n += (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  return n;
}

// The first `n` characters of `text` (never half of one).
std::string first_columns(std::string_view text, std::size_t n) {
  std::size_t at = 0, seen = 0;
  while (at < text.size()) {
    if ((static_cast<unsigned char>(text[at]) & 0xc0) != 0x80 && seen++ == n) break;
    ++at;
  }
  return std::string(text.substr(0, at));
}

// The row labels' column, in characters of the label face ("laneMask", "4: xor 16").
constexpr float kLabelChars = 9.5f;


std::string_view state_explanation(LaneState state) {
  switch (state) {
    case LaneState::took_part:
      return "took part in this call";
    case LaneState::inactive:
      return "is named in the mask but diverged: it is running other code";
    case LaneState::not_in_mask:
      return "is not named in the mask and not at this call";
    case LaneState::exited:
      return "has returned from the kernel";
  }
  return "";
}

// Rows whose cells are values of the step's type: they decide the cell size.
bool sizes_cells(const StepView& v, RowKind kind) {
  switch (kind) {
    case RowKind::input:
    case RowKind::argument:
    case RowKind::width:
      return true;
    case RowKind::after:
      return true;
    case RowKind::output:
    case RowKind::other:
      // Masks out (ballot, match) are drawn compactly: their word is drawn bit by bit.
      return v.result == ResultKind::value;
    default:
      return false;
  }
}

std::size_t widest_value(const StepView& v) {
  std::size_t chars = 0;
  for (const StepRow& r : v.rows) {
    if (!sizes_cells(v, r.kind)) continue;
    for (const LaneCell& c : r.cells) chars = std::max(chars, c.text.size() + (c.undefined || c.differs));
  }
  return chars;
}

// Positions along the lane axis and the flow axis (time), mapped to x/y by orientation.
struct Axes {
  bool down = false;  // lanes down the figure, time flowing right
  float lane0 = 0, pitch = 0, cell = 0;

  float lane_start(int lane) const { return lane0 + static_cast<float>(lane) * pitch; }
  // `lane_pos` may be fractional: 0.5 lies halfway between lanes 0 and 1.
  float lane_mid(float lane_pos) const { return lane0 + lane_pos * pitch + cell / 2; }
  float lanes_end() const { return lane_start(kWarpSize - 1) + cell; }
  Box cell_box(int lane, float f0, float f1) const {
    const float a = lane_start(lane);
    return down ? Box{f0, a, f1, a + cell} : Box{a, f0, a + cell, f1};
  }
  Box span_box(float a0, float a1, float f0, float f1) const {
    return down ? Box{f0, a0, f1, a1} : Box{a0, f0, a1, f1};
  }
  Point point(float lane_pos, float flow) const {
    const float a = lane_mid(lane_pos);
    return down ? Point{flow, a} : Point{a, flow};
  }
};

struct Span {
  float f0 = 0, f1 = 0;
  float mid() const { return (f0 + f1) / 2; }
};

class Builder {
 public:
  Builder(const StepView& v, std::span<const StepView> history, const StepFigureOptions& o)
      : v_(v), history_(history), o_(o), m_(o.metrics), s_(o.metrics.value_size / 14.0f) {}

  Figure build() {
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

 private:
  // ---- text outside the lane section
  float text_width(std::string_view text, Face face) const {
    if (o_.measure) return o_.measure(text, face);
    const float advance = face == Face::value   ? m_.value_advance
                          : face == Face::small ? m_.label_advance * m_.small_size / m_.label_size
                          : face == Face::title ? m_.label_advance * m_.title_size / m_.label_size
                                                : m_.label_advance;
    return static_cast<float>(text.size()) * advance;
  }
  float face_size(Face face) const {
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
  void text_line(std::string text, Face face, Rgba colour) {
    const float h = face_size(face) + 4 * s_;
    widest_text_ = std::max(widest_text_, text_width(text, face));
    add_text(fig_, {margin_, y_ + h / 2}, std::move(text), colour, face);
    y_ += h;
  }

  void title() {
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
  std::vector<std::string> wrap(const std::string& paragraph, Face face, float room) const {
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

  void wrapped(const std::string& paragraph, Face face, Rgba colour) {
    for (const std::string& line :
         wrap(paragraph, face, std::max(200.0f, o_.width - 2 * margin_))) {
      text_line(line, face, colour);
    }
  }

  // A banner: the text wrapped to the figure's width, in a box as loud as its colours.
  void banner(const std::string& text, Rgba fill, Rgba edge) {
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

  void banners() {
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
  void lanes() {
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

  Span row(std::string_view label, float depth, Face face = Face::label) {
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
  Span zone(float depth) {
    const Span z{flow_, flow_ + depth};
    flow_ += depth + gap_;
    return z;
  }
  float small_depth(float chars) const {
    return down_ ? chars * m_.label_advance * m_.small_size / m_.label_size + 10 * s_
                 : m_.small_size + 7 * s_;
  }

  // A cell painted as its lane's state: fill, pattern and outline.
  // `cross`: whether an exited lane's cell is crossed out (not where its tag must be read).
  void state_cell(Box b, LaneState state, const std::string& what, bool cross = true) {
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
  void probe(Box b, Rgba colour, Rgba alt, std::string what) {
    // Left of centre, clear of the outline and of centred text.
    Probe p{{b.x0 + 3, b.center().y}, colour, std::move(what)};
    fig_.probes.push_back(p);
    if (!(alt == colour)) {
      p.colour = alt;
      p.what += " (pattern)";
      fig_.probes.push_back(p);
    }
  }

  std::string fit(const std::string& text, float room) const {
    if (down_) return text;
    const auto fits = static_cast<std::size_t>(std::max(0.0f, room / m_.value_advance));
    if (columns(text) <= fits) return text;
    if (fits <= 1) return "…";
    return first_columns(text, fits - 1) + "…";
  }

  void lane_numbers() {
    const Span r = row("lane", small_depth(2.5f));
    for (int lane = 0; lane < kWarpSize; ++lane) {
      const Box b = ax_.cell_box(lane, r.f0, r.f1);
      add_text(fig_, b.center(), std::to_string(lane),
               lane == o_.watched_lane ? kPalette.ink : kPalette.faint_ink, Face::small,
               Align::center);
    }
  }

  void state_row() {
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

  void mask_row() {
    const Span r = row("mask", small_depth(1.5f));
    for (int lane = 0; lane < kWarpSize; ++lane) {
      const bool set = has_lane(v_.mask, lane);
      const Box b = ax_.cell_box(lane, r.f0, r.f1);
      bit_cell(b, set, "mask bit " + std::to_string(lane));
    }
  }

  void bit_cell(Box b, bool set, std::string what) {
    add_fill(fig_, b, set ? kPalette.bit_set : kPalette.bit_clear, 1.5f * s_);
    add_stroke(fig_, b, set ? kPalette.bit_set : kPalette.rule, 1, 1.5f * s_);
    add_text(fig_, b.center(), set ? "1" : "0", set ? rgb(0xFFFFFF) : kPalette.faint_ink,
             Face::small, Align::center);
    probe(b, set ? kPalette.bit_set : kPalette.bit_clear, set ? kPalette.bit_set : kPalette.bit_clear,
          std::move(what));
  }

  // The warp's earlier steps, oldest first, as thin bands: a butterfly draws itself.
  void history_bands() {
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
  void value_cell(const StepRow& r, int lane, Span span, std::optional<Rgba> fill_override = {},
                  std::string text_override = {}) {
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

  Span value_row(const StepRow& r, float depth = 0) {
    const Span span = row(r.label, depth > 0 ? depth : value_depth_);
    for (int lane = 0; lane < kWarpSize; ++lane) value_cell(r, lane, span);
    return span;
  }
  Span small_row(const StepRow& r) {
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

  float arrow_depth() const { return down_ ? 150 * s_ : 76 * s_; }

  // ---- families
  void shuffle() {
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
  LaneMask vote_word() const {
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
  void zone_caption(Span z, const std::string& text) {
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
  void fan(Span z, std::optional<float> from_lane_pos) {
    for (int lane = 0; lane < kWarpSize; ++lane) {
      if (v_.lanes[lane_at(lane)] != LaneState::took_part) continue;
      const Point a = ax_.point(from_lane_pos.value_or(static_cast<float>(lane)), z.f0);
      add_arrow(fig_, a, ax_.point(static_cast<float>(lane), z.f1 + gap_ - 1 * s_),
                with_alpha(kPalette.arrow, 170), 1.1f * s_, 6 * s_);
    }
  }

  // A mask too wide for its cell: its hex digits without 0x and leading zeros ("9249"), cut to
  // the last digits that fit; the word above and the tooltip give it whole.
  std::string compact_mask(const std::string& text) const {
    const float room = ax_.cell - 6 * s_;
    if (down_ || static_cast<float>(text.size()) * m_.value_advance <= room) return text;
    std::string digits = text.starts_with("0x") ? text.substr(2) : text;
    const auto nonzero = digits.find_first_not_of('0');
    digits = nonzero == std::string::npos ? "0" : digits.substr(nonzero);
    const auto fits = static_cast<std::size_t>(std::max(1.0f, room / m_.value_advance));
    if (digits.size() > fits) digits = "…" + digits.substr(digits.size() - (fits - 1));
    return digits;
  }

  void mask_out_row() {
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

  void vote() {
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

  void match() {
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

  static Rgba darker(Rgba c) {
    return {static_cast<std::uint8_t>(c.r * 0.55f), static_cast<std::uint8_t>(c.g * 0.55f),
            static_cast<std::uint8_t>(c.b * 0.55f), 255};
  }

  std::string_view reduce_symbol() const {
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

  void reduce() {
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

  void barrier() {
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
  void wait() {
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
  void other_row() {
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
  void trailing_rows() {
    for (const StepRow& r : v_.rows) {
      if (r.kind == RowKind::predicate) small_row(r);
    }
    other_row();
    // What each lane holds once it has used the result (the next pass's value in).
    if (const StepRow* after = find_row(v_, RowKind::after)) value_row(*after);
  }

  // ---- legend
  void legend() {
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

  const StepView& v_;
  std::span<const StepView> history_;
  const StepFigureOptions& o_;
  FontMetrics m_;
  float s_ = 1;
  Figure fig_;
  bool down_ = false;
  Axes ax_;
  float margin_ = 10, y_ = 0, flow_ = 0, header_ = 0, value_depth_ = 20, gap_ = 3;
  float widest_text_ = 0;
  std::string group_legend_;
  bool other_drawn_ = false;
};

}  // namespace

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
