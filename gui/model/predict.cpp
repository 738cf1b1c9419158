#include "model/predict.hpp"

#include <cerrno>
#include <cstdlib>
#include <optional>
#include <string>

namespace warpsim::gui {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// A number in any of the forms the lane view prints (decimal, float, 0x hex).
std::optional<long double> as_number(std::string_view text) {
  const std::string s(text);
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  if (s.starts_with("0x") || s.starts_with("0X")) {
    const unsigned long long v = std::strtoull(s.c_str() + 2, &end, 16);
    if (errno != 0 || *end != '\0' || end == s.c_str() + 2) return std::nullopt;
    return static_cast<long double>(v);
  }
  const long double v = std::strtold(s.c_str(), &end);
  if (errno != 0 || *end != '\0') return std::nullopt;
  return v;
}

bool is_binary(std::string_view s) {
  return s.size() > 8 && s.find_first_not_of("01") == std::string_view::npos;
}

std::string_view strip_zeros(std::string_view s) {
  while (s.size() > 1 && s.front() == '0') s.remove_prefix(1);
  return s;
}

}  // namespace

bool guess_matches(std::string_view guess, std::string_view answer) {
  guess = trim(guess);
  answer = trim(answer);
  if (guess.empty()) return false;
  if (guess == answer) return true;
  if (is_binary(answer)) {
    return guess.find_first_not_of("01") == std::string_view::npos &&
           strip_zeros(guess) == strip_zeros(answer);
  }
  const auto g = as_number(guess), a = as_number(answer);
  return g && a && *g == *a;
}

}  // namespace warpsim::gui
