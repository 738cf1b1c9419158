// Declarations of the kernels in run_on_gpu_kernels.cuh, as the simulator runs them.
#pragma once

void gk_butterfly(const float* in, float* out);
void gk_ballot_barrier(const int* in, int* out);
namespace tiles {
template <int Size>
void reduce(const int* in, int* out, float* fout);
extern template void reduce<16>(const int*, int*, float*);
extern template void reduce<8>(const int*, int*, float*);
}  // namespace tiles
void gk_halves(const float* in, float* out);
void gk_match_reduce(const int* keys, const long long* wide, unsigned* out);
void gk_wide(const double* d, const long long* w, double* dout, long long* wout);
