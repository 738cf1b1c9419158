// The figure of one step, built from real traces: what a learner must be able to see in it.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "gui_kernels.cuh"
#include "launch_traces.hpp"
#include "model/palette.hpp"
#include "model/step_figure.hpp"
#include "model/svg.hpp"

using namespace warpsim;
using namespace warpsim::gui;

namespace {

gui_test::Described butterfly(ValueFormat format = {}) {
  std::vector<int> in(32), out(32);
  std::iota(in.begin(), in.end(), 0);
  return gui_test::describe_all(
      gui_test::run(1, 32, [&] { gui_butterfly(in.data(), out.data()); }), format);
}

const Probe* probe(const Figure& f, std::string_view what) {
  for (const Probe& p : f.probes) {
    if (p.what == what) return &p;
  }
  return nullptr;
}

std::size_t count_probes(const Figure& f, std::string_view prefix) {
  return static_cast<std::size_t>(std::count_if(
      f.probes.begin(), f.probes.end(), [&](const Probe& p) { return p.what.starts_with(prefix); }));
}

bool has_text(const Figure& f, std::string_view text) {
  return std::any_of(f.shapes.begin(), f.shapes.end(), [&](const Shape& s) {
    const Text* t = std::get_if<Text>(&s);
    return t != nullptr && t->text.find(text) != std::string::npos;
  });
}

const Hit* hit(const Figure& f, int lane, RowKind row) {
  for (const Hit& h : f.hits) {
    if (h.lane == lane && h.row == row) return &h;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("a butterfly step: 32 arrows, each from lane i ^ 16 to lane i, values in and out") {
  const auto d = butterfly();
  const Figure f = build_step_figure(d.steps[0], {}, {});
  CHECK(choose_orientation(d.steps[0], {}) == Orientation::lanes_across);
  CHECK(count_probes(f, "arrow ") == 32);
  for (int lane = 0; lane < 32; ++lane) {
    CAPTURE(lane);
    const Probe* a = probe(f, "arrow " + std::to_string(lane ^ 16) + " -> " + std::to_string(lane));
    REQUIRE(a != nullptr);
    CHECK(a->colour == kPalette.arrow);
    // Source above destination's row, left or right as the lanes lie.
    const Hit* in = hit(f, lane ^ 16, RowKind::input);
    const Hit* out = hit(f, lane, RowKind::output);
    REQUIRE(in != nullptr);
    REQUIRE(out != nullptr);
    CHECK(in->box.y1 < a->at.y);
    CHECK(a->at.y < out->box.y0);
    CHECK(out->tooltip == "lane " + std::to_string(lane) + " received " +
                              std::to_string(lane ^ 16) + " from lane " + std::to_string(lane ^ 16));
  }
  CHECK(has_text(f, "__shfl_xor_sync"));
  CHECK(has_text(f, "laneMask 16"));
  CHECK(has_text(f, "step 1 of 5 of block 0, warp 0"));
  CHECK(f.width == doctest::Approx(1200));
  // Every lane took part: every state cell is in the took-part colour.
  for (int lane = 0; lane < 32; ++lane) {
    const Probe* s = probe(f, "lane " + std::to_string(lane) + " state (took part)");
    REQUIRE(s != nullptr);
    CHECK(s->colour == lane_style(LaneState::took_part).fill);
  }
}

TEST_CASE("earlier steps are drawn as bands above: the butterfly draws itself step by step") {
  const auto d = butterfly();
  const Figure first = build_step_figure(d.steps[0], {}, {});
  const Figure last = build_step_figure(d.steps[4], std::span(d.steps).first(4), {});
  CHECK(has_text(last, "1: xor 16"));
  CHECK(has_text(last, "4: xor 2"));
  // Each earlier shuffle: a faded line from every lane's source to it.
  const auto faded_lines = [](const Figure& f) {
    return std::count_if(f.shapes.begin(), f.shapes.end(), [](const Shape& s) {
      const Line* l = std::get_if<Line>(&s);
      return l != nullptr && l->colour == with_alpha(kPalette.arrow, 120);
    });
  };
  CHECK(faded_lines(first) == 0);
  CHECK(faded_lines(last) == 4 * 32);
  CHECK(last.height > first.height);
}

TEST_CASE("the watched lane's arrow is drawn last, in its own colour, over a highlighted column") {
  const auto d = butterfly();
  StepFigureOptions o;
  o.watched_lane = 5;
  const Figure f = build_step_figure(d.steps[0], {}, o);
  const Probe* a = probe(f, "arrow 21 -> 5");
  REQUIRE(a != nullptr);
  CHECK(a->colour == kPalette.arrow_watched);
  const auto last_arrow = std::find_if(f.probes.rbegin(), f.probes.rend(),
                                       [](const Probe& p) { return p.what.starts_with("arrow "); });
  CHECK(last_arrow->what == "arrow 21 -> 5");
  // The column is painted before any cell, under the lane's cells.
  const FillRect* band = nullptr;
  for (const Shape& s : f.shapes) {
    if (const auto* r = std::get_if<FillRect>(&s); r != nullptr && r->colour == kPalette.watched_band) {
      band = r;
      break;
    }
  }
  REQUIRE(band != nullptr);
  CHECK(band->colour == kPalette.watched_band);
  CHECK(band->box.x0 < hit(f, 5, RowKind::input)->box.x0);
  CHECK(band->box.x1 > hit(f, 5, RowKind::input)->box.x1);
  CHECK(has_text(f, "watched lane 5"));
}

TEST_CASE("arrows grow: a half-revealed step promises no arrow pixels yet") {
  const auto d = butterfly();
  StepFigureOptions o;
  o.reveal = 0.5f;
  CHECK(count_probes(build_step_figure(d.steps[0], {}, o), "arrow ") == 0);
}

TEST_CASE("values too wide for a column turn the lanes down the figure") {
  const auto d = butterfly(ValueFormat::binary);
  StepFigureOptions o;
  CHECK(choose_orientation(d.steps[0], o) == Orientation::lanes_down);
  const Figure f = build_step_figure(d.steps[0], {}, o);
  CHECK(count_probes(f, "arrow ") == 32);
  const Hit* in0 = hit(f, 0, RowKind::input);
  const Hit* in1 = hit(f, 1, RowKind::input);
  REQUIRE(in0 != nullptr);
  REQUIRE(in1 != nullptr);
  CHECK(in1->box.y0 > in0->box.y0);  // lanes down
  CHECK(in1->box.x0 == in0->box.x0);
  CHECK(has_text(f, std::string(32 - 5, '0') + "10000"));  // lane 0 receives 16, in full
  // Lanes across at the same width cuts values short, with an ellipsis.
  o.orientation = Orientation::lanes_across;
  CHECK(has_text(build_step_figure(d.steps[0], {}, o), "…"));
}

TEST_CASE("a ballot: predicates fall into one word, exited and absent lanes drawn as such") {
  std::vector<unsigned> out(32);
  const auto d = gui_test::describe_all(gui_test::run(1, 32, [&] { gui_split_ballot(out.data()); }));
  const Figure f = build_step_figure(d.steps[0], {}, {});
  REQUIRE(probe(f, "word bit 0") != nullptr);
  CHECK(probe(f, "word bit 0")->colour == kPalette.bit_set);    // lane 0: 0 % 3 == 0
  CHECK(probe(f, "word bit 1")->colour == kPalette.bit_clear);  // lane 1
  CHECK(probe(f, "word bit 3")->colour == kPalette.bit_set);
  CHECK(probe(f, "lane 20 state (exited)")->colour == lane_style(LaneState::exited).fill);
  CHECK(probe(f, "lane 28 state (not in the mask)")->colour ==
        lane_style(LaneState::not_in_mask).fill);
  CHECK(probe(f, "mask bit 15")->colour == kPalette.bit_set);
  CHECK(probe(f, "mask bit 16")->colour == kPalette.bit_clear);
  CHECK(has_text(f, "0x00009249"));
  CHECK(has_text(f, "exit"));
}

TEST_CASE("a match: lanes with equal values share a colour and a letter") {
  std::vector<int> in(32);
  for (int lane = 0; lane < 32; ++lane) in[lane] = lane % 3 == 0 ? 7 : (lane % 3 == 1 ? 5 : 9);
  std::vector<unsigned> out(32);
  const auto d = gui_test::describe_all(gui_test::run(1, 32, [&] { gui_match(in.data(), out.data()); }));
  const Figure f = build_step_figure(d.steps[0], {}, {});
  CHECK(probe(f, "lane 0 in")->colour == group_colour(0));
  CHECK(probe(f, "lane 3 in")->colour == group_colour(0));
  CHECK(probe(f, "lane 1 in")->colour == group_colour(1));
  CHECK(probe(f, "lane 2 out")->colour == group_colour(2));
  CHECK(has_text(f, "A = 0x49249249"));
}

TEST_CASE("a reduction: a tree into one result, given to every caller") {
  std::vector<int> in(32), out(32);
  std::iota(in.begin(), in.end(), 0);
  const auto d = gui_test::describe_all(gui_test::run(1, 32, [&] { gui_reduce(in.data(), out.data()); }));
  const Figure f = build_step_figure(d.steps[0], {}, {});
  REQUIRE(probe(f, "reduction result") != nullptr);
  CHECK(has_text(f, "+ = 496"));
  StepFigureOptions hidden;
  hidden.hide_outputs = true;
  const Figure h = build_step_figure(d.steps[0], {}, hidden);
  CHECK_FALSE(has_text(h, "496"));
  CHECK(probe(h, "lane 0 out (hidden)")->colour == kPalette.hidden);
}

TEST_CASE("undefined results: a dashed arrow in the warning colour, a ? and a banner") {
  std::vector<int> in(32), out(32);
  std::iota(in.begin(), in.end(), 0);
  const auto d =
      gui_test::describe_all(gui_test::run(1, 32, [&] { gui_half_shuffle(in.data(), out.data()); }));
  REQUIRE(d.steps.size() == 3);
  const StepView& s = d.steps[1];
  REQUIRE(s.undefined != 0);
  StepFigureOptions o;
  o.diagnostics = {"undefined_source (lanes 8-15): ..."};
  const Figure f = build_step_figure(s, {}, o);
  CHECK(probe(f, "arrow 16 -> 8")->colour == kPalette.arrow_undefined);
  CHECK(probe(f, "lane 8 out (undefined)") != nullptr);
  CHECK(probe(f, "diagnostic banner") != nullptr);
  // Lanes 16-31 exited before the call completed, not before lanes 0-15 made it (the step's
  // named_lane_exited_later diagnostic): drawn as running other code then, as its banner says.
  CHECK(probe(f, "lane 20 state (diverged elsewhere)") != nullptr);
  CHECK(has_text(f, "undefined result"));
  // The barrier after it: a bar that the lanes reach.
  const Figure bar = build_step_figure(d.steps[2], {}, {});
  CHECK(probe(bar, "barrier bar") != nullptr);
  CHECK(has_text(bar, "__syncwarp"));
}

TEST_CASE("a lane diverged elsewhere is hatched; a dashed line stops short of a barrier") {
  std::vector<int> in(32), out(32);
  const auto d =
      gui_test::describe_all(gui_test::run(1, 32, [&] { gui_half_shuffle(in.data(), out.data()); }));
  StepView s = d.steps[2];  // __syncwarp(0x0000ffff), as if lane 20 had been named and elsewhere
  s.lanes[20] = LaneState::inactive;
  const Figure f = build_step_figure(s, {}, {});
  const Probe* p = probe(f, "lane 20 state (diverged elsewhere)");
  REQUIRE(p != nullptr);
  CHECK(p->colour == lane_style(LaneState::inactive).fill);
  CHECK(probe(f, "lane 20 state (diverged elsewhere) (pattern)")->colour ==
        lane_style(LaneState::inactive).pattern_colour);
  CHECK(has_text(f, "div"));
}

TEST_CASE("a figure and its SVG hold the same text") {
  const auto d = butterfly();
  const Figure f = build_step_figure(d.steps[2], std::span(d.steps).first(2), {});
  const std::string svg = to_svg(f);
  CHECK(svg.find("__shfl_xor_sync") != std::string::npos);
  CHECK(svg.find(">on: took part</text>") != std::string::npos);
  const auto polygons = std::count(svg.begin(), svg.end(), '\n');
  CHECK(polygons > 300);
}

TEST_CASE("short names and zero tests") {
  const auto d = butterfly();
  CHECK(short_name(d.steps[0]) == "shfl_xor 16");
  CHECK(reads_as_zero("0"));
  CHECK(reads_as_zero("0x00000000"));
  CHECK(reads_as_zero(std::string(32, '0')));
  CHECK_FALSE(reads_as_zero("10"));
  CHECK_FALSE(reads_as_zero(""));
}
