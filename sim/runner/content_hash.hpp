// A 128-bit content hash (FNV-1a) for cache keys: fast, stable across runs and machines, and wide
// enough that unrelated inputs do not collide in a per-user cache. Not for security.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace warpsim::runner {

class ContentHash {
 public:
  ContentHash();
  // Adds `bytes`, then its length, so that ("ab","c") and ("a","bc") differ.
  ContentHash& add(std::string_view bytes);
  std::string hex() const;  // 32 lowercase hex digits

 private:
  void mix(unsigned char byte);
  std::uint64_t high_;
  std::uint64_t low_;
};

}  // namespace warpsim::runner
