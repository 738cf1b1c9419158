// Declarations of the kernels in kernels.cuh (defined once, in kernels.cpp).
#pragma once

void dt_butterfly(const float* in, float* out);
void dt_ballot_barrier(const int* in, int* out);
void dt_tail_shfl_down(const int* in, int* out, int n);
void dt_match_all(const long long* in, unsigned* out, int* pred);
