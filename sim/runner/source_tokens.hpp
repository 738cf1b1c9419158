// A rough C++ token stream, enough to find declarations in a CUDA file without preprocessing it:
// comments, string and character literals and preprocessor lines are blanked first (newlines
// kept), so offsets and line numbers in the stripped text are those of the original.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
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

// Whether token `k` exists and reads `text`.
inline bool token_is(const std::vector<Token>& tokens, std::size_t k, std::string_view text) {
  return k < tokens.size() && tokens[k].text == text;
}

// The token after the `)` that closes the `(` at `open`; tokens.size() when unbalanced.
std::size_t after_parentheses(const std::vector<Token>& tokens, std::size_t open);

// `text` with its backslashes and double quotes escaped, for a string literal.
std::string escape_for_string_literal(std::string_view text);

// A `#define`: where its replacement text lies in the source (continuation lines included,
// a trailing // comment not) and its parameters' names (none for an object-like macro).
struct MacroDefinition {
  std::size_t body_offset = 0;
  std::size_t body_size = 0;
  std::vector<std::string> parameters;
};

std::vector<MacroDefinition> macro_definitions(std::string_view source);

// strip_for_scan for one macro's replacement text with its continuations joined (as
// rewrite_macro_bodies passes it): a line of it that begins with `#parameter` is no directive
// there, and stays in the text.
std::string strip_macro_body_for_scan(std::string_view joined_body);

// Every macro definition whose replacement text contains `needle`, its body passed to `rewrite`
// with each backslash-newline turned into a newline (a line each, as before), and the result
// split again with backslashes at its newlines, so the definition keeps its lines. Bodies that
// `rewrite` returns unchanged stay byte for byte.
using MacroBodyRewrite =
    std::function<std::string(std::string_view joined_body, const MacroDefinition& macro)>;
std::string rewrite_macro_bodies(std::string_view source, std::string_view needle,
                                 const MacroBodyRewrite& rewrite);

// An `#include "name"` or `#include <name>`: where `name` lies in the source.
struct IncludeDirective {
  std::size_t name_offset = 0;
  std::size_t name_size = 0;
  bool angled = false;
  std::uint32_t line = 0;  // 1-based
};

// The file's #include directives with a literal name, in order (those under `#if 0` too;
// `#include MACRO` is left out).
std::vector<IncludeDirective> include_directives(std::string_view source);

}  // namespace warpsim::runner
