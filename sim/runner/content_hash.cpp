#include "content_hash.hpp"

#include <cstdio>

namespace warpsim::runner {
namespace {

__extension__ typedef unsigned __int128 Uint128;

// FNV-1a 128: offset basis 0x6c62272e07bb014262b821756295c58d, prime 2^88 + 0x13b.
constexpr std::uint64_t kBasisHigh = 0x6c62272e07bb0142ull;
constexpr std::uint64_t kBasisLow = 0x62b821756295c58dull;
constexpr Uint128 kPrime = (Uint128{1} << 88) + 0x13b;

}  // namespace

ContentHash::ContentHash() : high_(kBasisHigh), low_(kBasisLow) {}

void ContentHash::mix(unsigned char byte) {
  Uint128 state = (Uint128{high_} << 64) | low_;
  state ^= byte;
  state *= kPrime;
  high_ = static_cast<std::uint64_t>(state >> 64);
  low_ = static_cast<std::uint64_t>(state);
}

ContentHash& ContentHash::add(std::string_view bytes) {
  for (const char c : bytes) mix(static_cast<unsigned char>(c));
  std::uint64_t length = bytes.size();
  for (int i = 0; i < 8; ++i, length >>= 8) mix(static_cast<unsigned char>(length & 0xff));
  return *this;
}

std::string ContentHash::hex() const {
  char text[33];
  std::snprintf(text, sizeof text, "%016llx%016llx", static_cast<unsigned long long>(high_),
                static_cast<unsigned long long>(low_));
  return text;
}

}  // namespace warpsim::runner
