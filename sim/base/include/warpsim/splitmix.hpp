// splitmix64 (Steele, Lea, Flood 2014): a value from a counter or an address, each on its own,
// so that whatever uses it (random inputs, a seed's cases, the undefined pattern) fills in any
// order.
#pragma once

#include <cstdint>

namespace warpsim {

// The generator's output function: mixes all 64 bits of `z`.
constexpr std::uint64_t splitmix64_finalize(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// The generator's step from state `x`: its output for the state after x.
constexpr std::uint64_t splitmix64(std::uint64_t x) {
  return splitmix64_finalize(x + 0x9e3779b97f4a7c15ull);
}

}  // namespace warpsim
