// Turning a user's kernel file into the translation unit the host compiler builds.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>
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

namespace {
// Where the kernel expression before a `<<<` at token `k` begins: `k`, `ns::k`, `::k<T, 4>`,
// `a::b<int>::k<8>`. Returns `k` itself when no expression precedes.
std::size_t launch_target_start(const std::vector<Token>& tokens, std::size_t k) {
  std::size_t start = k;
  while (start > 0) {
    std::size_t i = start - 1;
    if (tokens[i].text == ">") {  // template arguments: back to the matching '<'
      int depth = 0;
      while (true) {
        if (tokens[i].text == ">") ++depth;
        if (tokens[i].text == "<" && --depth == 0) break;
        if (i == 0) return k;
        --i;
      }
      if (i == 0) return k;
      --i;
    }
    if (tokens[i].kind != Kind::identifier) break;
    start = i;
    if (start > 0 && tokens[start - 1].text == "::") {
      --start;
      const bool more = start > 0 && (tokens[start - 1].kind == Kind::identifier ||
                                      tokens[start - 1].text == ">");
      if (more) continue;
    }
    break;
  }
  return start;
}

bool three_in_a_row(const std::vector<Token>& tokens, std::size_t k, std::string_view c) {
  return k + 2 < tokens.size() && tokens[k].text == c && tokens[k + 1].text == c &&
         tokens[k + 2].text == c && tokens[k + 1].offset == tokens[k].offset + 1 &&
         tokens[k + 2].offset == tokens[k].offset + 2;
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

std::string without_newlines(std::string_view text) {
  std::string out(text);
  std::replace(out.begin(), out.end(), '\n', ' ');
  return out;
}

// The prelude every prepared source starts with, then the user's source under its own name.
// The contents of the string literals of an asm template, from `from` up to `to`, concatenated,
// with \n, \t and \" decoded.
std::string asm_template(std::string_view source, std::size_t from, std::size_t to) {
  std::string text;
  bool inside = false;
  for (std::size_t i = from; i < to; ++i) {
    const char c = source[i];
    if (!inside) {
      if (c == ':') break;  // the operands begin
      inside = c == '"';
      continue;
    }
    if (c == '\\' && i + 1 < to) {
      const char next = source[++i];
      text += next == 'n' ? '\n' : next == 't' ? '\t' : next;
    } else if (c == '"') {
      inside = false;
    } else {
      text += c;
    }
  }
  return text;
}

// The first instruction of a PTX template ("mov.u32 %0, %%laneid"), or empty when the template
// does not read as PTX.
std::string first_ptx_instruction(std::string_view text) {
  std::size_t start = text.find_first_not_of(" \t\n{");
  if (start == std::string_view::npos) return {};
  // A block's declarations (.reg .pred p;) come before its first instruction.
  while (text.substr(start, 1) == ".") {
    const std::size_t semicolon = text.find(';', start);
    if (semicolon == std::string_view::npos) return {};
    start = text.find_first_not_of(" \t\n", semicolon + 1);
    if (start == std::string_view::npos) return {};
  }
  std::size_t end = text.find_first_of(";\n", start);
  if (end == std::string_view::npos) end = text.size();
  std::string instruction(text.substr(start, end - start));
  while (!instruction.empty() && (instruction.back() == ' ' || instruction.back() == '\\')) {
    instruction.pop_back();
  }
  const std::string word = instruction.substr(0, instruction.find(' '));
  const bool block =
      text.find_first_not_of(" \t") < text.size() && text[text.find_first_not_of(" \t")] == '{';
  if (word.find('.') == std::string::npos && !block) return {};
  return instruction;
}

// The instructions warpsim runs (warpsim/inline_ptx.hpp's functions) and their operand counts,
// the destination included.
struct PtxForm {
  std::string_view opcode;
  std::string_view function;
  int operands;
};
constexpr PtxForm kPtxForms[] = {
    {"mov.u32", "mov", 2},
    {"mov.b32", "mov", 2},
    {"mov.s32", "mov", 2},
    {"bfe.u32", "bfe_u32", 4},
    {"bfe.s32", "bfe_s32", 4},
    {"bfi.b32", "bfi_b32", 5},
    {"prmt.b32", "prmt_b32", 4},
    {"lop3.b32", "lop3_b32", 5},
    {"brev.b32", "brev_b32", 2},
    {"popc.b32", "popc_b32", 2},
    {"clz.b32", "clz_b32", 2},
    {"shfl.sync.idx.b32", "shfl_idx", 5},
    {"shfl.sync.up.b32", "shfl_up", 5},
    {"shfl.sync.down.b32", "shfl_down", 5},
    {"shfl.sync.bfly.b32", "shfl_bfly", 5},
    {"activemask.b32", "activemask_b32", 1},
    {"match.sync.any.b32", "match_any_b32", 3},
    {"redux.sync.add.u32", "redux_add_u32", 3},
    {"redux.sync.add.s32", "redux_add_s32", 3},
    {"redux.sync.min.u32", "redux_min_u32", 3},
    {"redux.sync.min.s32", "redux_min_s32", 3},
    {"redux.sync.max.u32", "redux_max_u32", 3},
    {"redux.sync.max.s32", "redux_max_s32", 3},
    {"redux.sync.and.b32", "redux_and_b32", 3},
    {"redux.sync.or.b32", "redux_or_b32", 3},
    {"redux.sync.xor.b32", "redux_xor_b32", 3},
};
constexpr std::string_view kPtxSpecialRegisters[] = {
    "laneid", "warpid", "lanemask_eq", "lanemask_lt", "lanemask_le", "lanemask_ge", "lanemask_gt"};

std::string_view trimmed(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\n");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\n") - first + 1);
}

// `text` cut at each `separator` outside string literals and brackets ("::" is no separator).
std::vector<std::string_view> split_top_level(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  int depth = 0;
  bool in_string = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"')
      in_string = true;
    else if (c == '(' || c == '[' || c == '{')
      ++depth;
    else if (c == ')' || c == ']' || c == '}')
      --depth;
    else if (c == ':' && i + 1 < text.size() && text[i + 1] == ':')
      ++i;
    else if (c == separator && depth == 0 && !(c == ':' && i > 0 && text[i - 1] == ':')) {
      parts.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  parts.push_back(text.substr(start));
  return parts;
}

// The C++ expressions of an asm statement's operands, outputs first (GCC's %0, %1, ...), from
// `"=r"(expr)` items; nullopt for forms warpsim does not read (named operands, no parentheses).
std::optional<std::vector<std::string>> asm_operands(std::string_view section) {
  std::vector<std::string> exprs;
  if (trimmed(section).empty()) return exprs;
  for (const std::string_view item : split_top_level(section, ',')) {
    const std::string_view text = trimmed(item);
    if (text.empty() || text.front() != '"') return std::nullopt;
    const std::size_t open = text.find('(');
    if (open == std::string_view::npos || text.back() != ')') return std::nullopt;
    exprs.emplace_back(text.substr(open + 1, text.size() - open - 2));
  }
  return exprs;
}

// `asm(...)`'s parenthesised text as a call of warpsim/inline_ptx.hpp, or empty when it is not
// one instruction of kPtxForms with plain operands.
std::string ptx_call(std::string_view inside, const std::string& instruction) {
  if (instruction.find_first_of("{};") != std::string::npos) return {};
  const std::vector<std::string_view> sections = split_top_level(inside, ':');
  if (sections.size() < 2 || sections.size() > 4) return {};
  const auto outputs = asm_operands(sections[1]);
  const auto inputs = sections.size() > 2
                          ? asm_operands(sections[2])
                          : std::optional<std::vector<std::string>>(std::vector<std::string>{});
  if (!outputs || !inputs || outputs->size() != 1) return {};
  std::vector<std::string> all = *outputs;
  all.insert(all.end(), inputs->begin(), inputs->end());
  const std::size_t space = instruction.find_first_of(" \t");
  const std::string_view opcode = std::string_view(instruction).substr(0, space);
  std::vector<std::string_view> operands;
  if (space != std::string::npos) {
    for (const std::string_view o :
         split_top_level(std::string_view(instruction).substr(space), ',')) {
      operands.push_back(trimmed(o));
    }
  }
  const PtxForm* form = nullptr;
  for (const PtxForm& f : kPtxForms) {
    if (f.opcode == opcode) form = &f;
  }
  if (form == nullptr || static_cast<int>(operands.size()) != form->operands) return {};
  // %N names an operand; a number is an immediate; %%name a special register (mov only).
  const auto operand_expr = [&](std::string_view o) -> std::string {
    if (o.size() > 1 && o[0] == '%' && std::isdigit(static_cast<unsigned char>(o[1]))) {
      const std::size_t n = static_cast<std::size_t>(std::atoi(std::string(o.substr(1)).c_str()));
      return n < all.size() ? "::warpsim::ptx::bits(" + all[n] + ")" : std::string();
    }
    const bool number =
        !o.empty() && (std::isdigit(static_cast<unsigned char>(o[0])) || o[0] == '-');
    return number ? "::warpsim::ptx::bits(" + std::string(o) + ")" : std::string();
  };
  if (operands[0] != "%0") return {};
  std::string call = std::string("::warpsim::ptx::") + std::string(form->function) + "(";
  if (form->function == "mov" && operands[1].substr(0, 2) == "%%") {
    const std::string_view name = operands[1].substr(2);
    bool known = false;
    for (const std::string_view r : kPtxSpecialRegisters) known = known || r == name;
    if (!known) return {};
    call = "::warpsim::ptx::" + std::string(name) + "(";
  } else {
    for (std::size_t i = 1; i < operands.size(); ++i) {
      const std::string arg = operand_expr(operands[i]);
      if (arg.empty()) return {};
      call += (i > 1 ? ", " : "") + arg;
    }
  }
  return "::warpsim::ptx::assign((" + all[0] + "), " + call + "));";
}

std::string prepared_user_source(std::string_view user_source, std::string_view absolute_path) {
  std::string out;
  out.reserve(user_source.size() + 512);
  // The registry header goes first, before the user's macros can reach it.
  out += "#include \"warpsim/kernel_registry.hpp\"\n";
  out += "extern unsigned char* " + std::string(kSharedAlias) + " __asm__(\"" +
         kDynamicSharedBaseSymbol + "\");\n";
  out += "#line 1 \"" + escape_for_string_literal(absolute_path) + "\"\n";
  out +=
      insert_loop_ticks(rewrite_launches(rewrite_extern_shared(rewrite_inline_ptx(user_source))));
  if (!out.empty() && out.back() != '\n') out += '\n';
  return out;
}

}  // namespace

std::string rewrite_launches(std::string_view source) {
  const std::string stripped = strip_for_scan(source);
  const std::vector<Token> tokens = tokenize(stripped);
  std::string out;
  std::size_t copied = 0;
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    if (!three_in_a_row(tokens, k, "<")) continue;
    const std::size_t start = launch_target_start(tokens, k);
    const std::optional<std::size_t> close = launch_config_end(tokens, k);
    if (start == k || !close || *close + 3 >= tokens.size() || tokens[*close + 3].text != "(" ||
        tokens[start].offset < copied) {
      continue;  // not a launch warpsim understands: the compiler will say so
    }
    const std::size_t from = tokens[start].offset;
    const std::string_view target = source.substr(from, tokens[k].offset - from);
    const std::size_t config_from = tokens[k + 2].offset + 1;
    const std::string_view config = source.substr(config_from, tokens[*close].offset - config_from);
    const std::string name = without_newlines(target);
    out.append(source.substr(copied, from - copied));
    out += "::warpsim::shim::launch_kernel(\"" + escape_for_string_literal(name) +
           "\", __FILE__, __LINE__, ::warpsim::shim::launch_config(";
    out += config;
    out += "), [&](auto&&... warpsim_launch_args_) { " + name + "(warpsim_launch_args_...); })";
    out.append(static_cast<std::size_t>(std::count(target.begin(), target.end(), '\n')), '\n');
    copied = tokens[*close + 2].offset + 1;
    k = *close + 2;
  }
  out.append(source.substr(copied));
  return out;
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

std::string rewrite_inline_ptx(std::string_view source) {
  const std::string stripped = strip_for_scan(source);
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
    const std::string text = asm_template(source, tokens[open].offset, tokens[close].offset);
    const std::string instruction = first_ptx_instruction(text);
    if (instruction.empty()) continue;
    const bool statement = close + 1 < tokens.size() && tokens[close + 1].text == ";";
    const std::size_t end = tokens[statement ? close + 1 : close].offset + 1;
    out.append(source.substr(copied, tokens[k].offset - copied));
    // One instruction alone (a trailing ';' allowed) may run; a block or a sequence may not.
    std::string_view alone = trimmed(text);
    if (!alone.empty() && alone.back() == ';') alone = trimmed(alone.substr(0, alone.size() - 1));
    const std::string call =
        statement && alone == instruction
            ? ptx_call(source.substr(tokens[open].offset + 1,
                                     tokens[close].offset - tokens[open].offset - 1),
                       instruction)
            : std::string();
    if (!call.empty()) {
      out += call;
    } else {
      out += "static_assert(sizeof(char) == 0, \"warpsim: inline PTX is not simulated (" +
             escape_for_string_literal(instruction) +
             "): write it with CUDA's intrinsics (threadIdx.x % 32 for %laneid, __shfl_sync, "
             "__ballot_sync, __byte_perm, ...), which warpsim runs and traces\");";
    }
    const std::string_view replaced = source.substr(tokens[k].offset, end - tokens[k].offset);
    out.append(static_cast<std::size_t>(std::count(replaced.begin(), replaced.end(), '\n')), '\n');
    copied = end;
    k = statement ? close + 1 : close;
  }
  out.append(source.substr(copied));
  return out;
}

}  // namespace warpsim::runner
