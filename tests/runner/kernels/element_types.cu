// One kernel per --arg element type: each reads an input buffer and a scalar of its type and
// writes known values (tests/runner/element_types_test.cpp computes them too).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

__global__ void u8_kernel(const unsigned char* in, unsigned char* out, unsigned char add) {
  out[threadIdx.x] = static_cast<unsigned char>(in[threadIdx.x] * 2 + add);  // wraps past 255
}

__global__ void i8_kernel(const signed char* in, signed char* out, signed char base) {
  out[threadIdx.x] = static_cast<signed char>(base - in[threadIdx.x]);
}

__global__ void char_kernel(const char* in, char* out, char shift) {
  out[threadIdx.x] = static_cast<char>(in[threadIdx.x] + shift);
}

__global__ void u16_kernel(const unsigned short* in, unsigned short* out, unsigned short add) {
  out[threadIdx.x] = static_cast<unsigned short>(in[threadIdx.x] * 1000 + add);
}

__global__ void i16_kernel(const short* in, short* out, short add) {
  out[threadIdx.x] = static_cast<short>(-in[threadIdx.x] * 1000 + add);
}

__global__ void f16_kernel(const __half* in, __half* out, __half scale) {
  out[threadIdx.x] = __hmul(in[threadIdx.x], scale);
}

__global__ void bf16_kernel(const __nv_bfloat16* in, __nv_bfloat16* out, __nv_bfloat16 add) {
  out[threadIdx.x] = __hadd(in[threadIdx.x], add);
}

__global__ void b8_kernel(const bool* in, bool* out, bool flip) {
  out[threadIdx.x] = in[threadIdx.x] != flip;
}
