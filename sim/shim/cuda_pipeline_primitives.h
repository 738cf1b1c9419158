// Stand-in for CUDA's <cuda_pipeline_primitives.h>: asynchronous copies into shared memory, made
// by the issuing lane at once (warpsim/async_copy.hpp).
#pragma once
#define _CUDA_PIPELINE_PRIMITIVES_H_  // the toolkit header's include guard
#include "warpsim/cuda_shim.hpp"
#include "warpsim/async_copy.hpp"
