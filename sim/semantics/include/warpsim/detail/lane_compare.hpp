// Questions about all 32 lanes of a per-lane array, answered as a lane mask with vector compares
// (SSE2, which every x86-64 has): 8 compares for 32-bit entries instead of 32 scalar ones. These
// run once per simulated step, on the per-step path of every traced warp-level call.
#pragma once

#include <emmintrin.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "warpsim/semantics.hpp"

namespace warpsim::lanes {

// Every function reads 32 entries, one per lane, from `entries`.

// Lanes whose entry is bitwise equal to `value`. T: 1, 4 or 8 bytes, trivially copyable
// (enums, masks, ints, SourceLine).
template <class T>
LaneMask equal_to(const T* entries, const T& value) {
  static_assert(std::is_trivially_copyable_v<T>);
  const auto* bytes = reinterpret_cast<const unsigned char*>(entries);
  LaneMask same = 0;
  if constexpr (sizeof(T) == 1) {
    std::uint8_t v;
    std::memcpy(&v, &value, 1);
    const __m128i key = _mm_set1_epi8(static_cast<char>(v));
    for (int k = 0; k < 2; ++k) {
      const __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + 16 * k));
      same |= static_cast<LaneMask>(_mm_movemask_epi8(_mm_cmpeq_epi8(e, key))) << (16 * k);
    }
  } else if constexpr (sizeof(T) == 4) {
    std::int32_t v;
    std::memcpy(&v, &value, 4);
    const __m128i key = _mm_set1_epi32(v);
    for (int k = 0; k < 8; ++k) {
      const __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + 16 * k));
      const __m128 eq = _mm_castsi128_ps(_mm_cmpeq_epi32(e, key));
      same |= static_cast<LaneMask>(_mm_movemask_ps(eq)) << (4 * k);
    }
  } else {
    static_assert(sizeof(T) == 8);
    std::int64_t v;
    std::memcpy(&v, &value, 8);
    const __m128i key = _mm_set1_epi64x(v);
    for (int k = 0; k < 16; ++k) {
      const __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + 16 * k));
      const __m128i eq32 = _mm_cmpeq_epi32(e, key);
      // Both halves equal: AND each 32-bit result with its neighbour in the same 64-bit lane.
      const __m128i eq64 = _mm_and_si128(eq32, _mm_shuffle_epi32(eq32, _MM_SHUFFLE(2, 3, 0, 1)));
      same |= static_cast<LaneMask>(_mm_movemask_pd(_mm_castsi128_pd(eq64))) << (2 * k);
    }
  }
  return same;
}

// Lanes i whose mask names lane i itself.
inline LaneMask naming_themselves(const LaneMask* masks) {
  LaneMask named = 0;
  __m128i own = _mm_set_epi32(8, 4, 2, 1);  // lane bits of lanes 4k .. 4k+3
  const __m128i zero = _mm_setzero_si128();
  for (int k = 0; k < 8; ++k) {
    const __m128i m = _mm_loadu_si128(reinterpret_cast<const __m128i*>(masks + 4 * k));
    const __m128i absent = _mm_cmpeq_epi32(_mm_and_si128(m, own), zero);
    named |= static_cast<LaneMask>(~_mm_movemask_ps(_mm_castsi128_ps(absent)) & 0xf) << (4 * k);
    own = _mm_slli_epi32(own, 4);
  }
  return named;
}

// Whether every lane of `lanes` holds the same entry as the lowest of them (true when empty).
template <class T>
bool same_in(const T* entries, LaneMask lanes) {
  if (lanes == 0) return true;
  const T& first = entries[__builtin_ctz(lanes)];
  return (lanes & ~equal_to(entries, first)) == 0;
}

}  // namespace warpsim::lanes
