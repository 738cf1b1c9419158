// Text made safe for XML 1.0 content and attribute values (the SVG figures, JUnit reports).
#pragma once

#include <string>
#include <string_view>

namespace warpsim {

// &, <, >, " and ' as entities; control characters that XML 1.0 cannot hold (all below 0x20 but
// tab, newline and carriage return) as spaces.
inline std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        const bool forbidden =
            static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r';
        out += forbidden ? ' ' : c;
    }
  }
  return out;
}

}  // namespace warpsim
