// Device printf: each lane's output is captured in the trace (per block and thread).
#pragma once

#include <cstdarg>
#include <cstdio>

#include "warpsim/device_abi.hpp"

inline int warpsim_device_printf(const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int written = ::warpsim::device::vprintf(format, args);
  va_end(args);
  return written;
}
namespace std {
using ::warpsim_device_printf;
}
#define printf warpsim_device_printf
