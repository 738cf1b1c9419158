// Turning a user's kernel file into the translation unit the host compiler builds.
#include <algorithm>
#include <optional>
#include <string>

#include "ptx_translate.hpp"
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
  // Every extent (`tile[][33]`, a 2-D array: the shared buffer as rows of 33).
  auto close = kept.end();
  for (auto it = bracket; it != kept.end(); ++it) {
    if (*it == "]") close = it;
  }
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

}  // namespace

namespace {

// One pass over `source` (a file, or one macro's replacement text) whose scan text is `stripped`.
std::string rewrite_extern_shared_in(std::string_view source, const std::string& stripped) {
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
    // `__shared__ alignas(16) float t[8];` (nvcc accepts alignas among the decl-specifiers, C++
    // only before them): the alignas moves to the declaration's start, `alignas(16) __shared__`.
    // (An extern array's alignment words are dropped below.)
    const auto declares_extern = [&] {
      for (std::size_t j = declaration_start; j < tokens.size() && tokens[j].text != ";"; ++j) {
        if (tokens[j].text == "extern") return true;
      }
      return false;
    };
    if (k + 2 < tokens.size() && tokens[k + 1].text == "alignas" && tokens[k + 2].text == "(" &&
        !declares_extern()) {
      std::size_t close = k + 2;
      for (int depth = 0; close < tokens.size(); ++close) {
        if (tokens[close].text == "(") ++depth;
        if (tokens[close].text == ")" && --depth == 0) break;
      }
      if (close == tokens.size()) continue;
      const std::size_t from = tokens[declaration_start].offset;
      const std::size_t alignas_from = tokens[k + 1].offset;
      const std::size_t alignas_to = tokens[close].offset + 1;
      out.append(source.substr(copied, from - copied));
      out.append(source.substr(alignas_from, alignas_to - alignas_from));
      out += ' ';
      out.append(source.substr(from, alignas_from - from));
      copied = alignas_to;
      k = close;
      continue;
    }
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

}  // namespace

std::string rewrite_extern_shared(std::string_view source) {
  // In macros too (the samples' BUILD_SHAREDMEMORY_TYPE declares `extern __shared__ t n[]`).
  const std::string in_macros = rewrite_macro_bodies(
      source, "__shared__", [](std::string_view body, const MacroDefinition&) {
        return rewrite_extern_shared_in(body, strip_macro_body_for_scan(body));
      });
  return rewrite_extern_shared_in(in_macros, strip_for_scan(in_macros));
}

namespace {

// The prelude every prepared source starts with, then the user's source under its own name.
std::string prepared_user_source(std::string_view user_source, std::string_view absolute_path) {
  std::string out;
  out.reserve(user_source.size() + 512);
  // The registry header goes first, before the user's macros can reach it.
  out += "#include \"warpsim/kernel_registry.hpp\"\n";
  out += "extern __thread unsigned char* " + std::string(kSharedAlias) + " __asm__(\"" +
         kDynamicSharedBaseSymbol + "\");\n";
  out += "#line 1 \"" + escape_for_string_literal(absolute_path) + "\"\n";
  out += rewrite_user_file(user_source);
  if (!out.empty() && out.back() != '\n') out += '\n';
  return out;
}

}  // namespace

std::string rewrite_user_file(std::string_view source, LaunchTarget target) {
  if (target == LaunchTarget::gpu_recorder) return rewrite_launches(source, target);
  // PTX warpsim does not run stops the launch if a lane reaches it, naming it and the line: code
  // that is never run (a branch for another architecture, an unused helper) still runs the rest.
  return insert_loop_ticks(mark_library_calls(rewrite_launches(rewrite_extern_shared(
      rewrite_inline_ptx(rename_host_builtins(register_defined_kernels(source)),
                         UnsupportedPtx::runtime_stop)))));
}

std::string prepare_source(std::string_view user_source, std::string_view absolute_path,
                           const KernelChoice& kernel) {
  std::string out = prepared_user_source(user_source, absolute_path);
  out += "#line 1 \"<warpsim-generated>\"\n";
  out += "extern \"C\" __attribute__((visibility(\"default\"))) const warpsim::KernelDescriptor* ";
  out += kKernelEntrySymbol;
  out += "() {\n  return &warpsim::kernel_descriptor< &";
  out += kernel.expression;
  out += " >::value(\"" + escape_for_string_literal(kernel.name) + "\");\n}\n";
  return out;
}

std::vector<std::string> source_flags(std::string_view user_source) {
  std::vector<std::string> flags;
  // Its parameters are copies on each lane's stack, like locals: the shim's address-space
  // functions must know (warpsim/memory_intrinsics.hpp). A flag, not a line of the source: the
  // shim is included (-include) before the file's first line.
  const std::string stripped = strip_for_scan(user_source);
  const std::vector<Token> tokens = tokenize(stripped);  // views into `stripped`
  if (std::any_of(tokens.begin(), tokens.end(),
                  [](const Token& t) { return t.text == "__grid_constant__"; })) {
    flags.push_back("-DWARPSIM_GRID_CONSTANT_PARAMETERS=1");
  }
  return flags;
}

std::string prepare_program_source(std::string_view user_source, std::string_view absolute_path) {
  return prepared_user_source(user_source, absolute_path);
}

std::string prepare_c_program_source(std::string_view user_source, std::string_view absolute_path) {
  std::string out = "#line 1 \"" + escape_for_string_literal(absolute_path) + "\"\n";
  out += user_source;
  if (!out.empty() && out.back() != '\n') out += '\n';
  return out;
}

std::string prepare_gpu_program_source(std::string_view user_source,
                                       std::string_view absolute_path) {
  std::string out = "#include \"warpsim/gpu_launch_hooks.hpp\"\n";
  out += "#line 1 \"" + escape_for_string_literal(absolute_path) + "\"\n";
  out += rewrite_user_file(user_source, LaunchTarget::gpu_recorder);
  if (!out.empty() && out.back() != '\n') out += '\n';
  return out;
}

namespace {

// What an asm statement warpsim does not run becomes: a static_assert at its line (the user's
// files) or a stop if a lane reaches it (a toolkit's headers). `what` is already escaped.
std::string unsupported_code(const std::string& what, UnsupportedPtx unsupported) {
  if (unsupported == UnsupportedPtx::runtime_stop) {
    return "::warpsim::ptx::not_simulated(\"" + what + "\");";
  }
  return "static_assert(sizeof(char) == 0, \"warpsim: inline PTX is not simulated (" + what +
         ". Write it with CUDA's intrinsics (threadIdx.x % 32 for %laneid, __shfl_sync, "
         "__ballot_sync, __byte_perm, ...), which warpsim runs and traces\");";
}

// A macro parameter stringized into an asm template (cub's `"ld." #ptx_modifier ".u32 ..."`).
// warpsim reads one only as the qualifiers of an ld or st (cache hints, .global, .global.nc),
// which do not change what the instruction does on the host: the template is translated
// without them, and a check on the parameter's spelling at the macro's use stands before it.
struct StringizedQualifier {
  std::string parameter;
  bool is_load = false;
};

// Where the marker `#name.` stands in `ptx`, whether it follows an instruction's `ld.` or `st.`.
std::optional<bool> qualifier_of_load_or_store(std::string_view ptx, std::size_t marker) {
  if (marker < 3) return std::nullopt;
  const std::string_view op = ptx.substr(marker - 3, 3);
  if (op != "ld." && op != "st.") return std::nullopt;
  if (marker > 3) {
    const char before = ptx[marker - 4];
    if (before != ' ' && before != '\t' && before != '\n' && before != ';' && before != '{' &&
        before != '}') {
      return std::nullopt;
    }
  }
  return op == "ld.";
}

// One pass over `source` (a file, or one macro's replacement text with its continuations
// joined, when `macro` is given): every asm statement reading as PTX replaced by its C++.
std::string rewrite_asm_statements(std::string_view source, UnsupportedPtx unsupported,
                                   const MacroDefinition* macro) {
  // A joined line of a macro may begin with `#parameter`, which is no directive there.
  const std::string stripped =
      macro == nullptr ? strip_for_scan(source) : strip_macro_body_for_scan(source);
  const std::vector<Token> tokens = tokenize(stripped);
  std::string out;
  std::size_t copied = 0;
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    const std::string_view word = tokens[k].text;
    if (word != "asm" && word != "__asm__" && word != "__asm") continue;
    std::size_t open = k + 1;
    while (open < tokens.size() &&
           (tokens[open].text == "volatile" || tokens[open].text == "__volatile__" ||
            tokens[open].text == "inline" || tokens[open].text == "goto")) {
      ++open;
    }
    if (open >= tokens.size() || tokens[open].text != "(") continue;
    std::size_t close = open;
    for (int depth = 0; close < tokens.size(); ++close) {
      depth += tokens[close].text == "(" ? 1 : tokens[close].text == ")" ? -1 : 0;
      if (depth == 0) break;
    }
    if (close >= tokens.size()) continue;
    const std::size_t inside_offset = tokens[open].offset + 1;
    std::string inside(source.substr(inside_offset, tokens[close].offset - inside_offset));
    // In a macro: `#parameter` in the template becomes the marker "#parameter" in its text
    // (in an operand it is left to the preprocessor).
    std::vector<StringizedQualifier> qualifiers;
    std::vector<std::string> stringized;
    if (macro != nullptr) {
      std::size_t template_end = open + 1;  // the first ':' (or "::") outside parentheses
      for (int depth = 0; template_end < close; ++template_end) {
        const std::string_view text = tokens[template_end].text;
        depth += text == "(" ? 1 : text == ")" ? -1 : 0;
        if (depth == 0 && (text == ":" || text == "::")) break;
      }
      // From the back, so that the offsets before each replacement stay valid.
      for (std::size_t t = template_end - 1; t > open + 1; --t) {
        const Token& hash = tokens[t - 1];
        const Token& name = tokens[t];
        const bool pasted =
            t >= 2 && tokens[t - 2].text == "#" && tokens[t - 2].offset + 1 == hash.offset;
        if (hash.text != "#" || pasted || name.kind != Kind::identifier ||
            std::find(macro->parameters.begin(), macro->parameters.end(), name.text) ==
                macro->parameters.end()) {
          continue;
        }
        const std::size_t from = hash.offset - inside_offset;
        const std::size_t to = name.offset + name.text.size() - inside_offset;
        inside.replace(from, to - from, "\"#" + std::string(name.text) + "\"");
        stringized.emplace_back(name.text);
      }
    }
    std::optional<AsmStatement> statement = parse_asm_statement(inside);
    if (!looks_like_ptx(asm_template(inside))) continue;
    // A statement ends at its ';'; in a macro, the asm may also end the replacement text, the
    // ';' coming with the macro's use.
    const bool has_semicolon = close + 1 < tokens.size() && tokens[close + 1].text == ";";
    const bool ends_macro = macro != nullptr && close + 1 == tokens.size();
    const bool is_statement = has_semicolon || ends_macro;
    const std::size_t end = tokens[has_semicolon ? close + 1 : close].offset + 1;
    out.append(source.substr(copied, tokens[k].offset - copied));
    std::string stringized_error;
    if (statement) {
      for (const std::string& parameter : stringized) {
        const std::string marker = "#" + parameter;
        for (std::size_t at = statement->ptx.find(marker); at != std::string::npos;
             at = statement->ptx.find(marker)) {
          const std::optional<bool> is_load = qualifier_of_load_or_store(statement->ptx, at);
          if (!is_load || statement->ptx.compare(at + marker.size(), 1, ".") != 0) {
            stringized_error = "it builds its PTX from the macro parameter " + marker +
                               ", which warpsim reads only as an ld's or st's qualifiers";
            break;
          }
          statement->ptx.erase(at, marker.size() + 1);
          qualifiers.push_back({parameter, *is_load});
        }
      }
    }
    PtxTranslation translation;
    if (!statement) {
      translation = {{}, "asm", "its operands are not of the form \"constraint\"(expression)"};
    } else if (!is_statement) {
      translation = {{}, "asm", "it is not a statement of its own"};
    } else if (!stringized_error.empty()) {
      translation = {{}, "asm", stringized_error};
    } else {
      translation = translate_ptx(*statement);
    }
    std::string code;
    if (translation.ok()) {
      for (const StringizedQualifier& q : qualifiers) {
        const std::string check = std::string("::warpsim::ptx::") +
                                  (q.is_load ? "runs_as_load" : "runs_as_store") + "(#" +
                                  q.parameter + ")";
        const std::string what = std::string(q.is_load ? "ld." : "st.") + "\" #" + q.parameter +
                                 " \"): only the cache hints and .global" +
                                 (q.is_load ? "(.nc)" : "") + " are run";
        code += unsupported == UnsupportedPtx::runtime_stop
                    ? "if (!" + check + ") ::warpsim::ptx::not_simulated(\"" + what + "\"); "
                    : "static_assert(" + check + ", \"warpsim: inline PTX is not simulated (" +
                          what + "\"); ";
      }
      code += translation.code;
      if (ends_macro && !has_semicolon) code = "do { " + code + "} while (0)";
    } else {
      code = unsupported_code(escape_for_string_literal(translation.instruction) +
                                  "): " + escape_for_string_literal(translation.reason),
                              unsupported);
      if (ends_macro && !has_semicolon) code = "do { " + code + " } while (0)";
    }
    out += code;
    const std::string_view replaced = source.substr(tokens[k].offset, end - tokens[k].offset);
    out.append(static_cast<std::size_t>(std::count(replaced.begin(), replaced.end(), '\n')), '\n');
    copied = end;
    k = has_semicolon ? close + 1 : close;
  }
  out.append(source.substr(copied));
  return out;
}

// Each macro's replacement text with its asm statements rewritten, keeping its lines.
std::string rewrite_asm_in_macros(std::string_view source, UnsupportedPtx unsupported) {
  return rewrite_macro_bodies(source, "asm",
                              [&](std::string_view body, const MacroDefinition& macro) {
                                return rewrite_asm_statements(body, unsupported, &macro);
                              });
}

}  // namespace

std::string rewrite_inline_ptx(std::string_view source, UnsupportedPtx unsupported) {
  return rewrite_asm_statements(rewrite_asm_in_macros(source, unsupported), unsupported, nullptr);
}

}  // namespace warpsim::runner
