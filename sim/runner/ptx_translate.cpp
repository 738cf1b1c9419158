// Inline PTX as C++ (ptx_translate.hpp): a small reader of the PTX that asm statements hold, and
// for each instruction warpsim runs, the call of warpsim/inline_ptx.hpp that does it. Operand
// widths are checked here, as ptxas checks them, so the generated C++ never converts silently.
#include "ptx_translate.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <map>
#include <utility>

namespace warpsim::runner {
namespace {

std::string_view trimmed(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

// `text` cut at each `separator` outside string literals and brackets. Between an asm statement's
// sections every C++ expression sits in parentheses, so a "::" there is two separators
// (`asm("bar.warp.sync %0;" :: "r"(m))`).
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
    else if (c == separator && depth == 0) {
      parts.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  parts.push_back(text.substr(start));
  return parts;
}

}  // namespace

std::string asm_template(std::string_view inside) {
  std::string text;
  bool in_string = false;
  for (std::size_t i = 0; i < inside.size(); ++i) {
    const char c = inside[i];
    if (!in_string) {
      if (c == ':') break;  // the operands begin
      in_string = c == '"';
      continue;
    }
    if (c == '\\' && i + 1 < inside.size()) {
      const char next = inside[++i];
      text += next == 'n' ? '\n' : next == 't' ? '\t' : next;
    } else if (c == '"') {
      in_string = false;
    } else {
      text += c;
    }
  }
  return text;
}

namespace {

std::optional<std::vector<AsmOperand>> asm_operands(std::string_view section) {
  std::vector<AsmOperand> operands;
  if (trimmed(section).empty()) return operands;
  for (const std::string_view item : split_top_level(section, ',')) {
    const std::string_view text = trimmed(item);
    if (text.size() < 2 || text.front() != '"') return std::nullopt;
    const std::size_t close_quote = text.find('"', 1);
    const std::size_t open = text.find('(', close_quote);
    if (close_quote == std::string_view::npos || open == std::string_view::npos ||
        text.back() != ')') {
      return std::nullopt;
    }
    operands.push_back({std::string(text.substr(1, close_quote - 1)),
                        std::string(text.substr(open + 1, text.size() - open - 2))});
  }
  return operands;
}

std::string one_line(std::string_view text) {
  std::string out;
  for (const char c : trimmed(text)) {
    const bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  return out;
}

// ---- The template, cut into `{`, `}` and statements, comments removed.
struct Piece {
  enum class Kind { open, close, statement } kind;
  std::string text;
};

std::string without_comments(std::string_view ptx) {
  std::string out;
  for (std::size_t i = 0; i < ptx.size(); ++i) {
    if (ptx.substr(i, 2) == "//") {
      while (i < ptx.size() && ptx[i] != '\n') ++i;
      out += '\n';
    } else if (ptx.substr(i, 2) == "/*") {
      const std::size_t end = ptx.find("*/", i + 2);
      i = end == std::string_view::npos ? ptx.size() : end + 1;
      out += ' ';
    } else {
      out += ptx[i];
    }
  }
  return out;
}

std::vector<Piece> pieces_of(std::string_view ptx) {
  std::vector<Piece> pieces;
  std::size_t i = 0;
  while (i < ptx.size()) {
    const char c = ptx[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';') {
      ++i;
    } else if (c == '{' || c == '}') {
      pieces.push_back({c == '{' ? Piece::Kind::open : Piece::Kind::close, std::string(1, c)});
      ++i;
    } else {  // a statement, up to its ';' (vector operands' braces inside it)
      std::size_t end = i;
      int depth = 0;
      for (; end < ptx.size(); ++end) {
        if (ptx[end] == '{') ++depth;
        if (ptx[end] == '}' && --depth < 0) break;
        if (ptx[end] == ';' && depth <= 0) break;
      }
      pieces.push_back({Piece::Kind::statement, one_line(ptx.substr(i, end - i))});
      i = end;
    }
  }
  return pieces;
}

// ---- What the translator knows about types and registers.
enum class Sign { bits, unsigned_int, signed_int, floating, predicate };
struct PtxType {
  std::string_view name;  // "u32", also the tag in warpsim::ptx
  int width;              // bits of the value (8 for .u8; 1 for .pred)
  Sign sign;
};
constexpr PtxType kTypes[] = {
    {"pred", 1, Sign::predicate},     {"b8", 8, Sign::bits},  {"b16", 16, Sign::bits},          {"b32", 32, Sign::bits},
    {"b64", 64, Sign::bits},          {"u8", 8, Sign::unsigned_int},    {"u16", 16, Sign::unsigned_int},
    {"u32", 32, Sign::unsigned_int},  {"u64", 64, Sign::unsigned_int},  {"s8", 8, Sign::signed_int},
    {"s16", 16, Sign::signed_int},    {"s32", 32, Sign::signed_int},    {"s64", 64, Sign::signed_int},
    {"f16", 16, Sign::floating},      {"bf16", 16, Sign::floating},     {"f32", 32, Sign::floating},
    {"f64", 64, Sign::floating},
};

std::optional<PtxType> type_named(std::string_view name) {
  for (const PtxType& t : kTypes) {
    if (t.name == name) return t;
  }
  return std::nullopt;
}

std::string tag(const PtxType& t) { return "::warpsim::ptx::" + std::string(t.name); }

// The C++ type holding a register of `width` bits.
std::string storage(int width) {
  switch (width) {
    case 1: return "bool";
    case 16: return "std::uint16_t";
    case 32: return "std::uint32_t";
    default: return "std::uint64_t";
  }
}

struct Unsupported {
  std::string reason;
};

// A register the C++ code holds: an asm operand (%N) or a `.reg` of the block.
struct Register {
  std::string name;  // the C++ local
  int width = 32;
  bool writable = true;
  bool immediate = false;  // an "n" operand: a C++ constant of any width
  std::string origin;      // for messages: "%1 (\"r\")" or "p"
};

std::optional<std::uint64_t> parse_unsigned(std::string_view digits, int base) {
  if (digits.empty()) return std::nullopt;
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value, base);
  if (error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return value;
}

// A PTX literal: integers (decimal, 0x, 0b, octal, a U suffix, a minus sign) as 64 bits, and
// 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX floats as their bits (float_width 32 or 64).
struct Literal {
  std::uint64_t bits = 0;
  int float_width = 0;
};
std::optional<Literal> parse_literal(std::string_view text) {
  if (text.size() == 10 && (text.substr(0, 2) == "0f" || text.substr(0, 2) == "0F")) {
    const auto v = parse_unsigned(text.substr(2), 16);
    if (v) return Literal{*v, 32};
  }
  if (text.size() == 18 && (text.substr(0, 2) == "0d" || text.substr(0, 2) == "0D")) {
    const auto v = parse_unsigned(text.substr(2), 16);
    if (v) return Literal{*v, 64};
  }
  const bool negative = !text.empty() && text[0] == '-';
  if (negative) text.remove_prefix(1);
  if (!text.empty() && (text.back() == 'U' || text.back() == 'u')) text.remove_suffix(1);
  std::optional<std::uint64_t> v;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    v = parse_unsigned(text.substr(2), 16);
  } else if (text.size() > 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B')) {
    v = parse_unsigned(text.substr(2), 2);
  } else if (text.size() > 1 && text[0] == '0') {
    v = parse_unsigned(text.substr(1), 8);
  } else {
    v = parse_unsigned(text, 10);
  }
  if (!v) return std::nullopt;
  return Literal{negative ? 0 - *v : *v, 0};
}

bool is_identifier(std::string_view text) {
  if (text.empty()) return false;
  const auto c0 = static_cast<unsigned char>(text[0]);
  if (!std::isalpha(c0) && text[0] != '_' && text[0] != '$') return false;
  for (const char c : text) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '$') return false;
  }
  return true;
}

std::string hex(std::uint64_t v) {
  constexpr char digits[] = "0123456789abcdef";
  std::string out;
  do {
    out.insert(out.begin(), digits[v & 15]);
    v >>= 4;
  } while (v != 0);
  return "0x" + out + "ULL";
}

// The width of a register an asm constraint asks for ("=r" 32, "l" 64, ...), 0 for "n"/"i"
// (an immediate), or nullopt for constraints warpsim does not read.
std::optional<int> constraint_width(std::string_view constraint) {
  std::string_view letters = constraint;
  while (!letters.empty() && (letters[0] == '=' || letters[0] == '+' || letters[0] == '&')) {
    letters.remove_prefix(1);
  }
  if (letters == "h") return 16;
  if (letters == "r" || letters == "f") return 32;
  if (letters == "l" || letters == "d") return 64;
  if (letters == "n" || letters == "i") return 0;
  return std::nullopt;
}

// The C++ type an operand's value is read as and written back from: float and double for "f"
// and "d", else the register's unsigned integer.
std::string operand_type(std::string_view constraint) {
  if (constraint.find('f') != std::string_view::npos) return "float";
  if (constraint.find('d') != std::string_view::npos) return "double";
  return storage(*constraint_width(constraint));
}

class Translator {
 public:
  explicit Translator(const AsmStatement& statement) : statement_(statement) {}

  // The prologue (operand locals), the block, the epilogue (outputs assigned back).
  PtxTranslation run() {
    std::string prologue;
    std::string epilogue;
    try {
      operands(prologue, epilogue);
    } catch (const Unsupported& u) {
      return {{}, one_line(statement_.ptx), u.reason};
    }
    scopes_.emplace_back();
    std::string body;
    for (const Piece& piece : pieces_of(without_comments(statement_.ptx))) {
      if (piece.kind == Piece::Kind::open) {
        scopes_.emplace_back();
        body += "{ ";
      } else if (piece.kind == Piece::Kind::close) {
        if (scopes_.size() == 1) return {{}, "}", "a '}' closes no block"};
        scopes_.pop_back();
        body += "} ";
      } else {
        try {
          body += statement(piece.text);
        } catch (const Unsupported& u) {
          return {{}, piece.text, u.reason};
        }
      }
    }
    if (scopes_.size() != 1) return {{}, "{", "a '{' is not closed"};
    return {"{ " + prologue + "{ " + body + "} " + epilogue + "}", {}, {}};
  }

 private:
  void operands(std::string& prologue, std::string& epilogue) {
    const std::size_t count = statement_.outputs.size() + statement_.inputs.size();
    registers_.resize(count);
    for (std::size_t i = 0; i < statement_.outputs.size(); ++i) {
      const AsmOperand& o = statement_.outputs[i];
      const std::optional<int> width = constraint_width(o.constraint);
      if (!width || *width == 0 || (o.constraint[0] != '=' && o.constraint[0] != '+')) {
        throw Unsupported{"output constraint \"" + o.constraint + "\" is not one of =h, =r, =f, "
                          "=l, =d (or +...)"};
      }
      const std::string n = std::to_string(i);
      Register& r = registers_[i];
      r = {"warpsim_ptx_" + n, *width, true, false, "%" + n + " (\"" + o.constraint + "\")"};
      const std::string type = storage(*width);
      const std::string as = operand_type(o.constraint);
      prologue += "auto& warpsim_ptx_out" + n + " = (" + o.expression + "); " + type + " " +
                  r.name + " = " +
                  (o.constraint[0] == '+'
                       ? "::warpsim::ptx::in<" + as + ">(warpsim_ptx_out" + n + ")"
                       : type + "{}") +
                  "; ";
      epilogue += "::warpsim::ptx::out<" + as + ">(warpsim_ptx_out" + n + ", " + r.name + "); ";
    }
    for (std::size_t j = 0; j < statement_.inputs.size(); ++j) {
      const AsmOperand& o = statement_.inputs[j];
      const std::size_t k = statement_.outputs.size() + j;
      const std::string n = std::to_string(k);
      const std::optional<std::uint64_t> tied = parse_unsigned(o.constraint, 10);
      if (tied) {  // "0": the same register as output 0, holding this value on entry
        if (*tied >= statement_.outputs.size()) {
          throw Unsupported{"input %" + n + " is tied to %" + o.constraint + ", not an output"};
        }
        registers_[k] = registers_[*tied];
        prologue += registers_[k].name + " = ::warpsim::ptx::in<" +
                    operand_type(statement_.outputs[*tied].constraint) + ">(" + o.expression + "); ";
        continue;
      }
      const std::optional<int> width = constraint_width(o.constraint);
      if (!width || o.constraint.find_first_of("=+") != std::string::npos) {
        throw Unsupported{"input constraint \"" + o.constraint +
                          "\" is not one of h, r, f, l, d, n (or an output's number)"};
      }
      Register& r = registers_[k];
      r = {"warpsim_ptx_" + n, *width, false, *width == 0, "%" + n + " (\"" + o.constraint + "\")"};
      if (r.immediate) {
        prologue += "const auto " + r.name + " = (" + o.expression + "); ";
      } else {
        const std::string type = storage(*width);
        prologue += "const " + type + " " + r.name + " = ::warpsim::ptx::in<" +
                    operand_type(o.constraint) + ">(" + o.expression + "); ";
      }
    }
  }

  // ---- Operands of one instruction.
  const Register* operand_register(std::string_view text) {
    if (text.size() > 1 && text[0] == '%' && std::isdigit(static_cast<unsigned char>(text[1]))) {
      const auto n = parse_unsigned(text.substr(1), 10);
      if (!n || *n >= registers_.size()) {
        throw Unsupported{"operand " + std::string(text) + " is not among the asm's " +
                          std::to_string(registers_.size()) + " operands"};
      }
      return &registers_[*n];
    }
    if (is_identifier(text)) {
      for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
        const auto found = scope->find(std::string(text));
        if (found != scope->end()) return &found->second;
      }
      throw Unsupported{"register " + std::string(text) + " is not declared"};
    }
    return nullptr;
  }

  static std::string width_words(int width) {
    return width == 1 ? "a predicate" : std::to_string(width) + "-bit";
  }

  // `text` read as a `width`-bit source: a register of that width, a literal, an "n" operand, or
  // (predicates) a negated predicate.
  std::string source(std::string_view text, int width) {
    text = trimmed(text);
    if (width == 1 && !text.empty() && text[0] == '!') return "!" + source(text.substr(1), 1);
    if (const Register* r = operand_register(text)) {
      if (r->immediate) {
        return width == 1 ? "(" + r->name + " != 0)"
                          : "static_cast<" + storage(width) + ">(" + r->name + ")";
      }
      if (r->width != width) {
        throw Unsupported{r->origin + " is " + width_words(r->width) + " where " +
                          width_words(width) + " operand is needed"};
      }
      return r->name;
    }
    if (const std::optional<Literal> literal = parse_literal(text)) {
      if (literal->float_width != 0 && literal->float_width != width) {
        throw Unsupported{"literal " + std::string(text) + " is not " + width_words(width)};
      }
      if (width == 1) return literal->bits != 0 ? "true" : "false";
      return "static_cast<" + storage(width) + ">(" + hex(literal->bits) + ")";
    }
    throw Unsupported{"operand " + std::string(text) + " is not a register or literal warpsim reads"};
  }

  // `text` as a `width`-bit destination.
  std::string destination(std::string_view text, int width) {
    text = trimmed(text);
    const Register* r = operand_register(text);
    if (r == nullptr) throw Unsupported{"destination " + std::string(text) + " is not a register"};
    if (!r->writable) throw Unsupported{"it writes " + r->origin + ", an input"};
    if (r->width != width) {
      throw Unsupported{r->origin + " is " + width_words(r->width) + " where " +
                        width_words(width) + " destination is needed"};
    }
    return r->name;
  }

  // ---- Statements.
  std::string statement(const std::string& text) {
    if (text[0] == '.') return declaration(text);
    if (text[0] == '@') {  // a guard: @p or @!p, then the instruction
      const std::size_t space = text.find(' ');
      if (space == std::string::npos) throw Unsupported{"a guard without an instruction"};
      const std::string condition = source(std::string_view(text).substr(1, space - 1), 1);
      return "if (" + condition + ") { " + instruction(text.substr(space + 1)) + "} ";
    }
    if (text.back() == ':') throw Unsupported{"labels (and so branches) are not run"};
    return instruction(text);
  }

  // `.reg .b32 r0, r1;` and `.reg .pred p<2>;` (p0, p1): locals of the block.
  std::string declaration(const std::string& text) {
    const std::string_view rest = std::string_view(text);
    if (rest.substr(0, 5) != ".reg ") throw Unsupported{"only .reg declarations are run"};
    const std::string_view after = trimmed(rest.substr(5));
    const std::size_t space = after.find(' ');
    if (after.empty() || after[0] != '.' || space == std::string_view::npos) {
      throw Unsupported{"a .reg declaration needs a type and names"};
    }
    const std::optional<PtxType> type = type_named(after.substr(1, space - 1));
    if (!type) {
      throw Unsupported{"registers of type " + std::string(after.substr(0, space)) + " are not run"};
    }
    std::string code;
    for (const std::string_view item : split_top_level(after.substr(space + 1), ',')) {
      const std::string_view name = trimmed(item);
      const std::size_t angle = name.find('<');
      std::vector<std::string> names;
      if (angle != std::string_view::npos && name.back() == '>') {
        const auto count = parse_unsigned(name.substr(angle + 1, name.size() - angle - 2), 10);
        if (!count || *count > 1024) throw Unsupported{"a register range is not a number"};
        for (std::uint64_t i = 0; i < *count; ++i) {
          names.push_back(std::string(name.substr(0, angle)) + std::to_string(i));
        }
      } else {
        names.emplace_back(name);
      }
      for (const std::string& n : names) {
        if (!is_identifier(n)) throw Unsupported{"register name " + n + " is not a PTX name"};
        std::string local = "warpsim_ptx_r_";
        for (const char c : n) local += c == '$' ? std::string("_S_") : std::string(1, c);
        // An 8-bit register (ld.u8's and cvt's) is held in 16 bits, as ptxas does.
        const int width = type->width == 8 ? 16 : type->width;
        scopes_.back()[n] = {local, width, true, false, n};
        code += storage(width) + " " + local + "{}; ";
      }
    }
    return code;
  }

  std::string instruction(const std::string& text) {
    const std::size_t space = text.find(' ');
    const std::string opcode = text.substr(0, space);
    std::vector<std::string_view> ops;
    if (space != std::string::npos) {
      for (const std::string_view o : split_top_level(std::string_view(text).substr(space + 1), ',')) {
        ops.push_back(trimmed(o));
        if (ops.back().empty()) throw Unsupported{"an operand is empty"};
      }
    }
    std::vector<std::string_view> parts;
    for (std::size_t start = 0;;) {
      const std::size_t dot = opcode.find('.', start);
      parts.push_back(std::string_view(opcode).substr(start, dot - start));
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
    ops_ = ops;
    parts_ = parts;
    const std::string_view base = parts[0];
    if (is_approx_math(base)) return approx_math();
    for (const std::string_view part : parts) {
      if (part == "ftz") throw Unsupported{".ftz (subnormals flushed to zero) is not run"};
    }
    if (base == "mov") return mov();
    if (base == "add" || base == "sub" || base == "min" || base == "max") return integer_binary();
    if (base == "mul" || base == "mad") return multiply();
    if (base == "and" || base == "or" || base == "xor" || base == "not") return logic();
    if (base == "shl" || base == "shr") return shift();
    if (base == "setp") return setp();
    if (base == "selp") return selp();
    if (base == "cvt") return cvt();
    if (base == "bfe" || base == "bfi" || base == "prmt" || base == "lop3") return bit_field();
    if (base == "brev" || base == "popc" || base == "clz") return bit_count();
    if (base == "bfind") return bit_find();
    if (base == "vabsdiff4") return byte_absolute_differences();
    if (base == "shfl") return shfl();
    if (base == "vote") return vote();
    if (base == "activemask") return activemask();
    if (base == "match") return match();
    if (base == "redux") return redux();
    if (base == "ld" || base == "st") return load_store();
    if (opcode == "membar.cta" || opcode == "membar.gl" || opcode == "membar.sys" ||
        (base == "fence" && parts.size() == 3 && (parts[1] == "sc" || parts[1] == "acq_rel") &&
         (parts[2] == "cta" || parts[2] == "gpu" || parts[2] == "sys"))) {
      expect_operands(0);
      return "::warpsim::ptx::fence(); ";
    }
    // Programmatic dependent launch: launches run one after another in issue order, so a grid
    // has nothing to wait for and nothing to signal early (as cudaGridDependencySynchronize).
    if (opcode == "griddepcontrol.wait" || opcode == "griddepcontrol.launch_dependents") {
      expect_operands(0);
      return "(void)0; ";
    }
    if (base == "bar" && opcode == "bar.warp.sync") {
      expect_operands(1);
      return "::warpsim::ptx::bar_warp_sync(" + source(ops_[0], 32) + "); ";
    }
    throw Unsupported{"no such instruction in the set warpsim runs"};
  }

  // ---- Helpers for the instruction forms.
  void expect_operands(std::size_t n) const {
    if (ops_.size() != n) {
      throw Unsupported{"it takes " + std::to_string(n) + " operands, not " +
                        std::to_string(ops_.size())};
    }
  }
  void expect_parts(std::size_t n) const {
    if (parts_.size() != n) throw Unsupported{"a modifier warpsim does not run"};
  }
  PtxType type_part(std::size_t index, std::initializer_list<std::string_view> allowed) const {
    const std::string_view name = parts_.at(index);
    for (const std::string_view a : allowed) {
      if (a == name) return *type_named(name);
    }
    throw Unsupported{"type ." + std::string(name) + " is not run for " + std::string(parts_[0])};
  }
  std::string assign(std::string_view destination_text, int width, const std::string& value) {
    return destination(destination_text, width) + " = " + value + "; ";
  }
  template <class... A>
  std::string call(std::string_view function, const A&... args) const {
    std::string out = "::warpsim::ptx::" + std::string(function) + "(";
    std::size_t i = 0;
    ((out += (i++ == 0 ? "" : ", ") + std::string(args)), ...);
    return out + ")";
  }

  // ---- Instructions.
  std::string mov() {
    expect_parts(2);
    const PtxType t = type_part(1, {"pred", "b16", "b32", "b64", "u16", "u32", "u64", "s16",
                                    "s32", "s64", "f32", "f64"});
    expect_operands(2);
    const std::string_view d = ops_[0], a = ops_[1];
    if (d.front() == '{' || a.front() == '{') {  // {lo, hi}: pack or unpack
      const bool unpack = d.front() == '{';
      const std::string_view vector = unpack ? d : a;
      if (vector.back() != '}') throw Unsupported{"a vector operand is not closed"};
      const auto elements = split_top_level(vector.substr(1, vector.size() - 2), ',');
      const int n = static_cast<int>(elements.size());
      const int element_width = t.width / n;
      if ((n != 2 && n != 4) || (element_width != 16 && element_width != 32)) {
        throw Unsupported{"vectors of 2 or 4 16- or 32-bit elements are run"};
      }
      std::string list;
      for (const std::string_view e : elements) {
        list += ", " + (unpack ? destination(e, element_width) : source(e, element_width));
      }
      if (unpack) return "::warpsim::ptx::unpack(" + source(a, t.width) + list + "); ";
      return assign(d, t.width, "::warpsim::ptx::pack<" + storage(t.width) + ">(" + list.substr(2) + ")");
    }
    if (a.substr(0, 2) == "%%") return assign(d, t.width, special_register(a.substr(2), t));
    // nvcc passes a single % on too ("mov.u64 %0, %globaltimer;"), where no register of the asm
    // has the name.
    if (a.size() > 1 && a[0] == '%' && std::isalpha(static_cast<unsigned char>(a[1])) != 0 &&
        operand_register(a) == nullptr) {
      return assign(d, t.width, special_register(a.substr(1), t));
    }
    return assign(d, t.width, source(a, t.width));
  }

  std::string special_register(std::string_view name, const PtxType& t) {
    // The 64-bit timers: %globaltimer (nanoseconds), %clock64 (the device's cycle counter).
    for (const std::string_view wide : {"globaltimer", "clock64"}) {
      if (name != wide) continue;
      if (t.width != 64) throw Unsupported{"%" + std::string(name) + " is read with a 64-bit move"};
      return call(std::string(name) + "_register");
    }
    if (t.width != 32) throw Unsupported{"special registers are read with 32-bit moves"};
    for (const std::string_view timer : {"globaltimer_lo", "globaltimer_hi", "clock"}) {
      if (name == timer) return call(std::string(name) + "_register");
    }
    for (const std::string_view plain : {"laneid", "warpid", "lanemask_eq", "lanemask_lt",
                                         "lanemask_le", "lanemask_ge", "lanemask_gt"}) {
      if (name == plain) return call(plain);
    }
    for (const std::string_view axes : {"tid", "ntid", "ctaid", "nctaid"}) {
      for (int axis = 0; axis < 3; ++axis) {
        if (name == std::string(axes) + "." + "xyz"[axis]) return call(axes, std::to_string(axis));
      }
    }
    throw Unsupported{"special register %" + std::string(name) + " is not run"};
  }

  // rsqrt/rcp/sqrt/ex2/lg2/sin/cos/tanh .approx{.ftz}.f32: the host's function, within PTX's
  // stated error of the approximation; .ftz flushes subnormal inputs and results to zero.
  static bool is_approx_math(std::string_view base) {
    for (const std::string_view name : {"rsqrt", "rcp", "sqrt", "ex2", "lg2", "sin", "cos", "tanh"}) {
      if (base == name) return true;
    }
    return false;
  }
  std::string approx_math() {
    const bool ftz = parts_.size() == 4 && parts_[2] == "ftz";
    if (parts_.size() < 3 || parts_.size() > 4 || parts_[1] != "approx" ||
        (parts_.size() == 4 && !ftz)) {
      throw Unsupported{"only ." + std::string(parts_[0]) + ".approx{.ftz}.f32 is run"};
    }
    if (parts_.back() != "f32") throw Unsupported{"type ." + std::string(parts_.back()) + " is not run for " + std::string(parts_[0])};
    expect_operands(2);
    return assign(ops_[0], 32,
                  call("approx_f32", "::warpsim::ptx::Approx::" + std::string(parts_[0]),
                       ftz ? "true" : "false", source(ops_[1], 32)));
  }

  std::string integer_binary() {
    const std::string_view base = parts_[0];
    // add.f32 / sub.f64 (also with .rn): IEEE additions, exact on the host. Not mul.f32: ptxas
    // may fuse a plain mul into a following add (an fma), which the host would round twice.
    if ((base == "add" || base == "sub") && (parts_.back() == "f32" || parts_.back() == "f64")) {
      if (parts_.size() == 3 && parts_[1] != "rn") throw Unsupported{"only .rn rounding is run for float add and sub"};
      if (parts_.size() > 3) throw Unsupported{"a modifier warpsim does not run"};
      const PtxType t = *type_named(parts_.back());
      expect_operands(3);
      return assign(ops_[0], t.width,
                    call("float_" + std::string(base) + "<" + tag(t) + ">", source(ops_[1], t.width),
                         source(ops_[2], t.width)));
    }
    expect_parts(2);
    const PtxType t = type_part(1, {"u16", "u32", "u64", "s16", "s32", "s64"});
    expect_operands(3);
    return assign(ops_[0], t.width,
                  call(std::string(base) + "<" + tag(t) + ">", source(ops_[1], t.width),
                       source(ops_[2], t.width)));
  }

  std::string multiply() {
    const bool mad = parts_[0] == "mad";
    expect_parts(3);
    const std::string_view mode = parts_[1];
    if (mode != "lo" && mode != "hi" && mode != "wide") throw Unsupported{"mul takes .lo, .hi or .wide"};
    if (mad && mode != "lo") throw Unsupported{"mad runs with .lo only"};
    if (mode == "wide") {
      const PtxType t = type_part(2, {"u16", "u32", "s16", "s32"});
      expect_operands(3);
      const int wide = 2 * t.width;
      return assign(ops_[0], wide,
                    call("mul_wide<" + tag(t) + ", " + storage(wide) + ">",
                         source(ops_[1], t.width), source(ops_[2], t.width)));
    }
    const PtxType t = type_part(2, {"u16", "u32", "u64", "s16", "s32", "s64"});
    expect_operands(mad ? 4 : 3);
    const std::string a = source(ops_[1], t.width), b = source(ops_[2], t.width);
    if (mad) return assign(ops_[0], t.width, call("mad_lo<" + tag(t) + ">", a, b, source(ops_[3], t.width)));
    return assign(ops_[0], t.width, call(std::string(mode == "lo" ? "mul_lo" : "mul_hi") + "<" + tag(t) + ">", a, b));
  }

  std::string logic() {
    expect_parts(2);
    const PtxType t = type_part(1, {"pred", "b16", "b32", "b64"});
    const std::string_view base = parts_[0];
    if (base == "not") {
      expect_operands(2);
      return assign(ops_[0], t.width, call("bit_not<" + tag(t) + ">", source(ops_[1], t.width)));
    }
    expect_operands(3);
    return assign(ops_[0], t.width,
                  call("bit_" + std::string(base) + "<" + tag(t) + ">", source(ops_[1], t.width),
                       source(ops_[2], t.width)));
  }

  std::string shift() {
    expect_parts(2);
    const PtxType t = parts_[0] == "shl"
                          ? type_part(1, {"b16", "b32", "b64"})
                          : type_part(1, {"b16", "b32", "b64", "u16", "u32", "u64", "s16", "s32", "s64"});
    expect_operands(3);
    return assign(ops_[0], t.width,
                  call(std::string(parts_[0]) + "<" + tag(t) + ">", source(ops_[1], t.width),
                       source(ops_[2], 32)));
  }

  std::string setp() {
    if (parts_.size() != 3 && parts_.size() != 4) throw Unsupported{"a modifier warpsim does not run"};
    const bool combined = parts_.size() == 4;
    const PtxType t = type_part(parts_.size() - 1, {"b16", "b32", "b64", "u16", "u32", "u64", "s16",
                                                    "s32", "s64", "f32", "f64"});
    const std::string_view cmp = parts_[1];
    static constexpr std::string_view kInteger[] = {"eq", "ne", "lt", "le", "gt", "ge"};
    static constexpr std::string_view kUnsigned[] = {"lo", "ls", "hi", "hs"};
    static constexpr std::string_view kFloat[] = {"equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
    const auto in = [&](const auto& list) {
      for (const std::string_view c : list) {
        if (c == cmp) return true;
      }
      return false;
    };
    const bool valid = t.sign == Sign::floating     ? in(kInteger) || in(kFloat)
                       : t.sign == Sign::bits        ? cmp == "eq" || cmp == "ne"
                       : t.sign == Sign::signed_int  ? in(kInteger)
                                                     : in(kInteger) || in(kUnsigned);
    if (!valid) throw Unsupported{"comparison ." + std::string(cmp) + " is not valid for ." + std::string(t.name)};
    std::string boolean;
    if (combined) {
      boolean = std::string(parts_[2]);
      if (boolean != "and" && boolean != "or" && boolean != "xor") {
        throw Unsupported{"setp combines with .and, .or or .xor"};
      }
    }
    expect_operands(combined ? 4 : 3);
    const auto [p, q] = dual_destination(ops_[0], 1);
    const std::string compared =
        call("setp<" + tag(t) + ">", "::warpsim::ptx::Cmp::" + std::string(cmp),
             source(ops_[1], t.width), source(ops_[2], t.width));
    const std::string c = combined ? source(ops_[3], 1) : std::string();
    const auto combine = [&](const std::string& value) {
      return combined ? call("bit_" + boolean + "<::warpsim::ptx::pred>", value, c) : value;
    };
    std::string out = "{ const bool warpsim_ptx_t = " + compared + "; ";
    if (p != "_") out += p + " = " + combine("warpsim_ptx_t") + "; ";
    if (!q.empty() && q != "_") out += q + " = " + combine("!warpsim_ptx_t") + "; ";
    return out + "} ";
  }

  // `d` or `d|p`: the destination(s) as C++ names ("_" where PTX's sink is written).
  std::pair<std::string, std::string> dual_destination(std::string_view text, int width) {
    const std::size_t bar = text.find('|');
    const std::string_view first = trimmed(text.substr(0, bar));
    std::pair<std::string, std::string> names;
    names.first = first == "_" ? "_" : destination(first, width);
    if (bar != std::string_view::npos) {
      const std::string_view second = trimmed(text.substr(bar + 1));
      names.second = second == "_" ? "_" : destination(second, 1);
    }
    return names;
  }

  std::string selp() {
    expect_parts(2);
    const PtxType t = type_part(1, {"b16", "b32", "b64", "u16", "u32", "u64", "s16", "s32", "s64",
                                    "f32", "f64"});
    expect_operands(4);
    return assign(ops_[0], t.width,
                  call("selp", source(ops_[1], t.width), source(ops_[2], t.width),
                       source(ops_[3], 1)));
  }

  // A register operand of cvt, which may be wider than the type: its width.
  int cvt_register_width(std::string_view text, int type_width, bool is_destination) {
    const Register* r = operand_register(trimmed(text));
    if (r == nullptr) {
      if (is_destination) throw Unsupported{"destination " + std::string(text) + " is not a register"};
      return type_width < 16 ? 16 : type_width;  // a literal, read at the type's width
    }
    if (r->immediate) return type_width < 16 ? 16 : type_width;
    if (r->width < type_width || r->width == 1) {
      throw Unsupported{r->origin + " is " + width_words(r->width) + ", narrower than the conversion's type"};
    }
    return r->width;
  }

  std::string cvt() {
    std::vector<std::string_view> modifiers(parts_.begin() + 1, parts_.end());
    std::string rounding;
    bool saturate = false;
    if (!modifiers.empty()) {
      for (const std::string_view r : {"rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"}) {
        if (modifiers.front() == r) rounding = std::string(r);
      }
      if (!rounding.empty()) modifiers.erase(modifiers.begin());
    }
    if (!modifiers.empty() && modifiers.front() == "sat") {
      saturate = true;
      modifiers.erase(modifiers.begin());
    }
    if (modifiers.size() != 2) throw Unsupported{"a modifier warpsim does not run (.relu, .satfinite, ...)"};
    static const std::map<std::string, std::string> kRound = {
        {"rn", "nearest_even"}, {"rz", "toward_zero"}, {"rm", "down"}, {"rp", "up"},
        {"rni", "nearest_even"}, {"rzi", "toward_zero"}, {"rmi", "down"}, {"rpi", "up"}};
    const std::string_view dname = modifiers[0], aname = modifiers[1];
    if ((dname == "f16x2" || dname == "bf16x2") && aname == "f32") {  // two floats into a pair
      expect_operands(3);
      if (rounding != "rn" && rounding != "rz") throw Unsupported{"the pair conversion runs with .rn or .rz"};
      return assign(ops_[0], 32,
                    call("cvt_pair<::warpsim::ptx::" + std::string(dname.substr(0, dname.size() - 2)) + ">",
                         source(ops_[1], 32), source(ops_[2], 32),
                         "::warpsim::ptx::Round::" + kRound.at(rounding)));
    }
    const std::optional<PtxType> d = type_named(dname), a = type_named(aname);
    if (!d || !a || d->sign == Sign::predicate || a->sign == Sign::predicate || d->sign == Sign::bits ||
        a->sign == Sign::bits) {
      throw Unsupported{"conversion ." + std::string(dname) + "." + std::string(aname) + " is not run"};
    }
    expect_operands(2);
    const bool d_float = d->sign == Sign::floating, a_float = a->sign == Sign::floating;
    const bool integer_rounding = rounding.size() == 3;
    if (!d_float && !a_float) {
      if (!rounding.empty()) throw Unsupported{"integer conversions take no rounding modifier"};
    } else if (!d_float) {
      if (!integer_rounding) throw Unsupported{"float to integer needs .rni, .rzi, .rmi or .rpi"};
    } else {
      if (saturate) throw Unsupported{".sat of a float result is not run"};
      const bool widening = a_float && d->width > a->width;
      if (widening && !rounding.empty()) throw Unsupported{"a widening float conversion takes no rounding"};
      if (!widening && (rounding.empty() || integer_rounding)) {
        throw Unsupported{"this conversion needs .rn, .rz, .rm or .rp"};
      }
    }
    if (d_float && a_float && d->width == a->width) throw Unsupported{"float to float of one width is not run"};
    const int d_register = cvt_register_width(ops_[0], d->width, true);
    const int a_register = cvt_register_width(ops_[1], a->width, false);
    const std::string value =
        call("cvt<" + tag(*d) + ", " + tag(*a) + ">",
             call("low<" + tag(*a) + ">", source(ops_[1], a_register)),
             "::warpsim::ptx::Round::" + (rounding.empty() ? std::string("nearest_even") : kRound.at(rounding)),
             saturate ? "true" : "false");
    return assign(ops_[0], d_register, call("widen<" + storage(d_register) + ", " + tag(*d) + ">", value));
  }

  // ld/st with cache hints and .global: cache hints change where a GPU caches data, never the
  // value, so these are plain host loads and stores, as the shim's __ldcg and __stcs are.
  //   ld{.global{.nc}}{.ca|.cg|.cs|.lu|.cv}{.v2|.v4}.type  d, [a{+offset}]
  //   st{.global}{.wb|.cg|.cs|.wt}{.v2|.v4}.type  [a{+offset}], b
  // Other state spaces (.shared, .local, .const, .param: their addresses are not generic ones)
  // and memory-order qualifiers are not run.
  std::string load_store() {
    const bool is_load = parts_[0] == "ld";
    std::size_t k = 1;
    if (k < parts_.size() && parts_[k] == "global") ++k;
    if (is_load && k == 2 && k < parts_.size() && parts_[k] == "nc") ++k;
    static constexpr std::string_view kLoadHints[] = {"ca", "cg", "cs", "lu", "cv"};
    static constexpr std::string_view kStoreHints[] = {"wb", "cg", "cs", "wt"};
    const auto listed = [&](const auto& hints) {
      return k < parts_.size() &&
             std::find(std::begin(hints), std::end(hints), parts_[k]) != std::end(hints);
    };
    if (is_load ? listed(kLoadHints) : listed(kStoreHints)) ++k;
    int lanes = 1;
    if (k < parts_.size() && (parts_[k] == "v2" || parts_[k] == "v4")) lanes = parts_[k++][1] - '0';
    if (k >= parts_.size()) throw Unsupported{"it has no type"};
    if (k + 1 != parts_.size()) {
      throw Unsupported{"only generic and .global addresses with cache hints are run for " +
                        std::string(parts_[0]) + " (not ." + std::string(parts_[k]) + ")"};
    }
    const PtxType t = type_part(k, {"b8", "b16", "b32", "b64", "u8", "u16", "u32", "u64", "s8",
                                    "s16", "s32", "s64", "f32", "f64"});
    expect_operands(2);
    const std::string_view address_text = is_load ? ops_[1] : ops_[0];
    const std::string_view value_text = is_load ? ops_[0] : ops_[1];
    if (address_text.size() < 3 || address_text.front() != '[' || address_text.back() != ']') {
      throw Unsupported{"the address " + std::string(address_text) + " is not of the form [a] or [a+offset]"};
    }
    const std::string_view inner = trimmed(address_text.substr(1, address_text.size() - 2));
    const std::size_t plus = inner.find('+');
    std::string address = source(inner.substr(0, plus), 64);
    if (plus != std::string_view::npos) address += " + " + source(inner.substr(plus + 1), 64);
    std::vector<std::string_view> values{value_text};
    if (lanes > 1) {
      if (value_text.front() != '{' || value_text.back() != '}') throw Unsupported{"a vector operand is not a {list}"};
      values = split_top_level(value_text.substr(1, value_text.size() - 2), ',');
      if (values.size() != static_cast<std::size_t>(lanes)) throw Unsupported{"the vector's length is not its type's"};
    }
    const std::string bytes = std::to_string(t.width / 8);
    std::string code = "{ const std::uint64_t warpsim_ptx_address = " + address + "; ";
    // The whole access (every element of a vector) at a multiple of its size, as a GPU needs.
    code += call("check_alignment", "warpsim_ptx_address",
                 std::to_string(values.size() * (t.width / 8)) + "u",
                 is_load ? "\"ld\"" : "\"st\"") + "; ";
    for (std::size_t i = 0; i < values.size(); ++i) {
      const std::string at = "warpsim_ptx_address + " + std::to_string(i) + " * " + bytes;
      const int reg = cvt_register_width(values[i], t.width, is_load);  // integers: wider is fine
      if (t.sign == Sign::floating && reg != t.width) {
        throw Unsupported{std::string(values[i]) + " is not " + width_words(t.width) + " for ." +
                          std::string(t.name)};
      }
      if (is_load) {
        const std::string loaded = call("load<" + tag(t) + ">", at);
        code += assign(values[i], reg, call("widen<" + storage(reg) + ", " + tag(t) + ">", loaded));
      } else {
        const std::string value = call("low<" + tag(t) + ">", source(values[i], reg));
        code += call("store<" + tag(t) + ">", at, value) + "; ";
      }
    }
    return code + "} ";
  }

  std::string bit_field() {
    expect_parts(2);
    const std::string_view base = parts_[0];
    if (base == "bfe") {
      const PtxType t = type_part(1, {"u32", "s32"});
      expect_operands(4);
      return assign(ops_[0], 32, call("bfe_" + std::string(t.name), source(ops_[1], 32),
                                      source(ops_[2], 32), source(ops_[3], 32)));
    }
    type_part(1, {"b32"});
    const std::size_t n = base == "prmt" ? 4 : 5;
    expect_operands(n);
    std::string args;
    for (std::size_t i = 1; i < n; ++i) args += (i > 1 ? ", " : "") + source(ops_[i], 32);
    return assign(ops_[0], 32, "::warpsim::ptx::" + std::string(base) + "_b32(" + args + ")");
  }

  // vabsdiff4.u32.u32.u32.add d, a, b, c: c plus the four bytes' absolute differences (the
  // reduction form; the per-byte forms with a mask are not run).
  std::string byte_absolute_differences() {
    if (parts_.size() != 5 || parts_[1] != "u32" || parts_[2] != "u32" || parts_[3] != "u32" ||
        parts_[4] != "add") {
      throw Unsupported{"vabsdiff4 runs as vabsdiff4.u32.u32.u32.add only"};
    }
    expect_operands(4);
    return assign(ops_[0], 32, "::warpsim::ptx::vabsdiff4_add_u32(" + source(ops_[1], 32) + ", " +
                                   source(ops_[2], 32) + ", " + source(ops_[3], 32) + ")");
  }

  std::string bit_count() {
    expect_parts(2);
    const PtxType t = type_part(1, {"b32", "b64"});
    expect_operands(2);
    const int d_width = parts_[0] == "brev" ? t.width : 32;
    return assign(ops_[0], d_width,
                  call(std::string(parts_[0]) + "_" + std::string(t.name), source(ops_[1], t.width)));
  }

  // bfind{.shiftamt}.type d, a (.u32, .s32, .u64, .s64): d is 32 bits.
  std::string bit_find() {
    const bool shift_amount = parts_.size() == 3 && parts_[1] == "shiftamt";
    if (parts_.size() != (shift_amount ? 3u : 2u)) throw Unsupported{"a modifier warpsim does not run"};
    const PtxType t = type_part(parts_.size() - 1, {"u32", "s32", "u64", "s64"});
    expect_operands(2);
    const std::string value = source(ops_[1], t.width);
    const std::string typed = std::string(t.name[0] == 's' ? "std::int" : "std::uint") +
                              std::to_string(t.width) + "_t";
    return assign(ops_[0], 32,
                  call("bfind", "static_cast<" + typed + ">(" + value + ")",
                       shift_amount ? "true" : "false"));
  }

  // `vote.ballot.sync.b32`, as cub writes it, is `vote.sync.ballot.b32`: ptxas takes .sync on
  // either side of the mode (shfl, vote, match, redux), so the mode moves after it.
  void sync_before_mode() {
    if (parts_.size() == 4 && parts_[2] == "sync" && parts_[1] != "sync") {
      std::swap(parts_[1], parts_[2]);
    }
  }

  std::string shfl() {
    sync_before_mode();
    if (parts_.size() != 4 || parts_[1] != "sync") {
      throw Unsupported{"shfl without .sync is not valid on sm_70 and later; shfl.sync.MODE.b32 runs"};
    }
    type_part(3, {"b32"});
    const std::map<std::string_view, std::string_view> kModes = {
        {"up", "shfl_up"}, {"down", "shfl_down"}, {"bfly", "shfl_xor"}, {"idx", "shfl_idx"}};
    const auto mode = kModes.find(parts_[2]);
    if (mode == kModes.end()) throw Unsupported{"shfl.sync takes .up, .down, .bfly or .idx"};
    expect_operands(5);
    const auto [d, p] = dual_destination(ops_[0], 32);
    const std::string value =
        call("shfl", "::warpsim::Op::" + std::string(mode->second), source(ops_[1], 32),
             source(ops_[2], 32), source(ops_[3], 32), source(ops_[4], 32),
             p.empty() || p == "_" ? std::string("nullptr") : "&" + p);
    if (d == "_") return value + "; ";
    return d + " = " + value + "; ";
  }

  std::string vote() {
    sync_before_mode();
    if (parts_.size() != 4 || parts_[1] != "sync") {
      throw Unsupported{"vote without .sync is not valid on sm_70 and later; vote.sync runs"};
    }
    expect_operands(3);
    const std::string_view mode = parts_[2];
    const std::string a = source(ops_[1], 1), m = source(ops_[2], 32);
    if (mode == "ballot") {
      type_part(3, {"b32"});
      return assign(ops_[0], 32, call("vote_ballot", a, m));
    }
    if (mode != "any" && mode != "all" && mode != "uni") throw Unsupported{"vote.sync takes .ballot, .any, .all or .uni"};
    type_part(3, {"pred"});
    return assign(ops_[0], 1, call("vote_" + std::string(mode), a, m));
  }

  std::string activemask() {
    expect_parts(2);
    type_part(1, {"b32"});
    expect_operands(1);
    return assign(ops_[0], 32, call("activemask_b32"));
  }

  std::string match() {
    sync_before_mode();
    if (parts_.size() != 4 || parts_[1] != "sync") throw Unsupported{"match.sync.any or match.sync.all runs"};
    const PtxType t = type_part(3, {"b32", "b64"});
    expect_operands(3);
    const std::string a = source(ops_[1], t.width), m = source(ops_[2], 32);
    if (parts_[2] == "any") return assign(ops_[0], 32, call("match_any", a, m));
    if (parts_[2] != "all") throw Unsupported{"match.sync takes .any or .all"};
    const auto [d, p] = dual_destination(ops_[0], 32);
    const std::string value = call("match_all", a, m, p.empty() || p == "_" ? std::string("nullptr") : "&" + p);
    return d == "_" ? value + "; " : d + " = " + value + "; ";
  }

  std::string redux() {
    sync_before_mode();
    if (parts_.size() != 4 || parts_[1] != "sync") throw Unsupported{"redux.sync runs"};
    const std::string_view op = parts_[2];
    const bool arithmetic = op == "add" || op == "min" || op == "max";
    const bool logical = op == "and" || op == "or" || op == "xor";
    if (!arithmetic && !logical) throw Unsupported{"redux.sync takes .add, .min, .max, .and, .or or .xor"};
    const PtxType t = arithmetic ? type_part(3, {"u32", "s32"}) : type_part(3, {"b32"});
    expect_operands(3);
    return assign(ops_[0], 32,
                  call("redux_" + std::string(op) + "_" + std::string(t.name), source(ops_[1], 32),
                       source(ops_[2], 32)));
  }

  const AsmStatement& statement_;
  std::vector<Register> registers_;                         // %0, %1, ...
  std::vector<std::map<std::string, Register>> scopes_;     // .reg names, innermost last
  std::vector<std::string_view> ops_;                       // the instruction being translated
  std::vector<std::string_view> parts_;                     // its opcode cut at the dots
};

}  // namespace

std::optional<AsmStatement> parse_asm_statement(std::string_view inside) {
  const std::vector<std::string_view> sections = split_top_level(inside, ':');
  AsmStatement statement;
  statement.ptx = asm_template(inside);
  if (sections.size() > 4) return std::nullopt;
  if (sections.size() > 1) {
    auto outputs = asm_operands(sections[1]);
    if (!outputs) return std::nullopt;
    statement.outputs = std::move(*outputs);
  }
  if (sections.size() > 2) {
    auto inputs = asm_operands(sections[2]);
    if (!inputs) return std::nullopt;
    statement.inputs = std::move(*inputs);
  }
  return statement;  // clobbers ("memory", "cc") change nothing in the simulator
}

bool looks_like_ptx(std::string_view ptx) {
  const std::string_view text = trimmed(ptx);
  if (text.empty()) return false;
  if (text[0] == '{') return true;
  const std::string_view word = text.substr(0, text.find_first_of(" \t\n;"));
  // PTX's instructions without a type or modifier (cub's ThreadExit is `exit;`).
  for (const std::string_view bare : {"exit", "trap", "brkpt", "ret"}) {
    if (word == bare) return true;
  }
  return word.find('.') != std::string_view::npos;
}

PtxTranslation translate_ptx(const AsmStatement& statement) {
  return Translator(statement).run();
}

}  // namespace warpsim::runner
