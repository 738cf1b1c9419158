// A failed compile's output, as lines of the kernel file: the source view marks each line that the
// compiler complained about and shows its message there.
//
//   parse_compiler_messages("/x/k.cu:12:5: error: 'v' was not declared\n...", "/x/k.cu")
//     == {{.line = 12, .column = 5, .severity = "error", .text = "'v' was not declared"}}
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::gui {

struct CompilerMessage {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::string severity;  // "error", "warning", "note"
  std::string text;
};

// Messages about `file` (matched by its last path component, as compilers may print it relative
// or absolute), in the order printed.
std::vector<CompilerMessage> parse_compiler_messages(std::string_view output,
                                                     std::string_view file);

}  // namespace warpsim::gui
