// Stand-in for CUDA's <cuda_awbarrier.h>: not simulated; including it stops the compile with the reason.
#pragma once
#define _CUDA_AWBARRIER_H_  // the toolkit header's include guard
#error "<cuda_awbarrier.h> is not simulated by warpsim: arrive-wait barriers (nvcuda::experimental::awbarrier) are not simulated"
