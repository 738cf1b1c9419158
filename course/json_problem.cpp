#include "json_problem.hpp"

#include <algorithm>

namespace warpsim::course {
namespace {

// nlohmann's what() without its "[json.exception.parse_error.101] " prefix, and without the
// "parse error at line 3, column 5: syntax error while parsing object - " that we say better.
std::string plain(std::string_view what) {
  if (const std::size_t bracket = what.find("] "); what.starts_with("[json.") &&
                                                   bracket != std::string_view::npos) {
    what.remove_prefix(bracket + 2);
  }
  if (const std::size_t dash = what.find(" - "); dash != std::string_view::npos) {
    what.remove_prefix(dash + 3);
  } else if (const std::size_t colon = what.find(": "); what.starts_with("parse error") &&
                                                        colon != std::string_view::npos) {
    what.remove_prefix(colon + 2);
  }
  return std::string(what);
}

}  // namespace

std::string json_problem(const std::filesystem::path& file, std::string_view text,
                         const nlohmann::json::exception& error) {
  const std::string where = file.string();
  if (const auto* parse = dynamic_cast<const nlohmann::json::parse_error*>(&error)) {
    // byte: 1-based, the character where reading stopped (the length + 1 at the end).
    const std::size_t at = std::min<std::size_t>(parse->byte == 0 ? 0 : parse->byte - 1, text.size());
    const std::size_t line =
        1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
    const std::size_t line_start = text.rfind('\n', at == 0 ? 0 : at - 1);
    const std::size_t column = line_start == std::string_view::npos || at == 0 ? at + 1 : at - line_start;
    std::string what = plain(parse->what());
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) what = "the file is empty";
    return where + ", line " + std::to_string(line) + ", column " + std::to_string(column) +
           ": not valid JSON: " + what;
  }
  return where + ": a value has the wrong type or is missing (" + plain(error.what()) +
         "); lessons/README.md gives each field's type";
}

}  // namespace warpsim::course
