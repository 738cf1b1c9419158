// The builder behind build_step_figure (step_figure.hpp), shared by the two files that define
// it: the figure's frame (title, banners, the lane rows, history bands, legend: step_figure.cpp)
// and each family's part (shuffle, vote, match, reduce, barrier, wait: step_figure_families.cpp).
// Internal to gui/model.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/figure.hpp"
#include "model/step_figure.hpp"

namespace warpsim::gui::figure_detail {

// Characters as they are shown: UTF-8 continuation bytes do not count ("…" is one).
inline std::size_t columns(std::string_view text) {
  std::size_t n = 0;
  for (const char c : text) n += (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  return n;
}

// The first `n` characters of `text` (never half of one).
inline std::string first_columns(std::string_view text, std::size_t n) {
  std::size_t at = 0, seen = 0;
  while (at < text.size()) {
    if ((static_cast<unsigned char>(text[at]) & 0xc0) != 0x80 && seen++ == n) break;
    ++at;
  }
  return std::string(text.substr(0, at));
}

// The row labels' column, in characters of the label face ("laneMask", "4: xor 16").
constexpr float kLabelChars = 9.5f;


inline std::string_view state_explanation(LaneState state) {
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
inline bool sizes_cells(const StepView& v, RowKind kind) {
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

inline std::size_t widest_value(const StepView& v) {
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

  Figure build();

 private:
  // ---- text outside the lane section
  float text_width(std::string_view text, Face face) const;
  float face_size(Face face) const;
  void text_line(std::string text, Face face, Rgba colour);

  void title();

  // A paragraph broken into lines at spaces to fit `room` pixels (a word longer than a line is
  // cut where it must be).
  std::vector<std::string> wrap(const std::string& paragraph, Face face, float room) const;

  void wrapped(const std::string& paragraph, Face face, Rgba colour);

  // A banner: the text wrapped to the figure's width, in a box as loud as its colours.
  void banner(const std::string& text, Rgba fill, Rgba edge);

  void banners();

  // ---- the lane section
  void lanes();

  Span row(std::string_view label, float depth, Face face = Face::label);
  Span zone(float depth);
  float small_depth(float chars) const;

  // A cell painted as its lane's state: fill, pattern and outline.
  // `cross`: whether an exited lane's cell is crossed out (not where its tag must be read).
  void state_cell(Box b, LaneState state, const std::string& what, bool cross = true);
  void probe(Box b, Rgba colour, Rgba alt, std::string what);

  std::string fit(const std::string& text, float room) const;

  void lane_numbers();

  void state_row();

  void mask_row();

  void bit_cell(Box b, bool set, std::string what);

  // The warp's earlier steps, oldest first, as thin bands: a butterfly draws itself.
  void history_bands();

  // One lane's cell of a value row.
  void value_cell(const StepRow& r, int lane, Span span, std::optional<Rgba> fill_override = {},
                  std::string text_override = {});

  Span value_row(const StepRow& r, float depth = 0);
  Span small_row(const StepRow& r);

  float arrow_depth() const { return down_ ? 150 * s_ : 76 * s_; }

  // ---- families
  void shuffle();

  // The word of one bit per lane: ballot's result, the votes' predicates, __activemask's lanes.
  LaneMask vote_word() const;

  // A wide label over a zone, on a white ground so that lines under it do not cross the text.
  void zone_caption(Span z, const std::string& text);

  // Every participant's out cell fed from one place (a word, a tree's root).
  void fan(Span z, std::optional<float> from_lane_pos);

  // A mask too wide for its cell: its hex digits without 0x and leading zeros ("9249"), cut to
  // the last digits that fit; the word above and the tooltip give it whole.
  std::string compact_mask(const std::string& text) const;

  void mask_out_row();

  void vote();

  void match();

  static Rgba darker(Rgba c);

  std::string_view reduce_symbol() const;

  void reduce();

  void barrier();

  // A deadlock (wait_view.hpp): each waiting lane's call, line and mask, then every one of them
  // stopped at a wall that no lane gets past.
  void wait();

  // The other side's (the GPU's) row, once: under the outputs.
  void other_row();

  // Rows not drawn by a family (match_all's *pred, the GPU's), after everything else.
  void trailing_rows();

  // ---- legend
  void legend();

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

}  // namespace warpsim::gui::figure_detail
