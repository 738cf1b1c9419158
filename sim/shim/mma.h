// Stand-in for CUDA's <mma.h> (nvcuda::wmma): the types and functions compile, so a file that
// includes it (or a library header that does) builds; tensor-core matrix operations are not
// simulated, so a lane that reaches one stops the launch, naming the function and its line.
#pragma once
#define __CUDA_MMA_H__  // the toolkit header's include guard
#include "warpsim/cuda_shim.hpp"
#include "warpsim/wmma.hpp"
