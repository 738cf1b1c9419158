// Expected<void> in assertions: the error's message, or "" when there is none.
#pragma once

#include <string>

#include "warpsim/expected.hpp"

namespace warpsim::test {

inline std::string problem(const Expected<void>& outcome) {
  return outcome ? std::string() : outcome.error().message;
}

}  // namespace warpsim::test
