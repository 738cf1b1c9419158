// The exercise format's integer expressions ("block * 2", "min(n, 64) - 1"): a recursive descent
// over the text, evaluated as it parses, with the names a case defines.
#include <algorithm>
#include <cctype>
#include <string>

#include "warpsim/grading.hpp"

namespace warpsim::course {
namespace {

class ExpressionParser {
 public:
  ExpressionParser(std::string_view text, const std::map<std::string, std::int64_t>& vars)
      : text_(text), vars_(vars) {}

  Expected<std::int64_t> run() {
    std::int64_t value = sum();
    skip_space();
    if (error_.empty() && pos_ != text_.size())
      error_ = "unexpected '" + std::string(text_.substr(pos_)) + "'";
    if (!error_.empty()) return fail("expression '" + std::string(text_) + "': " + error_);
    return value;
  }

 private:
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  std::int64_t sum() {
    std::int64_t value = product();
    while (error_.empty()) {
      if (eat('+')) {
        value += product();
      } else if (eat('-')) {
        value -= product();
      } else {
        break;
      }
    }
    return value;
  }
  std::int64_t product() {
    std::int64_t value = unary();
    while (error_.empty()) {
      const bool times = eat('*');
      const bool divide = !times && eat('/');
      const bool modulo = !times && !divide && eat('%');
      if (!times && !divide && !modulo) break;
      const std::int64_t right = unary();
      if (times) {
        value *= right;
      } else if (right == 0) {
        error_ = "division by zero";
      } else {
        value = divide ? value / right : value % right;
      }
    }
    return value;
  }
  std::int64_t unary() {
    if (eat('-')) return -unary();
    return primary();
  }
  std::int64_t primary() {
    skip_space();
    if (eat('(')) {
      const std::int64_t value = sum();
      if (!eat(')')) error_ = "missing ')'";
      return value;
    }
    const std::size_t start = pos_;
    if (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
      return std::stoll(std::string(text_.substr(start, pos_ - start)));
    }
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
      ++pos_;
    }
    const std::string name(text_.substr(start, pos_ - start));
    if (name.empty()) {
      if (error_.empty())
        error_ = pos_ < text_.size() ? "unexpected '" + std::string(1, text_[pos_]) + "'"
                                     : "missing a value";
      return 0;
    }
    if (name == "min" || name == "max") {
      if (!eat('(')) {
        error_ = name + " takes (a, b)";
        return 0;
      }
      const std::int64_t a = sum();
      if (!eat(',')) error_ = name + " takes (a, b)";
      const std::int64_t b = sum();
      if (!eat(')')) error_ = "missing ')'";
      return name == "min" ? std::min(a, b) : std::max(a, b);
    }
    const auto it = vars_.find(name);
    if (it == vars_.end()) {
      if (error_.empty()) error_ = "unknown name '" + name + "'";
      return 0;
    }
    return it->second;
  }

  std::string_view text_;
  const std::map<std::string, std::int64_t>& vars_;
  std::size_t pos_ = 0;
  std::string error_;
};

}  // namespace

Expected<std::int64_t> evaluate(const Expression& expr,
                                const std::map<std::string, std::int64_t>& vars) {
  return ExpressionParser(expr.text, vars).run();
}

}  // namespace warpsim::course
