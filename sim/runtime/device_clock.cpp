// The device's clocks. clock64() and clock() in kernel code read one counter per OS thread that
// counts up by 4 a read (device_abi.hpp, clock_ticks): a kernel that waits for a number of cycles
// (cuda-samples' clock_block: `while (clock() - start < count)`) waits for count / 4 reads.
//
// Kernel code and host code share one name, `clock()`, and one translation unit, so the device's
// clock() cannot be an overload: the C library's clock() is replaced here for the whole process
// (libwarpsim comes before the C library in every program that links it). Called from a running
// lane it reads the device counter, as the 32-bit %clock register (a signed int widened to
// clock_t, as CUDA's clock() returns it); anywhere else it is the C library's: the process's CPU
// time in microseconds (CLOCKS_PER_SEC), or (clock_t)-1 when that cannot be read.
#include <cstdint>
#include <ctime>

#include "warpsim/device_abi.hpp"

namespace warpsim::device {

__thread std::int64_t clock_ticks __attribute__((tls_model("initial-exec"))) = 0;

}  // namespace warpsim::device

extern "C" __attribute__((visibility("default"))) std::clock_t clock() noexcept {
  using namespace warpsim::device;
  if (current_env != nullptr) {
    clock_ticks += kClockTicksPerRead;
    return static_cast<std::clock_t>(
        static_cast<std::int32_t>(static_cast<std::uint32_t>(clock_ticks)));
  }
  timespec now{};
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now) != 0) return static_cast<std::clock_t>(-1);
  return static_cast<std::clock_t>(now.tv_sec) * CLOCKS_PER_SEC +
         static_cast<std::clock_t>(now.tv_nsec / (1000000000 / CLOCKS_PER_SEC));
}
