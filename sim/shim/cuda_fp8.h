// <cuda_fp8.h>: the toolkit's own, read as host code. Its fp8 types (__nv_fp8_e4m3,
// __nv_fp8_e5m2, __nv_fp8x2_..., __nv_fp8x4_...) and conversions are __host__ __device__, and
// without nvcc's macros it takes its software conversions, which give the values the hardware's
// cvt instructions give (the PTX path is the toolkit's own choice for sm_89 and later).
#pragma once
#include "warpsim/cuda_shim.hpp"
// The shim's 16-bit types first: the toolkit's cuda_fp8.h includes "cuda_fp16.h" and
// "cuda_bf16.h" from its own folder, which their include guards then skip.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#if !__has_include_next(<cuda_fp8.h>)
#error "<cuda_fp8.h>: warpsim takes the fp8 types from a CUDA toolkit's include folder, and none was found (install the toolkit, or set CUDA_HOME)"
#endif
#include "warpsim/libcudacxx_begin.hpp"
#include_next <cuda_fp8.h>
#include "warpsim/libcudacxx_end.hpp"
