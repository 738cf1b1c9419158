// Stopping a launch from kernel code with a message: what the simulator cannot answer (an
// address space it cannot tell, PTX it does not run) ends the launch with the reason, which
// block_runner reports from what(). <exception> and <cstdio> only, so that every kernel file does
// not read <string>.
#pragma once

#include <cstdarg>
#include <cstdio>
#include <exception>

namespace warpsim::shim {

struct Stop : std::exception {
  char message[320];
  const char* what() const noexcept override { return message; }
};

[[noreturn]] __attribute__((format(printf, 1, 2))) inline void stop_launch(const char* format,
                                                                            ...) {
  Stop stop;
  va_list args;
  va_start(args, format);
  std::vsnprintf(stop.message, sizeof stop.message, format, args);
  va_end(args);
  throw stop;
}

}  // namespace warpsim::shim
