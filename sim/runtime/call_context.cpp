// call_shape (call_context.hpp): a small recursive reader of C++ statements, enough to tell which
// branches, loops and functions enclose one token and where the returns are.
#include "call_context.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <vector>

namespace warpsim::runtime {
namespace {

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_hex_digit(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

// `source` with comments, the contents of string and character literals and preprocessor lines
// turned into spaces; newlines stay, so every character keeps its line.
std::string strip(std::string_view s) {
  std::string out(s);
  const std::size_t n = s.size();
  const auto blank = [&](std::size_t k) {
    if (out[k] != '\n') out[k] = ' ';
  };
  bool line_start = true;
  std::size_t i = 0;
  while (i < n) {
    const char c = s[i];
    if (c == '\n') {
      line_start = true;
      ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
      continue;
    }
    if (line_start && c == '#') {  // a directive, with its backslash continuations
      while (i < n && s[i] != '\n') {
        if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n') {
          blank(i);
          i += 2;
          continue;
        }
        blank(i++);
      }
      continue;
    }
    line_start = false;
    if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n') blank(i++);
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      blank(i++);
      blank(i++);
      while (i < n && !(s[i] == '*' && i + 1 < n && s[i + 1] == '/')) blank(i++);
      if (i < n) {
        blank(i++);
        blank(i++);
      }
      continue;
    }
    if (c == '"' && i > 0 && s[i - 1] == 'R') {  // raw string R"delim( ... )delim"
      const std::size_t open = s.find('(', i);
      if (open == std::string_view::npos) return out;
      const std::string close = ")" + std::string(s.substr(i + 1, open - i - 1)) + "\"";
      const std::size_t end = s.find(close, open);
      const std::size_t stop = end == std::string_view::npos ? n : end + close.size();
      for (std::size_t k = i; k < stop; ++k) blank(k);
      i = stop;
      continue;
    }
    const bool digit_separator = c == '\'' && i > 0 && is_hex_digit(s[i - 1]) && i + 1 < n &&
                                 is_hex_digit(s[i + 1]) && i > 1 && !is_ident_start(s[i - 2]);
    if ((c == '"' || c == '\'') && !digit_separator) {
      blank(i++);
      while (i < n && s[i] != c && s[i] != '\n') {
        if (s[i] == '\\' && i + 1 < n) blank(i++);
        blank(i++);
      }
      if (i < n && s[i] == c) blank(i++);
      continue;
    }
    ++i;
  }
  return out;
}

struct Token {
  std::string_view text;
  std::uint32_t line = 0;
};

std::vector<Token> tokenize(std::string_view text) {
  std::vector<Token> tokens;
  std::uint32_t line = 1;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (is_ident_start(c)) {
      const std::size_t start = i;
      while (i < text.size() && is_ident_char(text[i])) ++i;
      tokens.push_back({text.substr(start, i - start), line});
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      const std::size_t start = i;
      while (i < text.size() && (is_ident_char(text[i]) || text[i] == '.' || text[i] == '\'' ||
                                 ((text[i] == '+' || text[i] == '-') &&
                                  (text[i - 1] == 'e' || text[i - 1] == 'E' ||
                                   text[i - 1] == 'p' || text[i - 1] == 'P')))) {
        ++i;
      }
      tokens.push_back({text.substr(start, i - start), line});
    } else {
      const std::string_view two = text.substr(i, 2);
      const std::size_t length = two == "::" || two == "&&" || two == "||" || two == "->" ? 2 : 1;
      tokens.push_back({text.substr(i, length), line});
      i += length;
    }
  }
  return tokens;
}

bool is_keyword(std::string_view t) {
  static constexpr std::string_view kKeywords[] = {
      "if",     "else",   "for",      "while",    "do",       "switch",   "case",
      "return", "sizeof", "alignof",  "decltype", "static_cast", "reinterpret_cast",
      "const_cast", "dynamic_cast", "throw", "new", "delete", "catch",   "template",
      "typeid", "noexcept", "alignas", "static_assert"};
  for (std::string_view k : kKeywords) {
    if (t == k) return true;
  }
  return false;
}

// The statement reader. Scopes are pushed as the reader enters them; when it passes the call's
// token it notes the scopes around it.
class Reader {
 public:
  Reader(const std::vector<Token>& tokens, std::size_t call) : t_(tokens), call_(call) {}

  // The function around the call: its parameter tokens and its body's.
  struct Function {
    std::size_t params_begin = 0, params_end = 0;  // inside the parentheses
    std::size_t body_begin = 0, body_end = 0;      // '{' .. '}'
  };

  // False when the text could not be read, or the call is in no function.
  bool read() {
    std::size_t i = 0;
    return declarations(i, /*until_brace=*/false) && found_;
  }
  const Function& function() const { return function_range_; }

  sync::CallShape shape() const {
    sync::CallShape shape;
    shape.known = true;
    shape.in_branch = in_branch_;
    for (const Return& r : returns_) {
      if (r.function != function_) continue;
      if (r.index < call_) shape.return_before = true;
      if (has_loop_ && r.index >= loop_begin_ && r.index < loop_end_) shape.return_in_loop = true;
    }
    if (has_loop_) {
      shape.loop_first_line = t_[loop_begin_].line;
      shape.loop_last_line = t_[std::min(loop_end_, t_.size()) - 1].line;
    }
    return shape;
  }

 private:
  enum class Scope : std::uint8_t { function, branch, loop, block };
  struct Frame {
    Scope kind;
    std::size_t begin;
    std::size_t params_begin = 0, params_end = 0;  // functions: their parameter tokens
  };
  struct Return {
    std::size_t index;
    std::size_t function;  // begin of the function it returns from
  };

  bool at(std::size_t i, std::string_view text) const { return i < t_.size() && t_[i].text == text; }
  bool end(std::size_t i) const { return i >= t_.size(); }

  // Notes the scopes around the call when `i` is its token.
  void visit(std::size_t i) {
    if (i != call_ || found_) return;
    found_ = true;
    in_branch_ = statement_branch_;
    for (auto it = stack_.rbegin(); it != stack_.rend(); ++it) {
      if (it->kind == Scope::function) {
        function_ = it->begin;
        function_range_.params_begin = it->params_begin;
        function_range_.params_end = it->params_end;
        function_range_.body_begin = it->begin;
        break;
      }
      if (it->kind == Scope::branch) in_branch_ = true;
      if (it->kind == Scope::loop && !has_loop_) {
        has_loop_ = true;
        loop_begin_ = it->begin;
      }
    }
    if (function_ == kNone) found_ = false;  // not inside a function: cannot say
  }

  void push(Scope kind, std::size_t begin) { stack_.push_back({kind, begin}); }
  void pop(std::size_t end_index) {
    if (has_loop_ && loop_end_ == kNone && stack_.back().kind == Scope::loop &&
        stack_.back().begin == loop_begin_) {
      loop_end_ = end_index;
    }
    if (found_ && stack_.back().kind == Scope::function && stack_.back().begin == function_) {
      function_range_.body_end = end_index;
    }
    stack_.pop_back();
  }

  std::size_t function_begin() const {
    for (auto it = stack_.rbegin(); it != stack_.rend(); ++it) {
      if (it->kind == Scope::function) return it->begin;
    }
    return kNone;
  }

  // Skips a balanced (...), [...] or {...} group starting at `i` (which must be the opener),
  // reading any lambdas inside it. Returns false on unbalanced text.
  bool group(std::size_t& i) {
    const std::string_view open = t_[i].text;
    const std::string_view close = open == "(" ? ")" : open == "[" ? "]" : "}";
    visit(i);
    ++i;
    while (!end(i) && !at(i, close)) {
      if (!expression_token(i)) return false;
    }
    if (end(i)) return false;
    visit(i);
    ++i;
    return true;
  }

  // One token (or group) of an expression: nested groups, lambdas, conditional operators.
  bool expression_token(std::size_t& i) {
    const std::string_view text = t_[i].text;
    if (text == "[" && at(i + 1, "[")) {  // [[attribute]]
      while (!end(i) && !(at(i, "]") && at(i + 1, "]"))) visit(i++);
      if (end(i)) return false;
      visit(i++);
      visit(i++);
      return true;
    }
    if (text == "[" && lambda_introducer(i)) return lambda(i);
    if (text == "(" || text == "[" || text == "{") return group(i);
    if (text == ")" || text == "]" || text == "}" ) return false;
    if (text == "?" || text == "||" || (text == "&&" && !(i > 0 && t_[i - 1].text == "auto"))) {
      statement_branch_ = true;
    }
    visit(i);
    ++i;
    return true;
  }

  bool lambda_introducer(std::size_t i) const {
    if (i == 0) return true;
    const std::string_view before = t_[i - 1].text;
    const bool after_operand = is_ident_char(before.front()) || before == ")" || before == "]";
    return !after_operand || before == "return";
  }

  // [captures] (params) specifiers { body }: the body is a function of its own.
  bool lambda(std::size_t& i) {
    if (!group(i)) return false;  // captures
    if (at(i, "<") ) {            // template parameters
      int depth = 0;
      do {
        if (at(i, "<")) ++depth;
        if (at(i, ">")) --depth;
        visit(i++);
      } while (!end(i) && depth > 0);
    }
    const std::size_t params = i;
    if (at(i, "(") && !group(i)) return false;
    while (!end(i) && !at(i, "{") && !at(i, ";") && !at(i, ")") && !at(i, ",")) {
      if (at(i, "(")) {
        if (!group(i)) return false;
      } else {
        visit(i++);
      }
    }
    if (!at(i, "{")) return true;  // not a lambda after all ([i] of something): carry on
    return function_body(i, params);
  }

  // A function's body at `i`; `params`, when not kNone, is its parameter list's '('.
  bool function_body(std::size_t& i, std::size_t params) {
    Frame frame{Scope::function, i};
    if (params != kNone && at(params, "(")) {
      frame.params_begin = params + 1;
      frame.params_end = matching(params);
    }
    stack_.push_back(frame);
    visit(i++);
    if (!statements(i)) return false;
    pop(i);
    visit(i++);  // '}'
    return true;
  }

  // Statements up to the closing '}' (left at i).
  bool statements(std::size_t& i) {
    while (!end(i) && !at(i, "}")) {
      if (!statement(i)) return false;
    }
    return !end(i);
  }

  bool condition(std::size_t& i) {
    if (!at(i, "(")) return false;
    return group(i);
  }

  // A statement under a control statement, in its own scope.
  bool body(std::size_t& i, Scope kind) {
    push(kind, i);
    const bool ok = statement(i);
    if (ok) pop(i);
    return ok;
  }

  bool statement(std::size_t& i) {
    statement_branch_ = false;
    const std::string_view text = t_[i].text;
    if (text == "{") {
      push(Scope::block, i);
      visit(i++);
      if (!statements(i)) return false;
      pop(i);
      visit(i++);
      return true;
    }
    if (text == ";") {
      visit(i++);
      return true;
    }
    if (text == "if") {
      visit(i++);
      if (at(i, "constexpr")) visit(i++);
      if (!condition(i) || end(i) || !body(i, Scope::branch)) return false;
      if (at(i, "else")) {
        visit(i++);
        if (end(i) || !body(i, Scope::branch)) return false;
      }
      return true;
    }
    if (text == "switch") {
      visit(i++);
      return condition(i) && !end(i) && body(i, Scope::branch);
    }
    if (text == "for" || text == "while") {
      push(Scope::loop, i);
      visit(i++);
      if (!condition(i) || end(i) || !statement(i)) return false;
      pop(i);
      return true;
    }
    if (text == "do") {
      push(Scope::loop, i);
      visit(i++);
      if (end(i) || !statement(i) || !at(i, "while")) return false;
      visit(i++);
      if (!condition(i)) return false;
      pop(i);
      if (at(i, ";")) visit(i++);
      return true;
    }
    if (text == "case" || text == "default") {
      while (!end(i) && !at(i, ":")) visit(i++);
      if (end(i)) return false;
      visit(i++);
      return true;
    }
    if (text == "try") {
      visit(i++);
      if (!at(i, "{") || !statement(i)) return false;
      while (at(i, "catch")) {
        visit(i++);
        if (!condition(i) || !at(i, "{") || !statement(i)) return false;
      }
      return true;
    }
    if (text == "return" || text == "throw") returns_.push_back({i, function_begin()});
    if ((text == "struct" || text == "class" || text == "union" || text == "enum")) {
      // A local type: its body is skipped as a group.
      while (!end(i) && !at(i, ";")) {
        if (at(i, "{") || at(i, "(") || at(i, "[")) {
          if (!group(i)) return false;
        } else {
          visit(i++);
        }
      }
      if (end(i)) return false;
      visit(i++);
      return true;
    }
    // An expression or declaration statement, up to its ';'.
    while (!end(i) && !at(i, ";")) {
      if (at(i, "}")) return false;
      if (!expression_token(i)) return false;
    }
    if (end(i)) return false;
    visit(i++);
    return true;
  }

  // Declarations at namespace or class scope, up to the closing '}' (or the end of the file).
  bool declarations(std::size_t& i, bool until_brace) {
    while (!end(i) && !at(i, "}")) {
      if (!declaration(i)) return false;
    }
    if (until_brace != !end(i)) return false;
    return true;
  }

  // The index of the ')' that closes the '(' at `open` (the text was read up to it already).
  std::size_t matching(std::size_t open) const {
    int depth = 0;
    for (std::size_t k = open; k < t_.size(); ++k) {
      if (t_[k].text == "(") ++depth;
      if (t_[k].text == ")" && --depth == 0) return k;
    }
    return open;
  }

  bool declaration(std::size_t& i) {
    bool saw_paren = false, saw_assign = false, saw_type_key = false, saw_namespace = false;
    std::size_t params = kNone;  // the first '(' at this level: a function's parameters
    while (!end(i)) {
      const std::string_view text = t_[i].text;
      if (text == ";") {
        visit(i++);
        return true;
      }
      if (text == "}") return false;
      if (text == "namespace" || text == "extern") saw_namespace = true;
      if (text == "struct" || text == "class" || text == "union") saw_type_key = !saw_paren;
      if (text == "enum") saw_assign = true;  // an enum body is only skipped
      if (text == "=") saw_assign = true;
      if (text == "template" && at(i + 1, "<")) {
        visit(i++);
        int depth = 0;
        do {
          if (at(i, "<")) ++depth;
          if (at(i, ">")) --depth;
          if (at(i, "(")) {
            if (!group(i)) return false;
            continue;
          }
          visit(i++);
        } while (!end(i) && depth > 0);
        continue;
      }
      if (text == "(") {
        if (!saw_paren) params = i;
        saw_paren = true;
        if (!group(i)) return false;
        continue;
      }
      if (text == "[") {
        if (!group(i)) return false;
        continue;
      }
      if (text == "{") {
        if (saw_namespace && !saw_paren && !saw_type_key) {  // namespace x { or extern "C" {
          push(Scope::block, i);
          visit(i++);
          if (!declarations(i, true)) return false;
          pop(i);
          visit(i++);
          return true;
        }
        if (saw_type_key && !saw_assign) {  // a class body, then maybe declarators up to ';'
          push(Scope::block, i);
          visit(i++);
          if (!declarations(i, true)) return false;
          pop(i);
          visit(i++);
          saw_type_key = saw_paren = false;
          continue;
        }
        if (saw_paren && !saw_assign) return function_body(i, params);
        if (!group(i)) return false;  // an initializer
        continue;
      }
      visit(i++);
    }
    return true;  // text ended inside a declaration: nothing more to read
  }

  static constexpr std::size_t kNone = ~std::size_t{0};
  const std::vector<Token>& t_;
  const std::size_t call_;
  std::vector<Frame> stack_;
  std::vector<Return> returns_;
  bool statement_branch_ = false;  // a ?: && || before this point of the current statement
  bool found_ = false;
  bool in_branch_ = false;
  std::size_t function_ = kNone;
  Function function_range_;
  bool has_loop_ = false;
  std::size_t loop_begin_ = kNone, loop_end_ = kNone;
};

// The token of the call on `line`: `callee` followed by '(', else the first non-keyword name
// followed by '(' (a member such as tile.shfl, a helper, a macro).
std::size_t call_token(const std::vector<Token>& tokens, std::uint32_t line,
                       std::string_view callee) {
  std::size_t first_call = tokens.size();
  for (std::size_t k = 0; k + 1 < tokens.size(); ++k) {
    if (tokens[k].line != line) continue;
    if (tokens[k + 1].text != "(" || !is_ident_start(tokens[k].text.front())) continue;
    if (tokens[k].text == callee) return k;
    if (first_call == tokens.size() && !is_keyword(tokens[k].text)) first_call = k;
  }
  return first_call;
}

// The tokens of argument `index` of the call whose '(' is at `open`: [first, last).
std::pair<std::size_t, std::size_t> argument_range(const std::vector<Token>& t, std::size_t open,
                                                   std::size_t index) {
  std::size_t first = open + 1;
  int depth = 0;
  for (std::size_t k = open + 1; k < t.size(); ++k) {
    const std::string_view text = t[k].text;
    if (text == "(" || text == "[" || text == "{") ++depth;
    if (text == ")" || text == "]" || text == "}") {
      if (depth == 0) return index == 0 ? std::pair{first, k} : std::pair{k, k};
      --depth;
    }
    if (text == "," && depth == 0) {
      if (index == 0) return {first, k};
      --index;
      first = k + 1;
    }
  }
  return {t.size(), t.size()};
}

// How deep a mask is followed through helpers' parameters to their callers (recursion ends).
constexpr int kParameterDepth = 4;

MaskOrigin parameter_origin(const std::vector<Token>& t, const Reader::Function& f,
                            std::size_t parameter, int depth);

// Where the value of the expression t[first, last) comes from, in function `f`, at token `at`.
MaskOrigin expression_origin(const std::vector<Token>& t, std::size_t first, std::size_t last,
                             const Reader::Function& f, std::size_t at, int depth) {
  std::vector<std::string_view> names;
  std::size_t call_end = first;  // inside a call's parentheses up to here
  for (std::size_t k = first; k < last; ++k) {
    const std::string_view text = t[k].text;
    if (text == "__activemask") return MaskOrigin::activemask;
    if (k < call_end) continue;  // a call's arguments are not the value's origin
    static constexpr std::string_view kTypeWords[] = {
        "static_cast", "unsigned", "int", "long", "const", "uint32_t", "std", "LaneMask"};
    bool type_word = false;
    for (std::string_view w : kTypeWords) type_word = type_word || text == w;
    if (!is_ident_start(text.front()) || type_word) continue;
    if (k + 1 < last && t[k + 1].text == "(") {  // a call (a __ballot_sync): its result
      int level = 0;
      for (call_end = k + 1; call_end < last; ++call_end) {
        if (t[call_end].text == "(") ++level;
        if (t[call_end].text == ")" && --level == 0) break;
      }
      continue;
    }
    names.push_back(text);
  }
  if (names.empty()) return MaskOrigin::elsewhere;  // a literal, or a call's result
  // Each name: set in the function before the call (the last setting counts), a parameter, or
  // neither (a macro, a constant, a global).
  MaskOrigin origin = MaskOrigin::elsewhere;
  for (std::string_view name : names) {
    std::optional<bool> from_activemask;  // of the last assignment before the call
    for (std::size_t k = f.body_begin; k < at; ++k) {
      if (t[k].text != name || k + 2 >= t.size()) continue;
      const std::string_view next = t[k + 1].text;
      const bool assigns = (next == "=" && t[k + 2].text != "=") ||
                           ((next == "|" || next == "&" || next == "^") && t[k + 2].text == "=") ||
                           next == "{" || (next == "(" && k > 0 && is_ident_start(t[k - 1].text.front()));
      if (!assigns) continue;
      bool activemask = false;
      int level = 0;
      for (std::size_t j = k + 1; j < at && !(t[j].text == ";" && level == 0); ++j) {
        if (t[j].text == "(" || t[j].text == "{") ++level;
        if (t[j].text == ")" || t[j].text == "}") --level;
        activemask = activemask || t[j].text == "__activemask";
      }
      from_activemask = activemask || (from_activemask.value_or(false) && next != "=");
    }
    if (from_activemask.value_or(false)) return MaskOrigin::activemask;
    if (from_activemask.has_value()) continue;
    std::size_t parameter = 0;
    for (std::size_t k = f.params_begin; k < f.params_end; ++k) {
      if (t[k].text == ",") ++parameter;
      if (t[k].text != name) continue;
      const MaskOrigin passed = parameter_origin(t, f, parameter, depth);
      if (passed == MaskOrigin::activemask) return passed;
      if (passed == MaskOrigin::unknown) origin = passed;
      break;
    }
  }
  return origin;
}

// Where parameter number `parameter` of function `f` comes from: what every call of the
// function in the same file passes there (a helper handed a __ballot_sync result by its only
// caller is not handed an __activemask()). Unknown when no call is found or one is unreadable.
MaskOrigin parameter_origin(const std::vector<Token>& t, const Reader::Function& f,
                            std::size_t parameter, int depth) {
  if (depth >= kParameterDepth || f.params_begin < 2) return MaskOrigin::unknown;
  const std::size_t definition = f.params_begin - 2;
  const std::string_view name = t[definition].text;
  if (!is_ident_start(name.front())) return MaskOrigin::unknown;
  bool any_call = false;
  MaskOrigin origin = MaskOrigin::elsewhere;
  for (std::size_t k = 0; k + 1 < t.size(); ++k) {
    if (k == definition || t[k].text != name || t[k + 1].text != "(") continue;
    Reader caller(t, k);
    if (!caller.read()) continue;  // a declaration outside any function, not a call
    if (caller.function().params_begin == f.params_begin) continue;  // recursion
    const auto [first, last] = argument_range(t, k + 1, parameter);
    if (first >= last) return MaskOrigin::unknown;  // a default argument, a pack: not followed
    any_call = true;
    const MaskOrigin passed = expression_origin(t, first, last, caller.function(), k, depth + 1);
    if (passed == MaskOrigin::activemask) return passed;
    if (passed == MaskOrigin::unknown) origin = passed;
  }
  return any_call ? origin : MaskOrigin::unknown;
}

// Where the first argument of the call at `call` comes from (call_context.hpp, MaskOrigin).
MaskOrigin mask_origin(const std::vector<Token>& t, std::size_t call,
                       const Reader::Function& f) {
  const auto [first, last] = argument_range(t, call + 1, 0);
  return expression_origin(t, first, last, f, call, 0);
}

}  // namespace

CallContext call_context(std::string_view source, std::uint32_t line, std::string_view callee) {
  const std::string stripped = strip(source);
  const std::vector<Token> tokens = tokenize(stripped);
  const std::size_t call = call_token(tokens, line, callee);
  if (call == tokens.size()) return {};
  Reader reader(tokens, call);
  if (!reader.read()) return {};
  CallContext context;
  context.shape = reader.shape();
  context.mask = tokens[call].text == callee ? mask_origin(tokens, call, reader.function())
                                             : MaskOrigin::elsewhere;
  return context;
}

const std::string& CallContexts::text_of(const std::string& path) {
  if (const auto it = texts_.find(path); it != texts_.end()) return it->second;
  namespace fs = std::filesystem;
  std::vector<fs::path> candidates{fs::path(path)};
  if (fs::path(path).is_relative()) {
    std::error_code error;
    fs::path folder = fs::read_symlink("/proc/self/exe", error).parent_path();
    for (int up = 0; !error && !folder.empty() && up < 8; ++up) {
      candidates.push_back(folder / path);
      if (folder == folder.parent_path()) break;
      folder = folder.parent_path();
    }
  }
  std::string contents;
  for (const fs::path& candidate : candidates) {
    std::ifstream in(candidate, std::ios::binary);
    if (!in) continue;
    std::ostringstream text;
    text << in.rdbuf();
    contents = text.str();
    break;
  }
  return texts_.emplace(path, std::move(contents)).first->second;
}

CallContext CallContexts::of(const std::string& path, std::uint32_t line,
                             std::string_view callee) {
  std::string key = path + ":" + std::to_string(line) + ":" + std::string(callee);
  if (const auto it = contexts_.find(key); it != contexts_.end()) return it->second;
  const CallContext context = call_context(text_of(path), line, callee);
  contexts_.emplace(std::move(key), context);
  return context;
}

}  // namespace warpsim::runtime
