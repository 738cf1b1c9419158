// The warp votes without a mask are not valid on compute_70 and above: must not compile.
__global__ void old_ballot(unsigned* out) { out[threadIdx.x] = __ballot(1); }
