// CUDA's built-in vector types (uint3, dim3, float4, ...) and their make_* functions, for host
// compilation of kernel files. Global namespace, as in CUDA.
#pragma once

#define WARPSIM_VECTOR_TYPES(T, NAME)                                                    \
  struct NAME##1 {                                                                       \
    T x;                                                                                 \
  };                                                                                     \
  struct NAME##2 {                                                                       \
    T x, y;                                                                              \
  };                                                                                     \
  struct NAME##3 {                                                                       \
    T x, y, z;                                                                           \
  };                                                                                     \
  struct NAME##4 {                                                                       \
    T x, y, z, w;                                                                        \
  };                                                                                     \
  inline constexpr NAME##1 make_##NAME##1(T x) { return {x}; }                           \
  inline constexpr NAME##2 make_##NAME##2(T x, T y) { return {x, y}; }                   \
  inline constexpr NAME##3 make_##NAME##3(T x, T y, T z) { return {x, y, z}; }           \
  inline constexpr NAME##4 make_##NAME##4(T x, T y, T z, T w) { return {x, y, z, w}; }

WARPSIM_VECTOR_TYPES(signed char, char)
WARPSIM_VECTOR_TYPES(unsigned char, uchar)
WARPSIM_VECTOR_TYPES(short, short)
WARPSIM_VECTOR_TYPES(unsigned short, ushort)
WARPSIM_VECTOR_TYPES(int, int)
WARPSIM_VECTOR_TYPES(unsigned int, uint)
WARPSIM_VECTOR_TYPES(long, long)
WARPSIM_VECTOR_TYPES(unsigned long, ulong)
WARPSIM_VECTOR_TYPES(long long, longlong)
WARPSIM_VECTOR_TYPES(unsigned long long, ulonglong)
WARPSIM_VECTOR_TYPES(float, float)
WARPSIM_VECTOR_TYPES(double, double)

#undef WARPSIM_VECTOR_TYPES

// CUDA 13's 4-vectors of 64-bit elements with their alignment in the name (long4_16a, ...),
// which libcu++ 3.0 names in its tuple interface.
#define WARPSIM_ALIGNED_VECTOR4(T, NAME, ALIGN)                                                 \
  struct alignas(ALIGN) NAME##4_##ALIGN##a {                                                    \
    T x, y, z, w;                                                                               \
  };                                                                                            \
  inline constexpr NAME##4_##ALIGN##a make_##NAME##4_##ALIGN##a(T x, T y, T z, T w) {          \
    return {x, y, z, w};                                                                        \
  }
WARPSIM_ALIGNED_VECTOR4(long, long, 16)
WARPSIM_ALIGNED_VECTOR4(long, long, 32)
WARPSIM_ALIGNED_VECTOR4(unsigned long, ulong, 16)
WARPSIM_ALIGNED_VECTOR4(unsigned long, ulong, 32)
WARPSIM_ALIGNED_VECTOR4(long long, longlong, 16)
WARPSIM_ALIGNED_VECTOR4(long long, longlong, 32)
WARPSIM_ALIGNED_VECTOR4(unsigned long long, ulonglong, 16)
WARPSIM_ALIGNED_VECTOR4(unsigned long long, ulonglong, 32)
WARPSIM_ALIGNED_VECTOR4(double, double, 16)
WARPSIM_ALIGNED_VECTOR4(double, double, 32)
#undef WARPSIM_ALIGNED_VECTOR4

struct dim3 {
  unsigned int x = 1, y = 1, z = 1;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return {x, y, z}; }
};
