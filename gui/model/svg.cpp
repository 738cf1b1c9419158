#include "model/svg.hpp"

#include "warpsim/xml_escape.hpp"

#include <cstdio>
#include <type_traits>

namespace warpsim::gui {
namespace {

std::string number(float v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", static_cast<double>(v));
  std::string s = text;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string colour(Rgba c) {
  char text[16];
  std::snprintf(text, sizeof text, "#%02x%02x%02x", c.r, c.g, c.b);
  return text;
}

// fill="#rrggbb" plus an opacity attribute when the colour is translucent.
std::string paint(const char* attribute, Rgba c) {
  std::string s = std::string(attribute) + "=\"" + colour(c) + "\"";
  if (c.a != 255) s += " " + std::string(attribute) + "-opacity=\"" + number(c.a / 255.0f) + "\"";
  return s;
}

}  // namespace


std::string to_svg(const Figure& f) {
  std::string out;
  out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + number(f.width) + "\" height=\"" +
         number(f.height) + "\" viewBox=\"0 0 " + number(f.width) + " " + number(f.height) +
         "\">\n";
  out += "<rect x=\"0\" y=\"0\" width=\"" + number(f.width) + "\" height=\"" + number(f.height) +
         "\" " + paint("fill", f.background) + "/>\n";
  const FontMetrics& m = f.fonts;
  out += "<style>text{font-family:'DejaVu Sans',Verdana,sans-serif}.v{font-family:'DejaVu Sans "
         "Mono',Menlo,monospace;font-size:" + number(m.value_size) + "px}.l{font-size:" +
         number(m.label_size) + "px}.s{font-size:" + number(m.small_size) + "px}.t{font-size:" +
         number(m.title_size) + "px;font-weight:bold}</style>\n";
  for (const Shape& shape : f.shapes) {
    std::visit(
        [&](const auto& s) {
          using S = std::decay_t<decltype(s)>;
          if constexpr (std::is_same_v<S, FillRect>) {
            out += "<rect x=\"" + number(s.box.x0) + "\" y=\"" + number(s.box.y0) +
                   "\" width=\"" + number(s.box.width()) + "\" height=\"" +
                   number(s.box.height()) + "\"";
            if (s.rounding > 0) out += " rx=\"" + number(s.rounding) + "\"";
            out += " " + paint("fill", s.colour) + "/>\n";
          } else if constexpr (std::is_same_v<S, StrokeRect>) {
            out += "<rect x=\"" + number(s.box.x0) + "\" y=\"" + number(s.box.y0) +
                   "\" width=\"" + number(s.box.width()) + "\" height=\"" +
                   number(s.box.height()) + "\"";
            if (s.rounding > 0) out += " rx=\"" + number(s.rounding) + "\"";
            out += " fill=\"none\" " + paint("stroke", s.colour) + " stroke-width=\"" +
                   number(s.thickness) + "\"/>\n";
          } else if constexpr (std::is_same_v<S, Line>) {
            out += "<line x1=\"" + number(s.a.x) + "\" y1=\"" + number(s.a.y) + "\" x2=\"" +
                   number(s.b.x) + "\" y2=\"" + number(s.b.y) + "\" " + paint("stroke", s.colour) +
                   " stroke-width=\"" + number(s.thickness) + "\"/>\n";
          } else if constexpr (std::is_same_v<S, Triangle>) {
            out += "<polygon points=\"" + number(s.a.x) + "," + number(s.a.y) + " " +
                   number(s.b.x) + "," + number(s.b.y) + " " + number(s.c.x) + "," +
                   number(s.c.y) + "\" " + paint("fill", s.colour) + "/>\n";
          } else if constexpr (std::is_same_v<S, Circle>) {
            out += "<circle cx=\"" + number(s.center.x) + "\" cy=\"" + number(s.center.y) +
                   "\" r=\"" + number(s.radius) + "\" " + paint("fill", s.fill) + " " +
                   paint("stroke", s.outline) + " stroke-width=\"" + number(s.thickness) +
                   "\"/>\n";
          } else {
            out += "<text x=\"" + number(s.at.x) + "\" y=\"" + number(s.at.y) + "\"";
            out += s.align == Align::center  ? " text-anchor=\"middle\""
                   : s.align == Align::right ? " text-anchor=\"end\""
                                             : "";
            out += " dominant-baseline=\"central\" class=\"" +
                   std::string(s.face == Face::value   ? "v"
                               : s.face == Face::small ? "s"
                               : s.face == Face::title ? "t"
                                                       : "l") +
                   "\" " + paint("fill", s.colour) + ">" + xml_escape(s.text) + "</text>\n";
          }
        },
        shape);
  }
  out += "</svg>\n";
  return out;
}

}  // namespace warpsim::gui
