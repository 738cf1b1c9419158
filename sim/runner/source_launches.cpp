// Launches in the user's source: every `kernel<<<config>>>(args)` nvcc accepts becomes a call the
// host compiler builds (rewrite_launches), and host variables named as CUDA's built-ins
// (`dim3 gridDim(16);`), which the shim's macros for the built-ins would swallow, get names of
// their own (rename_host_builtins).
#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include "source_tokens.hpp"
#include "warpsim/runner.hpp"

namespace warpsim::runner {
namespace {

using Kind = Token::Kind;

// Words after which a `::name` starts a new expression rather than continuing a qualified name.
bool ends_qualification(std::string_view word) {
  return word == "else" || word == "do" || word == "return" || word == "case" || word == "throw" ||
         word == "goto" || word == "co_await" || word == "co_return" || word == "co_yield";
}

// The `<` that opens the template argument list closed by the `>` at `close`, walking back over
// parenthesized, bracketed and braced groups (`k<T, (N > 2)>`, `k<Foo<int, 2>, 3>`).
std::optional<std::size_t> template_open(const std::vector<Token>& tokens, std::size_t close) {
  int angles = 0;
  int groups = 0;
  for (std::size_t i = close + 1; i-- > 0;) {
    const std::string_view text = tokens[i].text;
    if (text == ")" || text == "]" || text == "}") {
      ++groups;
    } else if (text == "(" || text == "[" || text == "{") {
      if (groups == 0) return std::nullopt;
      --groups;
    } else if (groups == 0) {
      if (text == ";") return std::nullopt;
      if (text == ">") ++angles;
      if (text == "<" && --angles == 0) return i;
    }
  }
  return std::nullopt;
}

// The `(` or `[` that opens the group closed by the `)` or `]` at `close`.
std::optional<std::size_t> group_open(const std::vector<Token>& tokens, std::size_t close) {
  int depth = 0;
  for (std::size_t i = close + 1; i-- > 0;) {
    const std::string_view text = tokens[i].text;
    if (text == ")" || text == "]" || text == "}") ++depth;
    if ((text == "(" || text == "[" || text == "{") && --depth == 0) {
      return (text == "(") == (tokens[close].text == ")") ? std::optional(i) : std::nullopt;
    }
    if (text == ";") return std::nullopt;
  }
  return std::nullopt;
}

// `->` at tokens `i - 1`, `i` (the tokenizer keeps `-` and `>` apart).
bool is_arrow(const std::vector<Token>& tokens, std::size_t i) {
  return i >= 1 && tokens[i].text == ">" && tokens[i - 1].text == "-" &&
         tokens[i].offset == tokens[i - 1].offset + 1;
}

// Words before a parenthesized group that make it a condition or an operand, not a call.
bool is_keyword_before_group(std::string_view word) {
  return ends_qualification(word) || word == "if" || word == "while" || word == "for" ||
         word == "switch" || word == "sizeof" || word == "alignof" || word == "decltype" ||
         word == "catch" || word == "new" || word == "delete";
}

// Whether a group that opens right after token `i` is a call or a subscript of what ends at `i`
// (`f(x)`, `t[i](x)`, `f(a)(b)`), not a condition or an operand (`if (c) (*fp)`).
bool applies_to_left(const std::vector<Token>& tokens, std::size_t i) {
  const std::string_view text = tokens[i].text;
  if (tokens[i].kind == Kind::identifier) return !is_keyword_before_group(text);
  if (text == "]") return true;
  if (text != ")") return false;
  const std::optional<std::size_t> open = group_open(tokens, i);
  return open && *open > 0 && applies_to_left(tokens, *open - 1);
}

// Where a name ending at token `end` begins: `k`, `ns::k`, `::k<T, 4>`, `a::b<int>::k<8>`,
// `ns::template k<T>`, and in a macro `k##_kernel`; nullopt when no name ends there.
std::optional<std::size_t> name_start(const std::vector<Token>& tokens, std::size_t end) {
  std::size_t i = end;
  std::optional<std::size_t> start;
  while (true) {
    if (tokens[i].text == ">" && !is_arrow(tokens, i)) {  // template arguments: to the '<'
      const std::optional<std::size_t> open = template_open(tokens, i);
      if (!open || *open == 0) return std::nullopt;
      i = *open - 1;
    }
    if (tokens[i].kind != Kind::identifier) return start;
    std::size_t at = i;
    // `a##b`: a pasted name in a macro
    while (at >= 3 && tokens[at - 1].text == "#" && tokens[at - 2].text == "#" &&
           tokens[at - 1].offset == tokens[at - 2].offset + 1 &&
           tokens[at - 3].kind == Kind::identifier) {
      at -= 3;
    }
    if (at > 0 && tokens[at - 1].text == "template") --at;
    start = at;
    if (at == 0 || tokens[at - 1].text != "::") return start;
    start = at - 1;
    const bool more = at >= 2 && ((tokens[at - 2].kind == Kind::identifier &&
                                   !ends_qualification(tokens[at - 2].text)) ||
                                  tokens[at - 2].text == ">");
    if (!more) return start;
    i = at - 2;
  }
}

// Where the kernel expression before a `<<<` at token `k` begins. The expression is a name
// (name_start) or any postfix expression that yields a kernel or a pointer to one, as nvcc takes
// it: `form->kernel`, `table.k`, `kernels[i]`, `(*fp)`, `get()->k`. Returns `k` itself when no
// expression precedes.
std::size_t launch_target_start(const std::vector<Token>& tokens, std::size_t k) {
  if (k == 0) return k;
  std::size_t end = k - 1;
  while (true) {
    std::size_t start;
    const std::string_view last = tokens[end].text;
    if (last == ")" || last == "]") {
      const std::optional<std::size_t> open = group_open(tokens, end);
      if (!open) return k;
      const bool applied = *open > 0 && applies_to_left(tokens, *open - 1);
      if (applied) {  // a call or a subscript: what it applies to comes first
        end = *open - 1;
        continue;
      }
      if (last == "]") return k;  // a lambda's captures or an attribute, not an expression
      start = *open;
    } else {
      const std::optional<std::size_t> name = name_start(tokens, end);
      if (!name) return k;
      start = *name;
    }
    // A member access continues the expression to its left.
    if (start >= 2 && tokens[start - 1].text == ".") {
      end = start - 2;
      continue;
    }
    if (start >= 3 && is_arrow(tokens, start - 1)) {
      end = start - 3;
      continue;
    }
    return start;
  }
}

// `<<<` or `>>>` at token `k`, as nvcc's lexer reads it: a `<<` (two characters together) then a
// `<`, which may stand apart (Rodinia writes `k << < grid, block >> > (args)`); `< <<` is no
// launch for nvcc either.
bool three_in_a_row(const std::vector<Token>& tokens, std::size_t k, std::string_view c) {
  return k + 2 < tokens.size() && tokens[k].text == c && tokens[k + 1].text == c &&
         tokens[k + 2].text == c && tokens[k + 1].offset == tokens[k].offset + 1;
}

// The token index of the `>>>` closing the launch configuration that starts after `<<<` at `k`.
std::optional<std::size_t> launch_config_end(const std::vector<Token>& tokens, std::size_t k) {
  int depth = 0;
  for (std::size_t j = k + 3; j < tokens.size(); ++j) {
    const std::string_view text = tokens[j].text;
    if (text == "(" || text == "[" || text == "{") ++depth;
    if (text == ")" || text == "]" || text == "}") {
      if (--depth < 0) return std::nullopt;
    }
    if (text == ";") return std::nullopt;
    if (depth == 0 && three_in_a_row(tokens, j, ">")) return j;
  }
  return std::nullopt;
}

// The offsets of the launch arguments written as a bare `0` or `NULL` in the parenthesized list
// opening at token `open`: nvcc converts such a null pointer constant to the kernel's parameter,
// a pointer included; forwarded through the shim's launch as an int it would no longer convert.
std::vector<std::size_t> zero_literal_arguments(const std::vector<Token>& tokens, std::size_t open) {
  std::vector<std::size_t> found;
  int depth = 0;
  std::size_t first = open + 1;
  for (std::size_t j = open; j < tokens.size(); ++j) {
    const std::string_view text = tokens[j].text;
    if (text == "(" || text == "[" || text == "{") {
      ++depth;
      continue;
    }
    const bool closes = text == ")" || text == "]" || text == "}";
    if ((depth == 1 && text == ",") || (closes && depth == 1)) {
      if (j == first + 1 && (tokens[first].text == "0" || tokens[first].text == "NULL")) {
        found.push_back(first);
      }
      first = j + 1;
    }
    if (closes && --depth == 0) break;
    if (text == ";") break;
  }
  return found;
}

std::string without_newlines(std::string_view text) {
  std::string out(text);
  std::replace(out.begin(), out.end(), '\n', ' ');
  std::replace(out.begin(), out.end(), '\r', ' ');
  return out;
}

bool is_parameter(const MacroDefinition* macro, std::string_view name) {
  return macro != nullptr && std::find(macro->parameters.begin(), macro->parameters.end(), name) !=
                                 macro->parameters.end();
}

// The kernel's name as launch records show it, as a C++ string literal: the target as written;
// in a macro, its parameters stringized (`LAUNCH(myKernel)` records "myKernel", not "k") and
// `##` dropped.
std::string launch_name_literal(std::string_view source, const std::vector<Token>& tokens,
                                std::size_t start, std::size_t k, const MacroDefinition* macro) {
  std::string out;
  std::string pending;
  const auto flush = [&] {
    if (pending.empty()) return;
    if (!out.empty()) out += ' ';
    out += "\"" + escape_for_string_literal(without_newlines(pending)) + "\"";
    pending.clear();
  };
  for (std::size_t t = start; t < k; ++t) {
    const Token& token = tokens[t];
    if (macro != nullptr && token.text == "#") continue;
    if (token.kind == Kind::identifier && is_parameter(macro, token.text)) {
      flush();
      if (!out.empty()) out += ' ';
      out += "#" + std::string(token.text);
      continue;
    }
    const bool pasted_next = macro != nullptr && t + 1 < k && tokens[t + 1].text == "#";
    const std::size_t end =
        t + 1 < k && !pasted_next ? tokens[t + 1].offset : token.offset + token.text.size();
    pending += source.substr(token.offset, end - token.offset);
  }
  flush();
  return out.empty() ? "\"\"" : out;
}

// One pass over `source`, a file or (when `macro` is given) one macro's replacement text with
// its continuations joined.
std::string rewrite_launch_expressions(std::string_view source, LaunchTarget for_target,
                                       const MacroDefinition* macro) {
  const std::string stripped =
      macro == nullptr ? strip_for_scan(source) : strip_macro_body_for_scan(source);
  const std::vector<Token> tokens = tokenize(stripped);
  std::string out;
  std::size_t copied = 0;
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    if (!three_in_a_row(tokens, k, "<")) continue;
    const std::size_t start = launch_target_start(tokens, k);
    const std::optional<std::size_t> close = launch_config_end(tokens, k);
    // The arguments follow the `>>>`; in a macro they may come with its use (`LAUNCH(k)(x)`).
    const bool arguments_follow = close && (token_is(tokens, *close + 3, "(") ||
                                            (macro != nullptr && *close + 3 == tokens.size()));
    if (start == k || !close || !arguments_follow || tokens[start].offset < copied) {
      continue;  // not a launch warpsim understands: the compiler will say so
    }
    const std::size_t from = tokens[start].offset;
    const std::string_view target = source.substr(from, tokens[k].offset - from);
    const std::size_t config_from = tokens[k + 2].offset + 1;
    const std::string_view config = source.substr(config_from, tokens[*close].offset - config_from);
    const std::string name = launch_name_literal(source, tokens, start, k, macro);
    std::string callee = without_newlines(target);
    callee.erase(callee.find_last_not_of(" \t") + 1);
    out.append(source.substr(copied, from - copied));
    if (for_target == LaunchTarget::simulator) {
      out += "::warpsim::shim::launch_kernel(" + name +
             ", __FILE__, __LINE__, ::warpsim::shim::launch_config(";
      out += config;
      out += "), [&](auto&&... warpsim_launch_args_) { " + callee + "(warpsim_launch_args_...); })";
    } else {
      // The configuration, the stream with it, goes to the hook, which launches with it.
      out += "::warpsim::gpu_hooks::launch_kernel(" + name +
             ", __FILE__, __LINE__, ::warpsim::gpu_hooks::launch_shape(";
      out += config;
      out += "), [&](const ::warpsim::gpu_hooks::LaunchShape& warpsim_launch_shape_, "
             "auto&&... warpsim_launch_args_) { " +
             callee +
             "<<<warpsim_launch_shape_.grid, warpsim_launch_shape_.block, "
             "warpsim_launch_shape_.shared_bytes, warpsim_launch_shape_.stream>>>("
             "warpsim_launch_args_...); })";
    }
    out.append(static_cast<std::size_t>(std::count(target.begin(), target.end(), '\n')), '\n');
    copied = tokens[*close + 2].offset + 1;
    if (for_target == LaunchTarget::simulator && token_is(tokens, *close + 3, "(")) {
      for (const std::size_t zero : zero_literal_arguments(tokens, *close + 3)) {
        out.append(source.substr(copied, tokens[zero].offset - copied));
        out += "::warpsim::shim::ZeroLiteral{}";
        copied = tokens[zero].offset + tokens[zero].text.size();
      }
    }
    k = *close + 2;
  }
  out.append(source.substr(copied));
  return out;
}

}  // namespace

std::string rewrite_launches(std::string_view source, LaunchTarget for_target) {
  const std::string in_macros =
      rewrite_macro_bodies(source, "<<<", [&](std::string_view body, const MacroDefinition& macro) {
        return rewrite_launch_expressions(body, for_target, &macro);
      });
  return rewrite_launch_expressions(in_macros, for_target, nullptr);
}

// ---------------------------------------------------------------------------------------------
// Host variables named as built-ins

namespace {

constexpr std::array<std::string_view, 4> kBuiltins{"gridDim", "blockDim", "threadIdx", "blockIdx"};
constexpr std::string_view kHostPrefix = "warpsim_host_";

bool is_builtin(std::string_view word) {
  return std::find(kBuiltins.begin(), kBuiltins.end(), word) != kBuiltins.end();
}

// Words after which a name is an operand, not a declarator.
bool is_operator_word(std::string_view word) {
  static constexpr std::array<std::string_view, 21> kWords{
      "return",   "case", "sizeof", "throw",   "else",     "do",        "new",
      "delete",   "goto", "typeid", "alignof", "decltype", "co_return", "co_yield",
      "co_await", "not",  "and",    "or",      "xor",      "bitand",    "bitor"};
  return std::find(kWords.begin(), kWords.end(), word) != kWords.end();
}

bool is_member_access(const std::vector<Token>& tokens, std::size_t k) {
  if (k == 0) return false;
  if (tokens[k - 1].text == ".") return true;
  return k >= 2 && tokens[k - 1].text == ">" && tokens[k - 2].text == "-" &&
         tokens[k - 1].offset == tokens[k - 2].offset + 1;
}

// `dim3 gridDim(16)`, `const dim3& blockDim`, `int blockDim[3]`, `std::array<int, 3> gridDim;`
// declare the name; `f(gridDim)`, `gridDim.x`, `n * gridDim.x` use it.
bool declares(const std::vector<Token>& tokens, std::size_t k) {
  if (k == 0 || k + 1 >= tokens.size()) return false;
  const std::string_view next = tokens[k + 1].text;
  if (next != ";" && next != "," && next != "=" && next != "(" && next != "{" && next != "[" &&
      next != ")") {
    return false;
  }
  std::size_t p = k - 1;
  while (p > 0 && (tokens[p].text == "*" || tokens[p].text == "&")) --p;
  const Token& type_end = tokens[p];
  if (type_end.kind == Kind::identifier) return !is_operator_word(type_end.text);
  return type_end.text == ">";
}

// `dim3 gridDim(1), blockDim(32);`: the name at `k` follows a comma of a declaration statement
// in the braces that open at `open`.
bool later_declarator(const std::vector<Token>& tokens, std::size_t k, std::size_t open) {
  if (tokens[k - 1].text != "," || tokens[open].text != "{") return false;
  std::size_t first = k - 1;  // back to the statement's start at this bracket level
  int groups = 0;
  while (first > open + 1) {
    const std::string_view text = tokens[first - 1].text;
    if (text == ")" || text == "]" || text == "}") ++groups;
    if (text == "(" || text == "[" || text == "{") --groups;
    if (groups == 0 && (text == ";" || text == "{" || text == "}")) break;
    --first;
  }
  // Its first declarator: the first name before a top-level `,` that is declared.
  groups = 0;
  for (std::size_t i = first; i < k - 1; ++i) {
    const std::string_view text = tokens[i].text;
    if (groups == 0 && text == ",") return false;
    if (groups == 0 && tokens[i].kind == Kind::identifier && declares(tokens, i)) return true;
    if (text == "(" || text == "[" || text == "{") ++groups;
    if (text == ")" || text == "]" || text == "}") --groups;
  }
  return false;
}

enum class BraceKind : std::uint8_t { block, class_body, other };

// What the `{` at `open` opens: a function body or block (names declared in it are local), a
// class body (members), or a namespace, an enum or an initializer.
BraceKind brace_kind(const std::vector<Token>& tokens, std::size_t open) {
  std::size_t first = open;
  int groups = 0;
  while (first > 0) {
    const std::string_view text = tokens[first - 1].text;
    if (groups == 0 && (text == ";" || text == "{" || text == "}")) break;
    if (text == ")" || text == "]") ++groups;
    if ((text == "(" || text == "[") && groups > 0) --groups;
    --first;
  }
  bool record = false;
  int depth = 0;  // words inside ( ) and [ ] (`for (i = 0; ...)`, `[=]`) say nothing of the brace
  for (std::size_t i = first; i < open; ++i) {
    const std::string_view text = tokens[i].text;
    if (text == "(" || text == "[") ++depth;
    if (text == ")" || text == "]") --depth;
    if (depth != 0) continue;
    if (text == "namespace" || text == "enum" || text == "=" || text == "extern") {
      return BraceKind::other;
    }
    if (text == "struct" || text == "class" || text == "union") record = true;
  }
  if (open == 0) return BraceKind::other;
  const Token& before = tokens[open - 1];
  if (record && (before.kind == Kind::identifier || before.text == ">")) {
    return BraceKind::class_body;
  }
  if (before.text == "return" || before.text == "(" || before.text == "," || before.text == "[") {
    return BraceKind::other;  // a braced initializer
  }
  return BraceKind::block;
}

}  // namespace

std::string rename_host_builtins(std::string_view source) {
  const std::string stripped = strip_for_scan(source);
  const std::vector<Token> tokens = tokenize(stripped);
  if (std::none_of(tokens.begin(), tokens.end(),
                   [](const Token& t) { return is_builtin(t.text); })) {
    return std::string(source);
  }
  // Each bracket's partner, and the innermost bracket open at each token.
  constexpr std::size_t none = static_cast<std::size_t>(-1);
  std::vector<std::size_t> partner(tokens.size(), none);
  std::vector<std::size_t> enclosing(tokens.size(), none);
  std::vector<std::size_t> open_brackets;
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    enclosing[k] = open_brackets.empty() ? none : open_brackets.back();
    const std::string_view text = tokens[k].text;
    if (text == "(" || text == "[" || text == "{") open_brackets.push_back(k);
    if ((text == ")" || text == "]" || text == "}") && !open_brackets.empty()) {
      partner[k] = open_brackets.back();
      partner[open_brackets.back()] = k;
      open_brackets.pop_back();
    }
  }
  const auto end_of = [&](std::size_t open) {
    return partner[open] == none ? tokens.size() : partner[open];
  };

  std::vector<bool> renamed(tokens.size(), false);
  const auto rename_range = [&](std::string_view name, std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to && i < tokens.size(); ++i) {
      if (tokens[i].text == name) renamed[i] = true;
    }
  };
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    if (!is_builtin(tokens[k].text)) continue;
    if (is_member_access(tokens, k)) {  // `config.gridDim`: a member of the user's struct
      renamed[k] = true;
      continue;
    }
    if (enclosing[k] == none) continue;  // at namespace scope
    if (!declares(tokens, k) && !later_declarator(tokens, k, enclosing[k])) continue;  // a use
    const std::size_t open = enclosing[k];
    const std::string_view name = tokens[k].text;
    if (tokens[open].text == "{") {
      switch (brace_kind(tokens, open)) {
        case BraceKind::block:
          rename_range(name, k, end_of(open));
          break;
        case BraceKind::class_body:  // a member: every mention in the class
          rename_range(name, open, end_of(open));
          break;
        case BraceKind::other:
          break;
      }
      continue;
    }
    if (tokens[open].text != "(") continue;
    // A parameter (or a for/if/while/switch's declaration): to the end of the body that follows.
    std::size_t after = end_of(open) + 1;
    const bool statement =
        open > 0 && (tokens[open - 1].text == "for" || tokens[open - 1].text == "if" ||
                     tokens[open - 1].text == "while" || tokens[open - 1].text == "switch");
    if (statement && open > 0 && enclosing[open] != none && tokens[enclosing[open]].text == "{") {
      rename_range(name, k, end_of(enclosing[open]));  // the rest of the enclosing block
      continue;
    }
    // A function's body: the first `{` after the parameters that is no member initializer
    // (`: g(gridDim), b{blockDim} {`); a `;` first: a declaration only.
    bool initializers = false;
    while (after < tokens.size()) {
      const std::string_view text = tokens[after].text;
      if (text == ";") break;
      if (text == ":") initializers = true;
      if (text == "(" || text == "[") {
        after = end_of(after) + 1;
        continue;
      }
      if (text == "{") {
        const Token& before = tokens[after - 1];
        if (initializers && (before.kind == Kind::identifier || before.text == ">")) {
          after = end_of(after) + 1;
          continue;
        }
        break;
      }
      ++after;
    }
    const bool has_body = after < tokens.size() && tokens[after].text == "{";
    rename_range(name, k, has_body ? end_of(after) : end_of(open));
  }
  if (std::none_of(renamed.begin(), renamed.end(), [](bool r) { return r; })) {
    return std::string(source);
  }
  std::string out;
  std::size_t copied = 0;
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    if (!renamed[k]) continue;
    out.append(source.substr(copied, tokens[k].offset - copied));
    out += kHostPrefix;
    out += tokens[k].text;
    copied = tokens[k].offset + tokens[k].text.size();
  }
  out.append(source.substr(copied));
  return out;
}

}  // namespace warpsim::runner
