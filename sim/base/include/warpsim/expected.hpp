// The one error value for external failures: files, arguments, compilers, the CUDA driver.
// Our own bugs assert, kernel misuse becomes a diagnostic in the trace, and everything that the
// outside world can get wrong comes back as an Expected<T> that holds either the value or an
// Error whose `message` is one plain line (std::expected arrives only with C++23).
//
//   Expected<Dim3> grid = parse_dim3(text);
//   if (!grid) return report(grid.error());   // "extent 0 is not allowed"
//   use(*grid);
#pragma once

#include <cassert>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace warpsim {

enum class ErrorKind : std::uint8_t {
  bad_input,  // the caller's arguments or a malformed file
  file,       // reading or writing a file failed
  compile,    // a compiler rejected the source; `details` holds its output
  no_device,  // no CUDA device, or a warpsim built without GPU support
  driver,     // a CUDA driver call failed
  internal,   // a child process or the device did something warpsim cannot explain
};

inline std::string_view to_string(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::bad_input:
      return "bad_input";
    case ErrorKind::file:
      return "file";
    case ErrorKind::compile:
      return "compile";
    case ErrorKind::no_device:
      return "no_device";
    case ErrorKind::driver:
      return "driver";
    case ErrorKind::internal:
      return "internal";
  }
  return "internal";
}

struct Error {
  ErrorKind kind = ErrorKind::bad_input;
  std::string message;  // one line, no trailing newline
  std::string details;  // further lines (a compiler's log); empty when none
};

// message, then details on the following lines when there are any (no trailing newline).
inline std::string to_string(const Error& error) {
  if (error.details.empty()) return error.message;
  std::string text = error.message + "\n" + error.details;
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

// Shorthands: `return fail("unknown kernel 'k'");`, `return fail(ErrorKind::file, "...")`.
inline Error fail(std::string message) { return Error{ErrorKind::bad_input, std::move(message), {}}; }
inline Error fail(ErrorKind kind, std::string message, std::string details = {}) {
  return Error{kind, std::move(message), std::move(details)};
}

template <class T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : state_(std::in_place_index<0>, std::move(value)) {}
  Expected(Error error) : state_(std::in_place_index<1>, std::move(error)) {}

  bool has_value() const { return state_.index() == 0; }
  explicit operator bool() const { return has_value(); }

  T& value() & { assert(has_value()); return std::get<0>(state_); }
  const T& value() const& { assert(has_value()); return std::get<0>(state_); }
  T&& value() && { assert(has_value()); return std::get<0>(std::move(state_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  template <class U>
  T value_or(U&& fallback) const& {
    return has_value() ? value() : static_cast<T>(std::forward<U>(fallback));
  }

  const Error& error() const { assert(!has_value()); return std::get<1>(state_); }

 private:
  std::variant<T, Error> state_;
};

template <>
class [[nodiscard]] Expected<void> {
 public:
  Expected() = default;
  Expected(Error error) : error_(std::move(error)) {}

  bool has_value() const { return !error_.has_value(); }
  explicit operator bool() const { return has_value(); }
  const Error& error() const { assert(error_.has_value()); return *error_; }

 private:
  std::optional<Error> error_;
};

}  // namespace warpsim
