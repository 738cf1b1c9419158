// A markdown text (an exercise's statement.md) as blocks a view can draw: headings, paragraphs
// (lines joined, *emphasis* and `code` marks dropped), bullet items and code blocks kept line by
// line. Only what the course's statements use; anything else reads as a paragraph.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::gui {

struct TextBlock {
  enum class Kind : std::uint8_t { heading, paragraph, bullet, code };
  Kind kind = Kind::paragraph;
  int level = 0;     // headings: 1 for #, 2 for ##, ...
  std::string text;  // code: its lines joined with '\n'
  friend bool operator==(const TextBlock&, const TextBlock&) = default;
};

std::vector<TextBlock> text_blocks(std::string_view markdown);

}  // namespace warpsim::gui
