// Stand-in for CUDA's <cuda_pipeline.h>: the pipeline primitives and nvcuda::experimental's
// pipeline, with copies made by the issuing lane at once (warpsim/async_copy.hpp).
#pragma once
#define _CUDA_PIPELINE_H_  // the toolkit header's include guard
#include "cuda_pipeline_primitives.h"
