#include "number_checks.hpp"

#include <cstdlib>
#include <functional>
#include <sstream>
#include <string>

namespace warpsim::cli {
namespace {

std::string number_text(double value) {
  std::ostringstream out;
  out << value;  // 0.001, 86400, 1
  return out.str();
}

// `allowed` says what is ("1 or more"); `fits` whether a value is.
CLI::Validator number_check(std::string allowed, std::function<bool(double)> fits) {
  return CLI::Validator(
      [allowed, fits](std::string& text) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (text.empty() || end != text.c_str() + text.size()) return "'" + text + "' is not a number";
        if (!fits(value)) return text + " is not allowed: it must be " + allowed;
        return {};
      },
      allowed);
}

}  // namespace

CLI::Validator number_between(double low, double high) {
  return number_check("from " + number_text(low) + " to " + number_text(high),
                      [low, high](double v) { return v >= low && v <= high; });
}

CLI::Validator number_at_least(double low) {
  return number_check(number_text(low) + " or more", [low](double v) { return v >= low; });
}

CLI::Validator number_above(double low) {
  return number_check("more than " + number_text(low), [low](double v) { return v > low; });
}

}  // namespace warpsim::cli
