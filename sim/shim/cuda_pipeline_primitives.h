// Stand-in for CUDA's <cuda_pipeline_primitives.h>: not simulated; including it stops the compile with the reason.
#pragma once
#define _CUDA_PIPELINE_PRIMITIVES_H_  // the toolkit header's include guard
#error "<cuda_pipeline_primitives.h> is not simulated by warpsim: asynchronous copies into shared memory (__pipeline_memcpy_async) are not simulated"
