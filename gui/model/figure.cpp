#include "model/figure.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace warpsim::gui {

FontMetrics FontMetrics::scaled(float by) const {
  return {value_size * by, value_advance * by, label_size * by,
          label_advance * by, small_size * by, title_size * by};
}

void add_fill(Figure& f, Box box, Rgba colour, float rounding) {
  f.shapes.emplace_back(FillRect{box, colour, rounding});
}

void add_stroke(Figure& f, Box box, Rgba colour, float thickness, float rounding) {
  f.shapes.emplace_back(StrokeRect{box, colour, thickness, rounding});
}

void add_line(Figure& f, Point a, Point b, Rgba colour, float thickness) {
  f.shapes.emplace_back(Line{a, b, colour, thickness});
}

void add_text(Figure& f, Point at, std::string text, Rgba colour, Face face, Align align) {
  if (text.empty()) return;
  f.shapes.emplace_back(Text{at, std::move(text), colour, face, align});
}

void add_dashed_line(Figure& f, Point a, Point b, Rgba colour, float thickness, float dash,
                     float gap) {
  const float dx = b.x - a.x, dy = b.y - a.y;
  const float length = std::sqrt(dx * dx + dy * dy);
  if (length <= 0 || dash <= 0) return;
  const float ux = dx / length, uy = dy / length;
  for (float s = 0; s < length; s += dash + gap) {
    const float e = std::min(s + dash, length);
    add_line(f, {a.x + ux * s, a.y + uy * s}, {a.x + ux * e, a.y + uy * e}, colour, thickness);
  }
}

void add_dashed_stroke(Figure& f, Box box, Rgba colour, float thickness, float dash, float gap) {
  add_dashed_line(f, {box.x0, box.y0}, {box.x1, box.y0}, colour, thickness, dash, gap);
  add_dashed_line(f, {box.x1, box.y0}, {box.x1, box.y1}, colour, thickness, dash, gap);
  add_dashed_line(f, {box.x1, box.y1}, {box.x0, box.y1}, colour, thickness, dash, gap);
  add_dashed_line(f, {box.x0, box.y1}, {box.x0, box.y0}, colour, thickness, dash, gap);
}

bool clip_segment(Box box, Point& a, Point& b) {
  const float dx = b.x - a.x, dy = b.y - a.y;
  float t0 = 0, t1 = 1;
  const float p[4] = {-dx, dx, -dy, dy};
  const float q[4] = {a.x - box.x0, box.x1 - a.x, a.y - box.y0, box.y1 - a.y};
  for (int i = 0; i < 4; ++i) {
    if (p[i] == 0) {
      if (q[i] < 0) return false;  // parallel to this edge and outside it
      continue;
    }
    const float t = q[i] / p[i];
    if (p[i] < 0) {
      t0 = std::max(t0, t);
    } else {
      t1 = std::min(t1, t);
    }
    if (t0 > t1) return false;
  }
  const Point start{a.x + t0 * dx, a.y + t0 * dy}, end{a.x + t1 * dx, a.y + t1 * dy};
  a = start;
  b = end;
  return true;
}

void add_hatching(Figure& f, Box box, Rgba colour, float spacing, float thickness) {
  if (spacing <= 0 || box.width() <= 0 || box.height() <= 0) return;
  // Lines x - (box.y1 - y) = c rising to the right, for c from x0 - height to x1.
  const float h = box.height();
  for (float c = box.x0 - h + spacing / 2; c < box.x1; c += spacing) {
    Point a{c, box.y1}, b{c + h, box.y0};
    if (clip_segment(box, a, b)) add_line(f, a, b, colour, thickness);
  }
}

void add_cross(Figure& f, Box box, Rgba colour, float thickness, float inset) {
  const Box b = box.inset(inset);
  add_line(f, {b.x0, b.y0}, {b.x1, b.y1}, colour, thickness);
  add_line(f, {b.x1, b.y0}, {b.x0, b.y1}, colour, thickness);
}

void add_arrow(Figure& f, Point a, Point b, Rgba colour, float thickness, float head) {
  const float dx = b.x - a.x, dy = b.y - a.y;
  const float length = std::sqrt(dx * dx + dy * dy);
  if (length <= 0) return;
  const float ux = dx / length, uy = dy / length;
  const float h = std::min(head, length);
  const Point base{b.x - ux * h, b.y - uy * h};
  if (length > h) add_line(f, a, base, colour, thickness);
  const float half = h * 0.45f;
  f.shapes.emplace_back(Triangle{b, {base.x - uy * half, base.y + ux * half},
                                 {base.x + uy * half, base.y - ux * half}, colour});
}

Box bounds(const Figure& f) {
  Box b{1e30f, 1e30f, -1e30f, -1e30f};
  const auto take = [&](Point p) {
    b.x0 = std::min(b.x0, p.x);
    b.y0 = std::min(b.y0, p.y);
    b.x1 = std::max(b.x1, p.x);
    b.y1 = std::max(b.y1, p.y);
  };
  for (const Shape& shape : f.shapes) {
    std::visit(
        [&](const auto& s) {
          using S = std::decay_t<decltype(s)>;
          if constexpr (std::is_same_v<S, FillRect> || std::is_same_v<S, StrokeRect>) {
            take({s.box.x0, s.box.y0});
            take({s.box.x1, s.box.y1});
          } else if constexpr (std::is_same_v<S, Line>) {
            take(s.a);
            take(s.b);
          } else if constexpr (std::is_same_v<S, Triangle>) {
            take(s.a);
            take(s.b);
            take(s.c);
          } else if constexpr (std::is_same_v<S, Circle>) {
            take({s.center.x - s.radius, s.center.y - s.radius});
            take({s.center.x + s.radius, s.center.y + s.radius});
          } else {
            take(s.at);
          }
        },
        shape);
  }
  if (f.shapes.empty()) return {};
  return b;
}

}  // namespace warpsim::gui
