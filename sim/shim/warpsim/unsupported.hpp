// What the simulator cannot do fails to compile, with a message that says so: never a silently
// wrong answer.
//   WARPSIM_NOT_SIMULATED(bool, __isLocal, "warpsim cannot tell local from global memory")
// declares __isLocal as a function template that accepts any arguments; a call fails to compile
// with "__isLocal is not simulated: warpsim cannot tell local from global memory".
#pragma once

#include <type_traits>

namespace warpsim::shim {
// False, but only once a template is instantiated (see WARPSIM_NOT_SIMULATED).
template <class... Args>
inline constexpr bool not_simulated = false;

// T{} (nothing for void): what a function that does not compile would have returned.
template <class T>
T default_value() {
  if constexpr (!std::is_void_v<T>) return T{};
}
}  // namespace warpsim::shim

#define WARPSIM_NOT_SIMULATED(RESULT, NAME, WHY)                                             \
  template <class... Args>                                                                   \
  RESULT NAME(Args...) {                                                                     \
    static_assert(::warpsim::shim::not_simulated<Args...>, #NAME " is not simulated: " WHY); \
    return ::warpsim::shim::default_value<RESULT>();                                    \
  }
