// Stand-in for CUDA's <curand.h>: not simulated; including it stops the compile with the reason.
#pragma once
#error "<curand.h> is not simulated by warpsim: it is cuRAND's host API; kernel files use <curand_kernel.h>, which is simulated"
