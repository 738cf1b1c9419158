#include "model/text_blocks.hpp"

#include <sstream>

namespace warpsim::gui {
namespace {

// "*Lesson 04*, `a * b`" -> "Lesson 04, a * b": emphasis marks go (a star at a word's edge),
// code spans keep every character but their backticks.
std::string plain(std::string_view text) {
  std::string out;
  bool code = false;
  const auto blank = [&](std::size_t i) {
    return i >= text.size() || text[i] == ' ' || text[i] == '.' || text[i] == ',' ||
           text[i] == ':' || text[i] == ')';
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '`') {
      code = !code;
      continue;
    }
    if (c == '*' && !code) {
      const bool opens = (i == 0 || text[i - 1] == ' ' || text[i - 1] == '(') && !blank(i + 1);
      const bool closes = i > 0 && text[i - 1] != ' ' && blank(i + 1);
      if (opens || closes) continue;
    }
    out += c;
  }
  return out;
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::vector<TextBlock> text_blocks(std::string_view markdown) {
  std::vector<TextBlock> blocks;
  std::istringstream in{std::string(markdown)};
  std::string line;
  bool fenced = false;
  TextBlock* open = nullptr;  // the paragraph, bullet or indented code being continued
  const auto start = [&](TextBlock::Kind kind, std::string text, int level = 0) {
    blocks.push_back({kind, level, std::move(text)});
    open = &blocks.back();
  };
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::string_view t = trimmed(line);
    if (t.starts_with("```")) {
      if (!fenced) start(TextBlock::Kind::code, "");
      fenced = !fenced;
      if (!fenced) open = nullptr;
      continue;
    }
    if (fenced) {
      open->text += (open->text.empty() ? "" : "\n") + line;
      continue;
    }
    if (t.empty()) {
      open = nullptr;
      continue;
    }
    if (line.starts_with("    ") || line.starts_with("\t")) {
      // An indented code block (a formula), unless it continues a bullet item.
      if (open == nullptr || open->kind == TextBlock::Kind::code) {
        if (open == nullptr) start(TextBlock::Kind::code, "");
        open->text += (open->text.empty() ? "" : "\n") + std::string(line.substr(4));
        continue;
      }
    }
    if (t.starts_with("#")) {
      const std::size_t level = t.find_first_not_of('#');
      start(TextBlock::Kind::heading,
            plain(trimmed(t.substr(level == std::string_view::npos ? t.size() : level))),
            static_cast<int>(level == std::string_view::npos ? t.size() : level));
      open = nullptr;
      continue;
    }
    if (t.starts_with("- ") || t.starts_with("* ")) {
      start(TextBlock::Kind::bullet, plain(trimmed(t.substr(2))));
      continue;
    }
    if (open != nullptr && open->kind != TextBlock::Kind::code) {
      open->text += " " + plain(t);
    } else {
      start(TextBlock::Kind::paragraph, plain(t));
    }
  }
  return blocks;
}

}  // namespace warpsim::gui
