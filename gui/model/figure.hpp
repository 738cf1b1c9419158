// A figure: what a view draws, as plain data in pixels. Views decide what goes where once, here;
// backends only paint: ImGui's draw list on screen and into PNGs (app/draw_figure.cpp), SVG
// for slides (svg.hpp). Every shape is a rectangle, line, triangle, circle or a line of text, so
// a backend is a switch over five cases; patterns (hatching, dashes, crosses) are built from lines
// here rather than left to each backend.
//
//   Figure f{.width = 200, .height = 100};
//   add_hatched_box(f, {10, 10, 50, 40}, fill, outline, hatch);
//   add_arrow(f, {30, 40}, {90, 80}, colour, 1.5f);
//   f.shapes.size() == ...; to_svg(f) draws the same
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "warpsim/step_view.hpp"

namespace warpsim::gui {

struct Rgba {
  std::uint8_t r = 0, g = 0, b = 0, a = 255;
  friend constexpr bool operator==(const Rgba&, const Rgba&) = default;
};
// 0xRRGGBB, opaque.
constexpr Rgba rgb(std::uint32_t hex) {
  return {static_cast<std::uint8_t>(hex >> 16), static_cast<std::uint8_t>(hex >> 8),
          static_cast<std::uint8_t>(hex), 255};
}
constexpr Rgba with_alpha(Rgba c, std::uint8_t a) { return {c.r, c.g, c.b, a}; }

struct Point {
  float x = 0, y = 0;
  friend constexpr bool operator==(const Point&, const Point&) = default;
};

struct Box {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  constexpr float width() const { return x1 - x0; }
  constexpr float height() const { return y1 - y0; }
  constexpr Point center() const { return {(x0 + x1) / 2, (y0 + y1) / 2}; }
  constexpr bool contains(Point p) const { return p.x >= x0 && p.x < x1 && p.y >= y0 && p.y < y1; }
  constexpr Box inset(float by) const { return {x0 + by, y0 + by, x1 - by, y1 - by}; }
  friend constexpr bool operator==(const Box&, const Box&) = default;
};

// Text faces: values in a monospace face (digits line up), everything else in a sans face.
enum class Face : std::uint8_t { value, label, small, title };

enum class Align : std::uint8_t { left, center, right };

struct FillRect {
  Box box;
  Rgba colour;
  float rounding = 0;
};
struct StrokeRect {
  Box box;
  Rgba colour;
  float thickness = 1;
  float rounding = 0;
};
struct Line {
  Point a, b;
  Rgba colour;
  float thickness = 1;
};
struct Triangle {
  Point a, b, c;
  Rgba colour;
};
struct Circle {
  Point center;
  float radius = 1;
  Rgba fill;
  Rgba outline;
  float thickness = 1;
};
// One line of text, vertically centred on `at.y`; `at.x` is its left edge, centre or right edge.
struct Text {
  Point at;
  std::string text;
  Rgba colour;
  Face face = Face::label;
  Align align = Align::left;
};

using Shape = std::variant<FillRect, StrokeRect, Line, Triangle, Circle, Text>;

// A place the user can point at: a lane's cell in one row.
struct Hit {
  Box box;
  int lane = -1;
  RowKind row = RowKind::input;
  std::string tooltip;
};

// A pixel whose colour the figure promises (inside a cell away from its text, on an arrow):
// screenshot tests check them, so a test knows what must be on screen without a person.
struct Probe {
  Point at;
  Rgba colour;
  std::string what;  // "lane 3 in (took part)", "arrow 16 -> 0"
};

// Sizes of the faces in pixels, as the backend that paints will use them. `value_advance` is the
// monospace face's advance per character; the sans faces are measured as `label_advance` per
// character, an estimate that only sizes label columns.
struct FontMetrics {
  float value_size = 14;
  float value_advance = 8.4f;
  float label_size = 14;
  float label_advance = 7.5f;
  float small_size = 11.5f;
  float title_size = 16;
  // Scaled copies for a UI scale (font size setting times HiDPI content scale).
  FontMetrics scaled(float by) const;
};

struct Figure {
  float width = 0, height = 0;
  Rgba background = rgb(0xffffff);
  std::vector<Shape> shapes;  // in paint order
  std::vector<Hit> hits;
  std::vector<Probe> probes;
  FontMetrics fonts;  // the sizes its text was laid out for
};

void add_fill(Figure& f, Box box, Rgba colour, float rounding = 0);
void add_stroke(Figure& f, Box box, Rgba colour, float thickness = 1, float rounding = 0);
void add_line(Figure& f, Point a, Point b, Rgba colour, float thickness = 1);
void add_text(Figure& f, Point at, std::string text, Rgba colour, Face face = Face::label,
              Align align = Align::left);

// A dashed line: dashes of `dash` pixels with gaps of `gap`, starting with a dash.
void add_dashed_line(Figure& f, Point a, Point b, Rgba colour, float thickness, float dash,
                     float gap);
// A rectangle outline of dashes.
void add_dashed_stroke(Figure& f, Box box, Rgba colour, float thickness, float dash, float gap);
// Diagonal hatching (lines rising to the right, `spacing` apart) clipped to `box`.
void add_hatching(Figure& f, Box box, Rgba colour, float spacing, float thickness = 1);
// An X corner to corner, inset by `inset`.
void add_cross(Figure& f, Box box, Rgba colour, float thickness, float inset);
// A line from `a` to `b` ending in a filled head of length `head` at `b` (the line stops at the
// head's base, so a thick line does not poke through the point).
void add_arrow(Figure& f, Point a, Point b, Rgba colour, float thickness, float head);

// The part of segment a-b inside `box`; false when none of it is (Liang-Barsky).
bool clip_segment(Box box, Point& a, Point& b);

// The box of every shape together (text counted as its anchor point only).
Box bounds(const Figure& f);

}  // namespace warpsim::gui
