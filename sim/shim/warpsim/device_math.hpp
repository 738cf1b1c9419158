// CUDA's device math functions that the C/C++ host library lacks (rsqrtf, exp10f, sinpif, ...), and
// CUDA's global min and max overloads. The intrinsics are in float_intrinsics.hpp,
// integer_intrinsics.hpp and simd_intrinsics.hpp.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

inline float exp10f(float x) { return std::pow(10.0f, x); }
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / std::cbrt(x); }
inline float exp2f_fast(float x) { return std::exp2(x); }
inline float normcdff(float x) { return 0.5f * std::erfc(-x / std::sqrt(2.0f)); }
inline float sinpif(float x) { return std::sin(x * 3.14159265358979323846f); }
inline float cospif(float x) { return std::cos(x * 3.14159265358979323846f); }
// The double forms and the rest of the math API's functions that libm lacks.
inline double rcbrt(double x) { return 1.0 / std::cbrt(x); }
inline double normcdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }
inline double sinpi(double x) { return std::sin(x * 3.14159265358979323846); }
inline double cospi(double x) { return std::cos(x * 3.14159265358979323846); }
inline void sincospif(float x, float* s, float* c) { *s = sinpif(x), *c = cospif(x); }
inline void sincospi(double x, double* s, double* c) { *s = sinpi(x), *c = cospi(x); }
inline float rhypotf(float x, float y) { return 1.0f / std::hypot(x, y); }
inline double rhypot(double x, double y) { return 1.0 / std::hypot(x, y); }
inline float norm3df(float a, float b, float c) { return std::hypot(a, b, c); }
inline double norm3d(double a, double b, double c) { return std::hypot(a, b, c); }
inline float rnorm3df(float a, float b, float c) { return 1.0f / std::hypot(a, b, c); }
inline double rnorm3d(double a, double b, double c) { return 1.0 / std::hypot(a, b, c); }
inline float norm4df(float a, float b, float c, float d) {
  return static_cast<float>(std::sqrt(double(a) * a + double(b) * b + double(c) * c + double(d) * d));
}
inline double norm4d(double a, double b, double c, double d) {
  return std::hypot(std::hypot(a, b), std::hypot(c, d));
}
inline float rnorm4df(float a, float b, float c, float d) { return 1.0f / norm4df(a, b, c, d); }
inline double rnorm4d(double a, double b, double c, double d) { return 1.0 / norm4d(a, b, c, d); }

// CUDA's global min/max overloads (the host has only std::min/std::max templates).
inline int min(int a, int b) { return a < b ? a : b; }
inline unsigned int min(unsigned int a, unsigned int b) { return a < b ? a : b; }
inline unsigned int min(int a, unsigned int b) { return min(static_cast<unsigned int>(a), b); }
inline unsigned int min(unsigned int a, int b) { return min(a, static_cast<unsigned int>(b)); }
inline long min(long a, long b) { return a < b ? a : b; }
inline unsigned long min(unsigned long a, unsigned long b) { return a < b ? a : b; }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline float min(float a, float b) { return std::fmin(a, b); }
inline double min(double a, double b) { return std::fmin(a, b); }
inline double min(float a, double b) { return std::fmin(static_cast<double>(a), b); }
inline double min(double a, float b) { return std::fmin(a, static_cast<double>(b)); }
inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned int max(unsigned int a, unsigned int b) { return a > b ? a : b; }
inline unsigned int max(int a, unsigned int b) { return max(static_cast<unsigned int>(a), b); }
inline unsigned int max(unsigned int a, int b) { return max(a, static_cast<unsigned int>(b)); }
inline long max(long a, long b) { return a > b ? a : b; }
inline unsigned long max(unsigned long a, unsigned long b) { return a > b ? a : b; }
inline long long max(long long a, long long b) { return a > b ? a : b; }
inline unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
inline float max(float a, float b) { return std::fmax(a, b); }
inline double max(double a, double b) { return std::fmax(a, b); }
inline double max(float a, double b) { return std::fmax(static_cast<double>(a), b); }
inline double max(double a, float b) { return std::fmax(a, static_cast<double>(b)); }
// The named forms of the math API (umin for unsigned, llmin for long long, ...).
inline unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
inline unsigned int umax(unsigned int a, unsigned int b) { return a > b ? a : b; }
inline long long int llmin(long long int a, long long int b) { return a < b ? a : b; }
inline long long int llmax(long long int a, long long int b) { return a > b ? a : b; }
inline unsigned long long int ullmin(unsigned long long int a, unsigned long long int b) {
  return a < b ? a : b;
}
inline unsigned long long int ullmax(unsigned long long int a, unsigned long long int b) {
  return a > b ? a : b;
}
