#include "model/compiler_messages.hpp"

#include <charconv>

namespace warpsim::gui {
namespace {

std::string_view last_component(std::string_view path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool read_number(std::string_view& text, std::uint32_t& value) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end == text.data()) return false;
  text.remove_prefix(static_cast<std::size_t>(end - text.data()));
  return true;
}

}  // namespace

std::vector<CompilerMessage> parse_compiler_messages(std::string_view output,
                                                     std::string_view file) {
  std::vector<CompilerMessage> messages;
  const std::string_view name = last_component(file);
  while (!output.empty()) {
    const auto newline = output.find('\n');
    std::string_view line = output.substr(0, newline);
    output = newline == std::string_view::npos ? std::string_view{} : output.substr(newline + 1);
    // PATH:LINE:COLUMN: SEVERITY: TEXT (GCC and Clang)
    const auto colon = line.find(':');
    if (colon == std::string_view::npos || last_component(line.substr(0, colon)) != name) continue;
    std::string_view rest = line.substr(colon + 1);
    CompilerMessage m;
    if (!read_number(rest, m.line) || rest.empty() || rest[0] != ':') continue;
    rest.remove_prefix(1);
    if (read_number(rest, m.column)) {
      if (rest.empty() || rest[0] != ':') continue;
      rest.remove_prefix(1);
    }
    while (!rest.empty() && rest[0] == ' ') rest.remove_prefix(1);
    const auto sep = rest.find(": ");
    if (sep == std::string_view::npos) continue;
    m.severity = std::string(rest.substr(0, sep));
    if (m.severity.starts_with("fatal ")) m.severity = "error";
    if (m.severity != "error" && m.severity != "warning" && m.severity != "note") continue;
    m.text = std::string(rest.substr(sep + 2));
    messages.push_back(std::move(m));
  }
  return messages;
}

}  // namespace warpsim::gui
