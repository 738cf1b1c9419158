// Stand-in for CUDA's <mma.h>: not simulated; including it stops the compile with the reason.
#pragma once
#define __CUDA_MMA_H__  // the toolkit header's include guard
#error "<mma.h> is not simulated by warpsim: warp matrix multiply-accumulate (nvcuda::wmma) needs the GPU's tensor cores"
