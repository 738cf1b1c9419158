// Turning a user's kernel file into the translation unit the host compiler builds.
#include <algorithm>
#include <string>

#include "source_tokens.hpp"
#include "warpsim/runner.hpp"

namespace warpsim::runner {
namespace {

using Kind = Token::Kind;

bool is_alignment_word(std::string_view word) {
  return word == "__align__" || word == "alignas" || word == "__attribute__" ||
         word == "__declspec";
}

// The name through which rewritten declarations reach the runtime's dynamic shared buffer.
constexpr std::string_view kSharedAlias = "warpsim_runner_dynamic_shared_";

// One `extern __shared__` declaration as a reference to the runtime's buffer:
//   extern __shared__ __align__(16) float s[];
//   float (&s)[] = *reinterpret_cast<float (*)[]>(warpsim_runner_dynamic_shared_);
// A reference rather than an extern declaration: kernels may declare the same name with
// different types (each template instantiation, each kernel), which one extern entity cannot
// be. `__shared__`, `extern` and alignment attributes are left out: the buffer carries the
// alignment. Returns "" when the declaration has no `name[` to rewrite.
std::string shared_reference(const std::vector<Token>& tokens, std::size_t first,
                             std::size_t semicolon) {
  std::vector<std::string_view> kept;
  for (std::size_t k = first; k < semicolon; ++k) {
    const Token& token = tokens[k];
    if (token.text == "__shared__" || token.text == "extern") continue;
    if (token.kind == Kind::identifier && is_alignment_word(token.text) && k + 1 < semicolon &&
        tokens[k + 1].text == "(") {
      int depth = 0;
      for (++k; k < semicolon; ++k) {
        if (tokens[k].text == "(") ++depth;
        if (tokens[k].text == ")" && --depth == 0) break;
      }
      continue;
    }
    if (token.text == "[" && k + 1 < semicolon && tokens[k + 1].text == "[") {  // [[attribute]]
      while (k < semicolon && !(tokens[k].text == "]" && tokens[k - 1].text == "]")) ++k;
      continue;
    }
    kept.push_back(token.text);
  }
  const auto bracket = std::find(kept.begin(), kept.end(), "[");
  if (bracket == kept.begin() || bracket == kept.end() || bracket - 1 == kept.begin()) return {};
  const auto close = std::find(bracket, kept.end(), "]");
  if (close == kept.end()) return {};
  std::string type;
  for (auto it = kept.begin(); it != bracket - 1; ++it) {
    if (!type.empty()) type += ' ';
    type += *it;
  }
  const std::string name(*(bracket - 1));
  std::string extent;
  for (auto it = bracket; it != close + 1; ++it) extent += *it;
  return type + " (&" + name + ")" + extent + " = *reinterpret_cast<" + type + " (*)" + extent +
         ">(" + std::string(kSharedAlias) + ");";
}

std::string escape_for_string_literal(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '\\' || c == '"') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

std::string rewrite_extern_shared(std::string_view source) {
  const std::string stripped = strip_for_scan(source);
  const std::vector<Token> tokens = tokenize(stripped);
  std::string out;
  std::size_t copied = 0;  // source offset up to which `out` holds the text
  std::size_t declaration_start = 0;
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    const std::string_view text = tokens[k].text;
    if (text == ";" || text == "{" || text == "}") {
      declaration_start = k + 1;
      continue;
    }
    if (text != "__shared__") continue;
    std::size_t semicolon = k;
    while (semicolon < tokens.size() && tokens[semicolon].text != ";" &&
           tokens[semicolon].text != "{" && tokens[semicolon].text != "=") {
      ++semicolon;
    }
    if (semicolon == tokens.size() || tokens[semicolon].text != ";") continue;
    const auto begin = tokens.begin() + static_cast<std::ptrdiff_t>(declaration_start);
    const auto end = tokens.begin() + static_cast<std::ptrdiff_t>(semicolon);
    const bool is_extern =
        std::any_of(begin, end, [](const Token& t) { return t.text == "extern"; });
    const bool is_array = std::any_of(begin, end, [](const Token& t) { return t.text == "["; });
    // Commas inside template arguments are fine; `a[], b[]` is left for the compiler to reject.
    const bool one_declarator =
        std::none_of(begin, end, [](const Token& t) { return t.text == ","; }) ||
        std::any_of(begin, end, [](const Token& t) { return t.text == "<"; });
    if (!is_extern || !is_array || !one_declarator) continue;

    const std::size_t from = tokens[declaration_start].offset;
    const std::size_t to = tokens[semicolon].offset + 1;
    const std::string replacement = shared_reference(tokens, declaration_start, semicolon);
    if (replacement.empty()) continue;
    out.append(source.substr(copied, from - copied));
    out += replacement;
    const std::string_view replaced = source.substr(from, to - from);
    out.append(static_cast<std::size_t>(std::count(replaced.begin(), replaced.end(), '\n')), '\n');
    copied = to;
    k = semicolon;
    declaration_start = k + 1;
  }
  out.append(source.substr(copied));
  return out;
}

std::string prepare_source(std::string_view user_source, std::string_view absolute_path,
                           const KernelChoice& kernel) {
  std::string out;
  out.reserve(user_source.size() + 512);
  // The registry header goes first, before the user's macros can reach it.
  out += "#include \"warpsim/kernel_registry.hpp\"\n";
  out += "extern unsigned char* " + std::string(kSharedAlias) + " __asm__(\"" +
         kDynamicSharedBaseSymbol + "\");\n";
  out += "#line 1 \"" + escape_for_string_literal(absolute_path) + "\"\n";
  out += insert_loop_ticks(rewrite_extern_shared(user_source));
  if (!out.empty() && out.back() != '\n') out += '\n';
  out += "#line 1 \"<warpsim-generated>\"\n";
  out += "extern \"C\" __attribute__((visibility(\"default\"))) const warpsim::KernelDescriptor* ";
  out += kKernelEntrySymbol;
  out += "() {\n  return &warpsim::kernel_descriptor< &";
  out += kernel.expression;
  out += " >::value(\"" + escape_for_string_literal(kernel.name) + "\");\n}\n";
  return out;
}

}  // namespace warpsim::runner
