// Figure geometry: the helpers every pattern is built from.
#include <doctest/doctest.h>

#include "model/figure.hpp"
#include "model/palette.hpp"
#include "model/svg.hpp"

using namespace warpsim::gui;

TEST_CASE("a segment is clipped to a box, or dropped when it misses it") {
  Point a{-10, 5}, b{30, 5};
  REQUIRE(clip_segment({0, 0, 20, 10}, a, b));
  CHECK(a == Point{0, 5});
  CHECK(b == Point{20, 5});
  Point c{-10, -10}, d{-1, 30};
  CHECK_FALSE(clip_segment({0, 0, 20, 10}, c, d));
}

TEST_CASE("hatching stays inside its box") {
  Figure f;
  const Box box{10, 10, 50, 30};
  add_hatching(f, box, okabe_ito::orange, 6);
  REQUIRE(f.shapes.size() >= 6);
  for (const Shape& s : f.shapes) {
    const Line& l = std::get<Line>(s);
    for (const Point p : {l.a, l.b}) {
      CAPTURE(p.x);
      CAPTURE(p.y);
      CHECK(p.x >= box.x0 - 1e-3f);
      CHECK(p.x <= box.x1 + 1e-3f);
      CHECK(p.y >= box.y0 - 1e-3f);
      CHECK(p.y <= box.y1 + 1e-3f);
    }
  }
}

TEST_CASE("an arrow is a line that stops at its head, and the head's tip is the end point") {
  Figure f;
  add_arrow(f, {0, 0}, {0, 100}, okabe_ito::blue, 2, 10);
  REQUIRE(f.shapes.size() == 2);
  const Line& l = std::get<Line>(f.shapes[0]);
  CHECK(l.b.y == doctest::Approx(90));
  const Triangle& t = std::get<Triangle>(f.shapes[1]);
  CHECK(t.a == Point{0, 100});
  CHECK(t.b.y == doctest::Approx(90));
}

TEST_CASE("dashes cover about dash / (dash + gap) of a line") {
  Figure f;
  add_dashed_line(f, {0, 0}, {100, 0}, okabe_ito::black, 1, 6, 4);
  float covered = 0;
  for (const Shape& s : f.shapes) covered += std::get<Line>(s).b.x - std::get<Line>(s).a.x;
  CHECK(covered == doctest::Approx(60));
}

TEST_CASE("every lane state has its own colour, and a second signal besides") {
  using warpsim::LaneState;
  const LaneState states[] = {LaneState::took_part, LaneState::inactive, LaneState::not_in_mask,
                              LaneState::exited};
  for (const LaneState a : states) {
    const LaneStyle sa = lane_style(a);
    CHECK_FALSE(sa.tag.empty());
    for (const LaneState b : states) {
      if (a == b) continue;
      const LaneStyle sb = lane_style(b);
      CHECK_FALSE(sa.fill == sb.fill);
      CHECK(sa.tag != sb.tag);
      // Told apart without colour: pattern or outline differs too.
      CHECK((sa.pattern != sb.pattern || sa.dashed_outline != sb.dashed_outline));
    }
  }
  CHECK(tint(okabe_ito::blue, 0) == rgb(0xFFFFFF));
  CHECK(tint(okabe_ito::blue, 1) == okabe_ito::blue);
  CHECK(group_letter(0) == "A");
  CHECK(group_letter(27) == "b");
}

TEST_CASE("SVG: one element per shape, text escaped, sizes from the figure's fonts") {
  Figure f;
  f.width = 100;
  f.height = 50;
  add_fill(f, {0, 0, 10, 10}, okabe_ito::orange);
  add_line(f, {0, 0}, {10, 10}, with_alpha(okabe_ito::blue, 128), 1.5f);
  add_text(f, {5, 5}, "a < b & \"c\"", okabe_ito::black, Face::value, Align::center);
  const std::string svg = to_svg(f);
  CHECK(svg.find("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"50\"") == 0);
  CHECK(svg.find("fill=\"#e69f00\"") != std::string::npos);
  CHECK(svg.find("stroke-opacity=\"0.5\"") != std::string::npos);
  CHECK(svg.find("a &lt; b &amp; &quot;c&quot;</text>") != std::string::npos);
  CHECK(svg.find("text-anchor=\"middle\"") != std::string::npos);
  CHECK(svg.find(".v{font-family:'DejaVu Sans Mono'") != std::string::npos);
  CHECK(svg.rfind("</svg>\n") == svg.size() - 7);
}
