#include "source_tokens.hpp"

#include <algorithm>
#include <utility>

namespace warpsim::runner {
namespace {

bool is_identifier_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_identifier_char(char c) { return is_identifier_start(c) || is_digit(c); }

class Stripper {
 public:
  explicit Stripper(std::string_view source) : in_(source), out_(source) {}

  // The directives' extents, from '#' to the end of their last line, as `run` met them.
  const std::vector<std::pair<std::size_t, std::size_t>>& directives() const { return directives_; }

  std::string run() {
    bool line_start = true;  // only blanks since the last newline
    while (i_ < in_.size()) {
      const char c = in_[i_];
      if (c == '\n') {
        line_start = true;
        ++i_;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        ++i_;
      } else if (line_start && c == '#') {
        skip_directive();
      } else {
        line_start = false;
        if (starts("//")) {
          blank_until_line_end();
        } else if (starts("/*")) {
          skip_block_comment();
        } else if (c == '"') {
          skip_string('"');
        } else if (c == '\'') {
          skip_string('\'');
        } else if (is_digit(c) || (c == '.' && i_ + 1 < in_.size() && is_digit(in_[i_ + 1]))) {
          skip_number();
        } else if (is_identifier_start(c)) {
          skip_identifier_or_raw_string();
        } else {
          ++i_;
        }
      }
    }
    return std::move(out_);
  }

 private:
  bool starts(std::string_view text) const { return in_.substr(i_, text.size()) == text; }

  void blank(std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < to && k < out_.size(); ++k) {
      if (out_[k] != '\n') out_[k] = ' ';
    }
  }

  void blank_until_line_end() {
    const std::size_t start = i_;
    while (i_ < in_.size() && in_[i_] != '\n') ++i_;
    blank(start, i_);
  }

  void skip_block_comment() {
    const std::size_t end = in_.find("*/", i_ + 2);
    const std::size_t stop = end == std::string_view::npos ? in_.size() : end + 2;
    blank(i_, stop);
    i_ = stop;
  }

  // A directive runs to the end of its line, continued by a trailing backslash; comments in it
  // end it too (a block comment may span lines).
  void skip_directive() {
    const std::size_t start = i_;
    while (i_ < in_.size()) {
      if (in_[i_] == '\\' && i_ + 1 < in_.size() && in_[i_ + 1] == '\n') {
        i_ += 2;
      } else if (in_[i_] == '\\' && starts("\\\r\n")) {
        i_ += 3;
      } else if (starts("/*")) {
        const std::size_t end = in_.find("*/", i_ + 2);
        i_ = end == std::string_view::npos ? in_.size() : end + 2;
      } else if (starts("//") || in_[i_] == '\n') {
        break;
      } else {
        ++i_;
      }
    }
    directives_.emplace_back(start, i_);
    blank(start, i_);
    if (starts("//")) blank_until_line_end();
  }

  void skip_string(char quote) {
    const std::size_t start = i_ + 1;
    ++i_;
    while (i_ < in_.size() && in_[i_] != quote && in_[i_] != '\n') {
      i_ += in_[i_] == '\\' ? 2 : 1;
    }
    blank(start, i_);
    if (i_ < in_.size() && in_[i_] == quote) ++i_;
  }

  void skip_number() {
    // pp-number: digits, letters, dots, digit separators, and signs after an exponent.
    while (i_ < in_.size()) {
      const char c = in_[i_];
      if ((c == '+' || c == '-') && i_ > 0 &&
          (in_[i_ - 1] == 'e' || in_[i_ - 1] == 'E' || in_[i_ - 1] == 'p' || in_[i_ - 1] == 'P')) {
        ++i_;
      } else if (is_identifier_char(c) || c == '.' || c == '\'') {
        ++i_;
      } else {
        break;
      }
    }
  }

  void skip_identifier_or_raw_string() {
    const std::size_t start = i_;
    while (i_ < in_.size() && is_identifier_char(in_[i_])) ++i_;
    const std::string_view word = in_.substr(start, i_ - start);
    const bool prefix =
        word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR";
    if (prefix && i_ < in_.size() && in_[i_] == '"') {
      skip_raw_string();
    } else if ((word == "u8" || word == "u" || word == "U" || word == "L") && i_ < in_.size() &&
               (in_[i_] == '"' || in_[i_] == '\'')) {
      skip_string(in_[i_]);
    }
  }

  void skip_raw_string() {
    const std::size_t open = in_.find('(', i_);
    if (open == std::string_view::npos) {
      i_ = in_.size();
      return;
    }
    const std::string close = ")" + std::string(in_.substr(i_ + 1, open - i_ - 1)) + "\"";
    const std::size_t end = in_.find(close, open);
    const std::size_t stop = end == std::string_view::npos ? in_.size() : end + close.size();
    blank(i_ + 1, stop - 1);
    i_ = stop;
  }

  std::string_view in_;
  std::string out_;
  std::size_t i_ = 0;
  std::vector<std::pair<std::size_t, std::size_t>> directives_;
};

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\\' || c == '\r' || c == '\n'; }

}  // namespace

std::string strip_for_scan(std::string_view source) { return Stripper(source).run(); }

std::size_t after_parentheses(const std::vector<Token>& tokens, std::size_t open) {
  int depth = 0;
  for (std::size_t k = open; k < tokens.size(); ++k) {
    if (tokens[k].text == "(") ++depth;
    if (tokens[k].text == ")" && --depth == 0) return k + 1;
  }
  return tokens.size();
}

std::string escape_for_string_literal(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '\\' || c == '"') out += '\\';
    out += c;
  }
  return out;
}

std::vector<MacroDefinition> macro_definitions(std::string_view source) {
  Stripper stripper(source);
  stripper.run();
  std::vector<MacroDefinition> definitions;
  for (const auto& [start, end] : stripper.directives()) {
    std::size_t i = start + 1;  // after '#'; blanks and continuations may separate the words
    const auto skip_blanks = [&] {
      while (i < end && is_blank(source[i])) ++i;
    };
    const auto identifier = [&] {
      const std::size_t from = i;
      while (i < end && is_identifier_char(source[i])) ++i;
      return source.substr(from, i - from);
    };
    skip_blanks();
    if (identifier() != "define") continue;
    skip_blanks();
    if (identifier().empty()) continue;
    MacroDefinition definition;
    if (i < end && source[i] == '(') {  // function-like: `(` right after the name
      ++i;
      for (;;) {
        skip_blanks();
        const std::string_view name = identifier();
        if (!name.empty()) definition.parameters.emplace_back(name);
        skip_blanks();
        if (i >= end || source[i] == ')') break;
        ++i;  // ',' or the '.' of "..."
      }
      if (i >= end) continue;
      ++i;
    }
    definition.body_offset = i;
    definition.body_size = end - i;
    definitions.push_back(std::move(definition));
  }
  return definitions;
}

std::string strip_macro_body_for_scan(std::string_view joined_body) {
  std::string scanned(joined_body);
  std::vector<std::size_t> hashes;
  for (std::size_t i = 0, line = 0; i <= scanned.size(); ++i) {
    if (i == scanned.size() || scanned[i] == '\n') {
      const std::size_t first = scanned.find_first_not_of(" \t\r", line);
      if (first < i && scanned[first] == '#') hashes.push_back(first);
      line = i + 1;
    }
  }
  for (const std::size_t at : hashes) scanned[at] = '$';
  std::string stripped = strip_for_scan(scanned);
  for (const std::size_t at : hashes) stripped[at] = '#';
  return stripped;
}

std::string rewrite_macro_bodies(std::string_view source, std::string_view needle,
                                 const MacroBodyRewrite& rewrite) {
  std::string out;
  std::size_t copied = 0;
  for (const MacroDefinition& macro : macro_definitions(source)) {
    const std::string_view body = source.substr(macro.body_offset, macro.body_size);
    if (body.find(needle) == std::string_view::npos) continue;
    std::string joined;  // backslash-newline becomes newline: one line each, as before
    for (std::size_t i = 0; i < body.size(); ++i) {
      const bool continuation =
          body[i] == '\\' && (body.substr(i + 1, 1) == "\n" || body.substr(i + 1, 2) == "\r\n");
      if (continuation) continue;
      joined += body[i];
    }
    const std::string rewritten = rewrite(joined, macro);
    if (rewritten == joined) continue;
    out.append(source.substr(copied, macro.body_offset - copied));
    for (std::size_t i = 0; i < rewritten.size(); ++i) {
      const bool line_end = rewritten[i] == '\n' ? i == 0 || rewritten[i - 1] != '\r'
                                                 : rewritten.compare(i, 2, "\r\n") == 0;
      if (line_end) out += '\\';
      out += rewritten[i];
    }
    copied = macro.body_offset + macro.body_size;
  }
  out.append(source.substr(copied));
  return out;
}

std::vector<IncludeDirective> include_directives(std::string_view source) {
  Stripper stripper(source);
  stripper.run();
  std::vector<IncludeDirective> includes;
  std::size_t counted = 0;  // lines counted up to this offset
  std::uint32_t line = 1;
  for (const auto& [start, end] : stripper.directives()) {
    std::size_t i = start + 1;  // after '#'
    const auto skip_blanks = [&] {
      while (i < end && (source[i] == ' ' || source[i] == '\t')) ++i;
    };
    skip_blanks();
    const std::size_t word = i;
    while (i < end && is_identifier_char(source[i])) ++i;
    if (source.substr(word, i - word) != "include") continue;
    skip_blanks();
    if (i >= end || (source[i] != '"' && source[i] != '<')) continue;
    const char close = source[i] == '"' ? '"' : '>';
    const std::size_t name = i + 1;
    const std::size_t name_end = source.find(close, name);
    if (name_end == std::string_view::npos || name_end > end || name_end == name) continue;
    line += static_cast<std::uint32_t>(
        std::count(source.begin() + static_cast<std::ptrdiff_t>(counted),
                   source.begin() + static_cast<std::ptrdiff_t>(start), '\n'));
    counted = start;
    includes.push_back({name, name_end - name, close == '>', line});
  }
  return includes;
}

std::vector<Token> tokenize(std::string_view stripped) {
  std::vector<Token> tokens;
  std::uint32_t line = 1;
  std::size_t i = 0;
  while (i < stripped.size()) {
    const char c = stripped[i];
    if (c == '\n') {
      ++line;
      ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '"' || c == '\'') {
      ++i;  // quotes are what is left of blanked literals
      continue;
    }
    Token token;
    token.offset = i;
    token.line = line;
    std::size_t end = i + 1;
    if (is_identifier_start(c)) {
      token.kind = Token::Kind::identifier;
      while (end < stripped.size() && is_identifier_char(stripped[end])) ++end;
    } else if (is_digit(c)) {
      token.kind = Token::Kind::number;
      while (end < stripped.size() &&
             (is_identifier_char(stripped[end]) || stripped[end] == '.' || stripped[end] == '\'')) {
        ++end;
      }
    } else {
      token.kind = Token::Kind::punctuation;
      if (c == ':' && end < stripped.size() && stripped[end] == ':') ++end;
    }
    token.text = stripped.substr(i, end - i);
    tokens.push_back(token);
    i = end;
  }
  return tokens;
}

}  // namespace warpsim::runner
