// Stand-in for CUDA's <cuda_awbarrier.h>: not simulated; including it stops the compile with the reason.
#pragma once
#error "<cuda_awbarrier.h> is not simulated by warpsim: arrive-wait barriers (nvcuda::experimental::awbarrier) are not simulated"
