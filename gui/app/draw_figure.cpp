#include "draw_figure.hpp"

#include "imgui_colour.hpp"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <type_traits>

namespace warpsim::gui {
namespace {

// Rounded corners on wide boxes only (banners, a reduction's result): a lane's cell is square on
// screen, since software GL spends a third of a frame on thirty-two rows of rounded corners.
float rounding(Box box, float r) { return box.width() >= 80 ? r : 0; }

ImFont* font_of(const Fonts& fonts, Face face) {
  switch (face) {
    case Face::value:
      return fonts.value;
    case Face::small:
      return fonts.small;
    case Face::title:
      return fonts.title;
    case Face::label:
      break;
  }
  return fonts.label;
}

}  // namespace

float measure_text(const Fonts& fonts, std::string_view text, Face face) {
  ImFont* font = font_of(fonts, face);
  return font->CalcTextSizeA(font->FontSize, FLT_MAX, 0, text.data(), text.data() + text.size()).x;
}

void draw_figure(ImDrawList& list, const Figure& figure, float x, float y, const Fonts& fonts) {
  const auto p = [&](Point q) { return ImVec2(x + q.x, y + q.y); };
  for (const Shape& shape : figure.shapes) {
    std::visit(
        [&](const auto& s) {
          using S = std::decay_t<decltype(s)>;
          if constexpr (std::is_same_v<S, FillRect>) {
            list.AddRectFilled(p({s.box.x0, s.box.y0}), p({s.box.x1, s.box.y1}), colour(s.colour),
                               rounding(s.box, s.rounding));
          } else if constexpr (std::is_same_v<S, StrokeRect>) {
            if (rounding(s.box, s.rounding) > 0) {
              // ImGui strokes centred on the edge: inset by half the thickness to stay inside.
              const float h = s.thickness / 2;
              list.AddRect(p({s.box.x0 + h, s.box.y0 + h}), p({s.box.x1 - h, s.box.y1 - h}),
                           colour(s.colour), s.rounding, 0, s.thickness);
            } else {
              // Four plain rectangles: no anti-aliased fringe to fill, edges on the box's own.
              const Box b = s.box;
              const float t = std::max(1.0f, std::round(s.thickness));
              const ImU32 c = colour(s.colour);
              list.AddRectFilled(p({b.x0, b.y0}), p({b.x1, b.y0 + t}), c);
              list.AddRectFilled(p({b.x0, b.y1 - t}), p({b.x1, b.y1}), c);
              list.AddRectFilled(p({b.x0, b.y0 + t}), p({b.x0 + t, b.y1 - t}), c);
              list.AddRectFilled(p({b.x1 - t, b.y0 + t}), p({b.x1, b.y1 - t}), c);
            }
          } else if constexpr (std::is_same_v<S, Line>) {
            // Whole-pixel widths take ImGui's textured anti-aliasing: one quad a line, which
            // software GL fills far faster than the geometric fringe of fractional widths.
            list.AddLine(p(s.a), p(s.b), colour(s.colour), std::max(1.0f, std::round(s.thickness)));
          } else if constexpr (std::is_same_v<S, Triangle>) {
            list.AddTriangleFilled(p(s.a), p(s.b), p(s.c), colour(s.colour));
          } else if constexpr (std::is_same_v<S, Circle>) {
            list.AddCircleFilled(p(s.center), s.radius, colour(s.fill));
            if (s.thickness > 0 && !(s.outline == s.fill)) {
              list.AddCircle(p(s.center), s.radius, colour(s.outline), 0, s.thickness);
            }
          } else {
            ImFont* font = font_of(fonts, s.face);
            const char* begin = s.text.data();
            const char* end = begin + s.text.size();
            const ImVec2 size = font->CalcTextSizeA(font->FontSize, FLT_MAX, 0, begin, end);
            float left = s.at.x;
            if (s.align == Align::center) left -= size.x / 2;
            if (s.align == Align::right) left -= size.x;
            list.AddText(font, font->FontSize, p({std::round(left), std::round(s.at.y - size.y / 2)}),
                         colour(s.colour), begin, end);
          }
        },
        shape);
  }
}

}  // namespace warpsim::gui
