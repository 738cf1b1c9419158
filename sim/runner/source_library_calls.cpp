// Calls of a library whose headers launch the kernels (cub's device-wide algorithms: cub launches
// every kernel through one `<<<>>>` in Thrust's triple_chevron header) are marked with the line
// of the user's call, so that the launches made inside are listed there, not at the header's line
// (mark_library_calls).
#include <optional>
#include <string>

#include "source_tokens.hpp"
#include "warpsim/runner.hpp"

namespace warpsim::runner {
namespace {

// The `>` closing the template argument list that opens with the `<` at `open`, skipping
// parenthesized groups (`<(N > 2)>`); nullopt at a `;` or the end.
std::optional<std::size_t> template_close(const std::vector<Token>& tokens, std::size_t open) {
  int angles = 0;
  int groups = 0;
  for (std::size_t i = open; i < tokens.size(); ++i) {
    const std::string_view text = tokens[i].text;
    if (text == ";" || text == "{" || text == "}") return std::nullopt;
    if (text == "(" || text == "[") ++groups;
    if (text == ")" || text == "]") --groups;
    if (groups != 0) continue;
    if (text == "<") ++angles;
    if (text == ">" && --angles == 0) return i;
  }
  return std::nullopt;
}

}  // namespace

std::string mark_library_calls(std::string_view source) {
  const std::string stripped = strip_for_scan(source);
  const std::vector<Token> tokens = tokenize(stripped);
  std::string out;
  std::size_t copied = 0;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    // cub::DeviceXxx::name( or ::cub::DeviceXxx::name<...>(, not ns::cub::...
    if (tokens[i].text != "cub") continue;
    std::size_t start = i;
    if (i > 0 && tokens[i - 1].text == "::") {
      if (i > 1 && (tokens[i - 2].kind == Token::Kind::identifier || tokens[i - 2].text == ">"))
        continue;
      start = i - 1;
    }
    if (!token_is(tokens, i + 1, "::") || i + 4 >= tokens.size() ||
        tokens[i + 2].kind != Token::Kind::identifier || !tokens[i + 2].text.starts_with("Device") ||
        !token_is(tokens, i + 3, "::") || tokens[i + 4].kind != Token::Kind::identifier) {
      continue;
    }
    std::size_t open = i + 5;
    if (token_is(tokens, open, "<")) {
      const std::optional<std::size_t> close = template_close(tokens, open);
      if (!close) continue;
      open = *close + 1;
    }
    if (!token_is(tokens, open, "(")) continue;  // named, not called: `&cub::DeviceReduce::Sum`
    const std::size_t after = after_parentheses(tokens, open);
    if (after >= tokens.size()) continue;  // unbalanced (a call is never a file's last token)
    const std::size_t close = after - 1;
    const std::size_t from = tokens[start].offset;
    const std::size_t to = tokens[close].offset + 1;
    out.append(source.substr(copied, from - copied));
    out += "(::warpsim::shim::LibraryCallSite(__FILE__, __LINE__), ";
    out.append(source.substr(from, to - from));
    out += ")";
    copied = to;
    i = close;
  }
  out.append(source.substr(copied));
  return out;
}

}  // namespace warpsim::runner
