// Rounding an exact value to a binary floating-point format in one of IEEE 754's four modes: the
// one routine behind every conversion the CUDA headers name with a rounding suffix (_rn, _rz, _rd,
// _ru): float/double to half and bfloat16, integers to half, bfloat16, float and double, double
// to float. Also directed-rounding float and double arithmetic (__fadd_rz, __dmul_ru, ...),
// evaluated by the host's IEEE unit in that rounding mode.
//
// Everything here is exact: a value becomes (sign, integer significand, power of two, sticky), and
// rounding looks at the bits below the format's last place, as IEEE 754 defines it.
//   round_to(kBinary16, false, 0x801, -11, false, Round::nearest_even) == 0x3c00  // 1 + 2^-11: a
//                                                      tie between 1.0 and 1 + 2^-10, to even 1.0
//   round_to(kBinary16, false, 70000, 0, false, Round::toward_zero) == 0x7bff  // 65504, max finite
#pragma once

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace warpsim::shim::fp {

enum class Round { nearest_even, toward_zero, down, up };

// A binary interchange format: exponent field width and stored fraction width.
struct Format {
  int exponent_bits;
  int fraction_bits;
};
inline constexpr Format kBinary16{5, 10};   // __half
inline constexpr Format kBfloat16{8, 7};    // __nv_bfloat16
inline constexpr Format kBinary32{8, 23};   // float
inline constexpr Format kBinary64{11, 52};  // double

template <class To, class From>
inline To bit_cast(From from) {
  static_assert(sizeof(To) == sizeof(From));
  To to;
  std::memcpy(&to, &from, sizeof to);
  return to;
}

// The largest finite value or infinity of `format` with the given sign, as the format's bits.
inline std::uint64_t overflow_bits(Format format, bool negative, Round mode) {
  const std::uint64_t sign =
      negative ? std::uint64_t{1} << (format.exponent_bits + format.fraction_bits) : 0;
  const std::uint64_t inf = ((std::uint64_t{1} << format.exponent_bits) - 1)
                            << format.fraction_bits;
  const bool to_infinity = mode == Round::nearest_even || (mode == Round::up && !negative) ||
                           (mode == Round::down && negative);
  return sign | (to_infinity ? inf : inf - 1);
}

// The bits of `format` nearest (in `mode`) to (-1)^negative * significand * 2^exponent, where
// `sticky` says that nonzero bits follow below the significand's lowest bit (the value is then a
// little larger in magnitude than significand * 2^exponent).
inline std::uint64_t round_to(Format format, bool negative, std::uint64_t significand, int exponent,
                              bool sticky, Round mode) {
  const int sign_shift = format.exponent_bits + format.fraction_bits;
  const std::uint64_t sign = negative ? std::uint64_t{1} << sign_shift : 0;
  if (significand == 0 && !sticky) return sign;
  if (significand == 0) {  // only sticky bits: below any place; make them one bit far below
    significand = 1;
    exponent -= 200;
    sticky = false;
  }
  const int bias = (1 << (format.exponent_bits - 1)) - 1;
  const int emin = 1 - bias;
  const int top = 63 - __builtin_clzll(significand) + exponent;  // exponent of the leading bit
  // The weight of the result's last place: normal numbers keep fraction_bits below the leading
  // bit; subnormals stop at emin - fraction_bits.
  const int quantum = (top < emin ? emin : top) - format.fraction_bits;
  const int shift = quantum - exponent;  // low bits of `significand` that drop out
  std::uint64_t kept = 0;
  bool half = false;
  bool rest = sticky;
  if (shift <= 0) {
    kept = significand << -shift;  // at most fraction_bits + 1 bits: no overflow
  } else if (shift > 64) {
    rest = true;
  } else {
    kept = shift == 64 ? 0 : significand >> shift;
    half = (significand >> (shift - 1)) & 1u;
    const std::uint64_t below =
        shift == 1 ? 0 : significand & ((std::uint64_t{1} << (shift - 1)) - 1);
    rest = rest || below != 0;
  }
  bool up = false;
  switch (mode) {
    case Round::nearest_even:
      up = half && (rest || (kept & 1u) != 0);
      break;
    case Round::toward_zero:
      break;
    case Round::down:
      up = negative && (half || rest);
      break;
    case Round::up:
      up = !negative && (half || rest);
      break;
  }
  kept += up ? 1 : 0;
  int last_place = quantum;
  if (kept >> (format.fraction_bits + 1) != 0) {  // rounding carried into a new leading bit
    kept >>= 1;
    ++last_place;
  }
  if (kept >> format.fraction_bits == 0) return sign | kept;  // subnormal (or zero)
  const int biased = last_place + format.fraction_bits + bias;
  if (biased >= (1 << format.exponent_bits) - 1) return overflow_bits(format, negative, mode);
  const std::uint64_t fraction = kept & ((std::uint64_t{1} << format.fraction_bits) - 1);
  return sign | (static_cast<std::uint64_t>(biased) << format.fraction_bits) | fraction;
}

// A finite float or double as sign, integer significand and exponent (value = sig * 2^exp).
struct Exact {
  bool negative = false;
  std::uint64_t significand = 0;
  int exponent = 0;
  bool sticky = false;
};

inline Exact exact(double d) {
  const auto bits = bit_cast<std::uint64_t>(d);
  const int field = static_cast<int>((bits >> 52) & 0x7ff);
  const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);
  Exact e;
  e.negative = (bits >> 63) != 0;
  e.significand = field == 0 ? fraction : fraction | (std::uint64_t{1} << 52);
  e.exponent = (field == 0 ? 1 : field) - 1023 - 52;
  return e;
}

// x + error exactly, where error is at most half an ulp of x (TwoSum's or an FMA's remainder).
inline Exact exact(double x, double error) {
  Exact e = exact(x);
  if (error == 0 || e.significand == 0) {
    if (e.significand == 0 && error != 0) return exact(error);
    return e;
  }
  if (std::signbit(error) == e.negative) {  // a little larger in magnitude than x
    e.sticky = true;
  } else {  // a little smaller: between x - ulp/2 and x, i.e. (2 sig - 1) half-ulps and some
    e.significand = 2 * e.significand - 1;
    e.exponent -= 1;
    e.sticky = true;
  }
  return e;
}

inline std::uint64_t round_to(Format format, const Exact& e, Round mode) {
  return round_to(format, e.negative, e.significand, e.exponent, e.sticky, mode);
}

// Integers, exactly.
inline Exact exact_integer(long long v) {
  Exact e;
  e.negative = v < 0;
  e.significand = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
  return e;
}
inline Exact exact_integer(unsigned long long v) {
  Exact e;
  e.significand = v;
  return e;
}

inline float to_float(const Exact& e, Round mode) {
  return bit_cast<float>(static_cast<std::uint32_t>(round_to(kBinary32, e, mode)));
}
inline double to_double(const Exact& e, Round mode) {
  return bit_cast<double>(round_to(kBinary64, e, mode));
}

// `x` (finite or not) rounded to an integer in `mode`, as a double (exact: |x| < 2^53 holds every
// integer value a 16- or 32-bit float can round to within the integer types' ranges).
inline double round_integral(double x, Round mode) {
  switch (mode) {
    case Round::nearest_even: {
      const double floor = std::floor(x);
      const double diff = x - floor;
      if (diff > 0.5) return floor + 1;
      if (diff < 0.5) return floor;
      return std::fmod(floor, 2.0) == 0 ? floor : floor + 1;
    }
    case Round::toward_zero:
      return std::trunc(x);
    case Round::down:
      return std::floor(x);
    case Round::up:
      return std::ceil(x);
  }
  return x;
}

// `x` rounded in `mode` to the integer type Int, saturating at Int's range; NaN becomes `nan`.
// to_integer<int>(2.5, Round::nearest_even, 0) == 2; to_integer<unsigned char>(-3.7, .., 0) == 0.
template <class Int>
inline Int to_integer(double x, Round mode, Int nan) {
  if (std::isnan(x)) return nan;
  const double r = round_integral(x, mode);
  constexpr double lowest = static_cast<double>(std::numeric_limits<Int>::min());
  // 2^bits for the upper bound of 64-bit types: their maximum is not a double.
  constexpr double above =
      std::is_signed_v<Int>
          ? -lowest
          : 2.0 * (static_cast<double>(std::numeric_limits<Int>::max() / 2) + 1.0);
  if (r < lowest) return std::numeric_limits<Int>::min();
  if (r >= above) return std::numeric_limits<Int>::max();
  return static_cast<Int>(r);
}

// op() evaluated with the host's floating-point unit in `mode` (fesetround, which sets SSE and
// x87 alike), so float and double +, -, *, /, sqrt and fma give IEEE 754's directed results. The
// operands are read and the result is written through volatiles, so the compiler neither folds
// the operation at compile time nor moves it out from between the mode changes.
//
// NaN results are the GPU's: for float always the canonical NaN 0x7fffffff; for double the first
// NaN operand in the order a, c, b (made quiet), else the invalid-operation NaN (which the host's
// is too).
template <class T, class Op>
inline T in_mode(Round mode, T a, T b, T c, Op op) {
  T result;
  if (mode == Round::nearest_even) {
    result = op(a, b, c);
  } else {
    const int saved = std::fegetround();
    std::fesetround(mode == Round::toward_zero ? FE_TOWARDZERO
                    : mode == Round::down      ? FE_DOWNWARD
                                               : FE_UPWARD);
    volatile T va = a, vb = b, vc = c;
    volatile T r = op(va, vb, vc);
    result = r;
    std::fesetround(saved);
  }
  if (!std::isnan(result)) return result;
  if constexpr (sizeof(T) == 4) {
    return bit_cast<T>(std::uint32_t{0x7fffffffu});
  } else {
    for (const T operand : {a, c, b}) {
      if (std::isnan(operand)) {
        return bit_cast<T>(bit_cast<std::uint64_t>(operand) | (std::uint64_t{1} << 51));
      }
    }
    return result;
  }
}

}  // namespace warpsim::shim::fp
