// A rough C++ token stream, enough to find declarations in a CUDA file without preprocessing it:
// comments, string and character literals and preprocessor lines are blanked first (newlines
// kept), so offsets and line numbers in the stripped text are those of the original.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::runner {

// Same length as `source`; comments, literals' contents and preprocessor directives become
// spaces, newlines stay.
std::string strip_for_scan(std::string_view source);

struct Token {
  enum class Kind : std::uint8_t { identifier, number, punctuation };
  Kind kind{};
  std::string_view text;  // into the stripped text; "::" is one token, other punctuation one char
  std::size_t offset = 0;
  std::uint32_t line = 0;  // 1-based
};

std::vector<Token> tokenize(std::string_view stripped);

// A `#define`: where its replacement text lies in the source (continuation lines included,
// a trailing // comment not) and its parameters' names (none for an object-like macro).
struct MacroDefinition {
  std::size_t body_offset = 0;
  std::size_t body_size = 0;
  std::vector<std::string> parameters;
};

std::vector<MacroDefinition> macro_definitions(std::string_view source);

}  // namespace warpsim::runner
