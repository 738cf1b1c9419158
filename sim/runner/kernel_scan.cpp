// Finding the __global__ functions of a kernel file and resolving --kernel against them.
#include <algorithm>
#include <optional>
#include <string>

#include "kernel_scan.hpp"
#include "source_tokens.hpp"
#include "warpsim/runner.hpp"

namespace warpsim::runner {
namespace {

using Kind = Token::Kind;

bool is(const Token& token, std::string_view text) { return token.text == text; }

// Words that take a parenthesised argument before a kernel's name.
bool is_attribute_word(std::string_view word) {
  return word == "__launch_bounds__" || word == "__attribute__" || word == "__declspec" ||
         word == "alignas" || word == "__align__" || word == "decltype" || word == "__noinline__" ||
         word == "__cluster_dims__" || word == "__maxnreg__";
}

// Index just past the bracket group opening at `open` ("(" or "[" or "<").
std::size_t skip_group(const std::vector<Token>& tokens, std::size_t open) {
  const std::string_view opener = tokens[open].text;
  const std::string_view closer = opener == "(" ? ")" : opener == "[" ? "]" : ">";
  int depth = 0;
  for (std::size_t k = open; k < tokens.size(); ++k) {
    if (tokens[k].text == opener) ++depth;
    if (tokens[k].text == closer && --depth == 0) return k + 1;
  }
  return tokens.size();
}

// `a::b::c` ending at token `last` (an identifier), walking back over `::`.
std::string qualified_name_ending_at(const std::vector<Token>& tokens, std::size_t last) {
  std::string name(tokens[last].text);
  std::size_t k = last;
  while (k >= 2 && is(tokens[k - 1], "::") && tokens[k - 2].kind == Kind::identifier) {
    name = std::string(tokens[k - 2].text) + "::" + name;
    k -= 2;
  }
  return name;
}

struct Scope {
  bool is_namespace = false;
  std::string name;  // "" for anonymous namespaces and other braces
};

struct FoundKernel {
  std::string name;  // as written at the declaration (may be qualified)
  bool is_template_id = false;
};

// The function name after `__global__` at index `at`, or an empty name when none is found.
FoundKernel kernel_name_after(const std::vector<Token>& tokens, std::size_t at) {
  for (std::size_t k = at + 1; k < tokens.size(); ++k) {
    const Token& token = tokens[k];
    if (is(token, ";") || is(token, "{") || is(token, "}")) break;
    if (token.kind == Kind::identifier && is_attribute_word(token.text) && k + 1 < tokens.size() &&
        is(tokens[k + 1], "(")) {
      k = skip_group(tokens, k + 1) - 1;
      continue;
    }
    if (is(token, "[") && k + 1 < tokens.size() && is(tokens[k + 1], "[")) {
      k = skip_group(tokens, k) - 1;
      continue;
    }
    if (!is(token, "(") || k == 0) continue;
    const Token& before = tokens[k - 1];
    if (before.kind == Kind::identifier) return {qualified_name_ending_at(tokens, k - 1), false};
    if (is(before, ">")) {  // explicit specialization: name<args>(
      int depth = 0;
      for (std::size_t j = k - 1; j > at; --j) {
        if (is(tokens[j], ">")) ++depth;
        if (is(tokens[j], "<") && --depth == 0) {
          if (tokens[j - 1].kind == Kind::identifier) {
            return {qualified_name_ending_at(tokens, j - 1), true};
          }
          break;
        }
      }
    }
    break;
  }
  return {};
}

std::string join_namespaces(const std::vector<Scope>& scopes) {
  std::string out;
  for (const Scope& scope : scopes) {
    if (!scope.is_namespace || scope.name.empty()) continue;
    if (!out.empty()) out += "::";
    out += scope.name;
  }
  return out;
}

std::string display_name(const KernelInfo& kernel) {
  return kernel.is_template ? kernel.name + "<...>" : kernel.name;
}

std::string list_for_message(const std::vector<KernelInfo>& kernels) {
  std::string out;
  for (const KernelInfo& kernel : kernels) {
    if (!out.empty()) out += ", ";
    out += display_name(kernel);
  }
  return out.empty() ? "(none)" : out;
}

bool name_matches(std::string_view kernel_name, std::string_view requested) {
  if (kernel_name == requested) return true;
  return kernel_name.size() > requested.size() + 2 &&
         kernel_name.substr(kernel_name.size() - requested.size()) == requested &&
         kernel_name.substr(kernel_name.size() - requested.size() - 2, 2) == "::";
}

std::string trim_spaces(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return std::string(text);
}

// Calls visit(qualified name, is_template, index of the `__global__` token, whether it stands at
// namespace scope) for every kernel declaration or definition in `tokens`, in order (a name may
// come more than once). An `extern "C" {` block counts as namespace scope.
template <class Visit>
void for_each_kernel(const std::vector<Token>& tokens, Visit visit) {
  std::vector<Scope> scopes;
  std::size_t declaration_start = 0;  // first token after the last ; { or }

  for (std::size_t k = 0; k < tokens.size(); ++k) {
    const Token& token = tokens[k];
    if (is(token, "namespace")) {
      std::string name;
      std::size_t j = k + 1;
      while (j < tokens.size() && (tokens[j].kind == Kind::identifier || is(tokens[j], "::"))) {
        name += tokens[j].text;
        ++j;
      }
      if (j < tokens.size() && is(tokens[j], "{")) {
        scopes.push_back({true, name});
        k = j;
        declaration_start = k + 1;
      }
      continue;
    }
    if (is(token, "{")) {
      scopes.push_back({k > 0 && is(tokens[k - 1], "extern"), {}});
      declaration_start = k + 1;
    } else if (is(token, "}")) {
      if (!scopes.empty()) scopes.pop_back();
      declaration_start = k + 1;
    } else if (is(token, ";")) {
      declaration_start = k + 1;
    } else if (is(token, "__global__")) {
      FoundKernel found = kernel_name_after(tokens, k);
      if (found.name.empty()) continue;
      bool is_template = found.is_template_id;
      for (std::size_t j = declaration_start; j < k; ++j) {
        if (is(tokens[j], "template")) is_template = true;
      }
      std::string name = found.name;
      if (name.substr(0, 2) == "::") name = name.substr(2);
      const std::string prefix = join_namespaces(scopes);
      if (!prefix.empty()) name = prefix + "::" + name;
      const bool at_namespace_scope = std::all_of(
          scopes.begin(), scopes.end(), [](const Scope& scope) { return scope.is_namespace; });
      visit(name, is_template, k, at_namespace_scope);
    }
  }
}

// The index of the "(" that opens the parameters of the kernel declared at `global` (its
// `__global__` token), past attributes' groups; nullopt where a ; or { comes first.
std::optional<std::size_t> parameters_open(const std::vector<Token>& tokens, std::size_t global) {
  std::size_t k = global + 1;
  while (k < tokens.size() && !is(tokens[k], "(")) {
    if (tokens[k].kind == Kind::identifier && is_attribute_word(tokens[k].text) &&
        k + 1 < tokens.size() && is(tokens[k + 1], "(")) {
      k = skip_group(tokens, k + 1);
      continue;
    }
    if (is(tokens[k], ";") || is(tokens[k], "{")) return std::nullopt;
    ++k;
  }
  if (k == tokens.size()) return std::nullopt;
  return k;
}

// The indices of the braces of the function body that follows the kernel declaration at
// `global` (its `__global__` token); nullopt for a declaration without a body.
std::optional<std::pair<std::size_t, std::size_t>> body_braces_after(
    const std::vector<Token>& tokens, std::size_t global) {
  const std::optional<std::size_t> open = parameters_open(tokens, global);
  if (!open) return std::nullopt;
  std::size_t k = skip_group(tokens, *open);
  for (; k < tokens.size(); ++k) {  // trailing attributes, noexcept(...), -> type
    if (is(tokens[k], ";") || is(tokens[k], "=")) return std::nullopt;
    if (is(tokens[k], "(") || (is(tokens[k], "[") && k + 1 < tokens.size() &&
                               is(tokens[k + 1], "["))) {
      k = skip_group(tokens, k) - 1;
      continue;
    }
    if (is(tokens[k], "{")) break;
  }
  if (k == tokens.size()) return std::nullopt;
  int depth = 0;
  for (std::size_t j = k; j < tokens.size(); ++j) {
    if (is(tokens[j], "{")) ++depth;
    if (is(tokens[j], "}") && --depth == 0) return std::make_pair(k, j);
  }
  return std::nullopt;
}

// The parameter list of the function declared after `__global__` at index `at`, rebuilt from its
// tokens without default arguments: "( const float * in , float * out )", the parameters of a
// function pointer type that names this overload among others of the same name (a header's stale
// prototype with other parameters makes `&name` ambiguous).
// Called for definitions only (body_braces_after found a body), so the parameters exist.
std::string parameter_list_after(const std::vector<Token>& tokens, std::size_t at) {
  const std::size_t open = *parameters_open(tokens, at);
  const std::size_t end = skip_group(tokens, open);
  std::string text;
  int depth = 0;
  bool in_default = false;
  for (std::size_t j = open; j < end; ++j) {
    const std::string_view t = tokens[j].text;
    if (t == "(" || t == "[" || t == "{") ++depth;
    if (t == ")" || t == "]" || t == "}") --depth;
    if (depth == 1 && t == "=") in_default = true;
    if (in_default && ((depth == 1 && t == ",") || depth == 0)) in_default = false;
    if (in_default) continue;
    if (!text.empty()) text += ' ';
    text += t;
  }
  return text;
}

std::optional<std::size_t> body_size_after(const std::vector<Token>& tokens, std::size_t global) {
  const auto braces = body_braces_after(tokens, global);
  if (!braces) return std::nullopt;
  return braces->second - braces->first - 1;
}

}  // namespace

std::vector<KernelInfo> scan_kernels(std::string_view source) {
  const std::string stripped = strip_for_scan(source);
  const std::vector<Token> tokens = tokenize(stripped);
  std::vector<KernelInfo> kernels;
  for_each_kernel(tokens, [&](const std::string& name, bool is_template, std::size_t at, bool) {
    const bool known = std::any_of(kernels.begin(), kernels.end(),
                                   [&](const KernelInfo& kernel) { return kernel.name == name; });
    if (!known) kernels.push_back({name, is_template, tokens[at].line});
  });
  return kernels;
}

std::optional<std::size_t> kernel_body_size(std::string_view source, std::string_view name) {
  const std::string stripped = strip_for_scan(source);
  const std::vector<Token> tokens = tokenize(stripped);
  std::optional<std::size_t> size;
  for_each_kernel(tokens, [&](const std::string& found, bool, std::size_t at, bool) {
    if (!size && found == name) size = body_size_after(tokens, at);
  });
  return size;
}

namespace {

// Whether `text` holds a line that is a preprocessor directive (blanks, then '#').
bool has_directive_line(std::string_view text) {
  for (std::size_t at = text.find('\n'); at != std::string_view::npos; at = text.find('\n', at + 1)) {
    const std::size_t first = text.find_first_not_of(" \t", at + 1);
    if (first != std::string_view::npos && text[first] == '#') return true;
  }
  return false;
}

}  // namespace

std::string register_defined_kernels(std::string_view source) {
  const std::string stripped = strip_for_scan(source);
  const std::vector<Token> tokens = tokenize(stripped);
  struct Definition {
    std::string name;       // as written: unqualified
    std::string qualified;  // with its namespaces, for messages
    std::size_t closing = 0;  // source offset of the body's closing brace
    std::string parameters;   // "( const float * in , float * out )"
    bool directives = false;  // preprocessor lines among the parameters (#if COALESCED ...)
  };
  std::vector<Definition> definitions;
  std::vector<std::string> defined_twice;
  for_each_kernel(tokens, [&](const std::string& qualified, bool is_template, std::size_t at,
                              bool at_namespace_scope) {
    const auto braces = body_braces_after(tokens, at);
    if (!braces) return;
    const FoundKernel found = kernel_name_after(tokens, at);
    const bool known = std::any_of(definitions.begin(), definitions.end(),
                                   [&](const Definition& d) { return d.qualified == qualified; });
    if (known) defined_twice.push_back(qualified);
    if (is_template || !at_namespace_scope || found.name.find(':') != std::string::npos) return;
    const std::size_t open = *parameters_open(tokens, at);
    const std::size_t close = skip_group(tokens, open) - 1;
    const std::string_view written =
        source.substr(tokens[open].offset, tokens[close].offset - tokens[open].offset);
    definitions.push_back({found.name, qualified, tokens[braces->second].offset,
                           parameter_list_after(tokens, at), has_directive_line(written)});
  });
  std::string out;
  std::size_t copied = 0;
  for (const Definition& d : definitions) {
    // Overloads: `&name` would not say which.
    if (std::find(defined_twice.begin(), defined_twice.end(), d.qualified) != defined_twice.end())
      continue;
    out.append(source.substr(copied, d.closing + 1 - copied));
    if (d.directives) {
      out += " WARPSIM_REGISTER_ONLY_KERNEL(" + d.name + ", \"" +
             escape_for_string_literal(d.qualified) + "\")";
    } else {
      out += " WARPSIM_REGISTER_KERNEL(" + d.name + ", \"" +
             escape_for_string_literal(d.qualified) + "\", " + d.parameters + ")";
    }
    copied = d.closing + 1;
  }
  out.append(source.substr(copied));
  return out;
}

Expected<KernelChoice> resolve_kernel(const std::vector<KernelInfo>& kernels,
                                    std::string_view requested,
                                    std::string_view file_for_messages) {
  const std::string request = trim_spaces(requested);
  std::string base = request.substr(0, request.find('<'));
  std::string template_args = request.substr(base.size());
  base = trim_spaces(base);
  if (base.substr(0, 2) == "::") base = base.substr(2);
  const bool instantiation = !template_args.empty();
  const std::string listing =
      "kernels in " + std::string(file_for_messages) + ": " + list_for_message(kernels);
  if (base.empty() || (instantiation && template_args.back() != '>')) {
    return fail("--kernel '" + request + "' is not a kernel name; " +
                                      listing);
  }

  std::vector<const KernelInfo*> matches;
  for (const KernelInfo& kernel : kernels) {
    if (name_matches(kernel.name, base)) matches.push_back(&kernel);
  }
  // An exact name wins over suffix matches (`k` over `ns::k`).
  const auto exact = std::find_if(matches.begin(), matches.end(),
                                  [&](const KernelInfo* kernel) { return kernel->name == base; });
  if (exact != matches.end()) matches = {*exact};

  if (matches.empty()) {
    return fail("unknown kernel '" + request + "'; " + listing);
  }
  if (matches.size() > 1) {
    std::string names;
    for (const KernelInfo* kernel : matches) names += (names.empty() ? "" : ", ") + kernel->name;
    return fail("kernel '" + request + "' is ambiguous in " +
                                      std::string(file_for_messages) + ": " + names +
                                      "; name it with its namespace");
  }
  const KernelInfo& kernel = *matches.front();
  if (kernel.is_template && !instantiation) {
    return fail("kernel '" + kernel.name +
                                      "' is a template; name an instantiation, e.g. --kernel '" +
                                      kernel.name + "<256>'");
  }
  if (!kernel.is_template && instantiation) {
    return fail("kernel '" + kernel.name + "' is not a template; drop the " +
                                      template_args);
  }
  return Expected<KernelChoice>(
      {"::" + kernel.name + template_args, kernel.name + template_args});
}

}  // namespace warpsim::runner
