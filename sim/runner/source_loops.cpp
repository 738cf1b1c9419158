// Forward progress for kernel files: every loop of the user's file counts a tick per iteration
// (device::spin_tick, sim/runtime/forward_progress.cpp), so that a lane spinning on a flag that
// another lane or warp sets yields to them, as Volta+ scheduling lets it.
#include <algorithm>
#include <cstdlib>
#include <string>

#include "source_tokens.hpp"
#include "warpsim/runner.hpp"

namespace warpsim::runner {
namespace {

// Goes before a loop's body, on the loop's own line (so __builtin_LINE() in spin_tick's default
// argument names the loop, and no other line moves): `for (...) BODY` becomes
// `for (...) if (tick(), false) {} else BODY`, a statement that runs the tick, then BODY.
constexpr std::string_view kTick = " if (::warpsim::device::spin_tick(), false) {} else ";

bool opens(std::string_view text) { return text == "(" || text == "{" || text == "["; }
bool closes(std::string_view text) { return text == ")" || text == "}" || text == "]"; }

// The `while` that ends the do-statement whose `do` is at `k`: the first one at the do's own
// nesting depth, counting nested do-statements; tokens.size() when none.
std::size_t do_tail(const std::vector<Token>& tokens, std::size_t k) {
  int depth = 0;
  int open_dos = 1;
  for (std::size_t j = k + 1; j < tokens.size(); ++j) {
    const std::string_view text = tokens[j].text;
    if (opens(text)) ++depth;
    if (closes(text) && --depth < 0) return tokens.size();
    if (depth != 0 || tokens[j].kind != Token::Kind::identifier) continue;
    if (text == "do") ++open_dos;
    if (text == "while" && --open_dos == 0) return j;
  }
  return tokens.size();
}

// The `for` loops an OpenMP `collapse(N)` joins into one, but for the innermost: their bodies
// must stay the next loop itself (a tick before it would break the perfect nest OpenMP needs:
// "not enough for loops to collapse"). Host code, such as a program's CPU reference.
std::vector<bool> collapsed_loops(std::string_view source, const std::vector<Token>& tokens) {
  std::vector<bool> collapsed(tokens.size(), false);
  for (std::size_t at = source.find("#pragma"); at != std::string_view::npos;
       at = source.find("#pragma", at + 1)) {
    const std::size_t line_end = std::min(source.find('\n', at), source.size());
    const std::string_view line = source.substr(at, line_end - at);
    const std::size_t clause = line.find("collapse(");
    if (line.find("omp") == std::string_view::npos || clause == std::string_view::npos) continue;
    const int count = std::atoi(std::string(line.substr(clause + 9)).c_str());
    std::size_t k = 0;
    while (k < tokens.size() && tokens[k].offset < line_end) ++k;
    for (int level = 1; level < count; ++level) {
      if (k + 1 >= tokens.size() || tokens[k].text != "for" || tokens[k + 1].text != "(") break;
      collapsed[k] = true;
      k = after_parentheses(tokens, k + 1);
      while (k < tokens.size() && tokens[k].text == "{") ++k;
    }
  }
  return collapsed;
}

}  // namespace

std::string insert_loop_ticks(std::string_view source) {
  const std::string stripped = strip_for_scan(source);
  const std::vector<Token> tokens = tokenize(stripped);
  const std::vector<bool> collapsed = collapsed_loops(source, tokens);
  std::vector<bool> ends_do(tokens.size(), false);
  std::vector<std::size_t> at;  // source offsets that get a tick, ascending
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    const Token& token = tokens[k];
    if (token.kind != Token::Kind::identifier) continue;
    if (token.text == "do") {
      if (const std::size_t tail = do_tail(tokens, k); tail < tokens.size()) ends_do[tail] = true;
      at.push_back(token.offset + token.text.size());
      continue;
    }
    const bool loop = token.text == "for" || (token.text == "while" && !ends_do[k]);
    if (!loop || k + 1 >= tokens.size() || tokens[k + 1].text != "(" || collapsed[k]) continue;
    const std::size_t body = after_parentheses(tokens, k + 1);
    if (body >= tokens.size()) continue;  // unbalanced: left for the compiler to reject
    at.push_back(tokens[body - 1].offset + 1);
  }
  std::string out;
  out.reserve(source.size() + at.size() * kTick.size());
  std::size_t copied = 0;
  for (const std::size_t offset : at) {
    out.append(source.substr(copied, offset - copied));
    out += kTick;
    copied = offset;
  }
  out.append(source.substr(copied));
  return out;
}

}  // namespace warpsim::runner
