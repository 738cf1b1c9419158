// Stand-in for CUDA's <cuda_pipeline_primitives.h>: not simulated; including it stops the compile with the reason.
#pragma once
#error "<cuda_pipeline_primitives.h> is not simulated by warpsim: asynchronous copies into shared memory (__pipeline_memcpy_async) are not simulated"
