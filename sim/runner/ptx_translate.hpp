// Inline PTX as C++: an asm statement's template and operands, read from its source text, and
// the C++ statements that do what its PTX does with warpsim/inline_ptx.hpp's functions.
//   asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, %2; }"
//                : "=r"(r) : "r"(x), "r"(m));
// becomes one line of C++ with locals for the operands and for p, a call for each instruction
// and `r` assigned at the end. What warpsim does not run comes back as an error naming the
// first instruction it cannot translate and why, never as code that computes something else.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::runner {

struct AsmOperand {
  std::string constraint;  // "=r", "+l", "f", "n", "0", ...
  std::string expression;  // the C++ inside the parentheses
};

struct AsmStatement {
  std::string ptx;  // the template's string literals, concatenated, escapes decoded
  std::vector<AsmOperand> outputs;
  std::vector<AsmOperand> inputs;  // %N numbers the outputs first, then these
};

// The contents of an asm template's string literals (the text between the statement's
// parentheses up to the first ':'), concatenated, with \n, \t and \" decoded.
std::string asm_template(std::string_view inside);

// The text between an asm statement's parentheses, read: template and operands; nullopt when
// the operands are not of the plain `"constraint"(expression)` form (named operands, asm goto).
std::optional<AsmStatement> parse_asm_statement(std::string_view inside);

// Whether a template reads as PTX: its first word has a '.' (mov.u32) or is one of PTX's bare
// instructions (exit, trap, brkpt, ret), or it is a { ... } block.
// Empty templates, symbol names and host assembly ("pause") do not.
bool looks_like_ptx(std::string_view ptx);

struct PtxTranslation {
  std::string code;         // C++ statements on one line, when translated
  std::string instruction;  // otherwise: the first instruction warpsim does not run, as written
  std::string reason;       //            and why not
  bool ok() const { return instruction.empty(); }
};

PtxTranslation translate_ptx(const AsmStatement& statement);

}  // namespace warpsim::runner
