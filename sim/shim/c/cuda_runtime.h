/* Stand-in for CUDA's <cuda_runtime.h> in a program's C files: its C part is the runtime API. */
#ifndef WARPSIM_C_CUDA_RUNTIME_H
#define WARPSIM_C_CUDA_RUNTIME_H
#include "cuda_runtime_api.h"
#endif /* WARPSIM_C_CUDA_RUNTIME_H */
