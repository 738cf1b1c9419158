// Address-space predicates and conversions: local memory is the lane's stack, constant memory
// the file's __constant__ variables, shared memory the block's, global memory everything else.
__constant__ int kTable[4] = {10, 20, 30, 40};
__device__ int device_variable[32];

// out[16 * t + j] for lane t, asking about (in + t, a local, a __shared__ element, a
// __constant__ element, a __device__ variable):
//   0..4:   __isGlobal    1 0 0 0 1
//   5..9:   __isLocal     0 1 0 0 0
//   10..14: __isConstant  0 0 0 1 0
//   15: 1 if the local and the constant window map the local and the constant element back to
//       themselves, read the same values through the converted addresses, and nothing here is
//       grid-constant (the file declares no __grid_constant__ parameter)
__global__ void address_spaces(const int* in, int* out) {
  __shared__ int tile[32];
  const int t = threadIdx.x;
  int local = t + 100;
  tile[t] = t;
  device_variable[t] = t;
  const void* probes[5] = {in + t, &local, &tile[t], &kTable[t % 4], &device_variable[t]};
  int* o = out + 16 * t;
  for (int k = 0; k < 5; ++k) {
    o[k] = static_cast<int>(__isGlobal(probes[k]));
    o[5 + k] = static_cast<int>(__isLocal(probes[k]));
    o[10 + k] = static_cast<int>(__isConstant(probes[k]));
  }
  const int* local_again = static_cast<const int*>(__cvta_local_to_generic(__cvta_generic_to_local(&local)));
  const int* constant_again =
      static_cast<const int*>(__cvta_constant_to_generic(__cvta_generic_to_constant(&kTable[t % 4])));
  bool none_grid_constant = true;
  for (const void* p : probes) none_grid_constant = none_grid_constant && __isGridConstant(p) == 0;
  // Compared as integers: a compiler may fold a comparison of pointers it derives from different
  // objects to false.
  const auto same = [](const void* a, const void* b) {
    return reinterpret_cast<unsigned long long>(a) == reinterpret_cast<unsigned long long>(b);
  };
  o[15] = same(local_again, &local) && *local_again == t + 100 &&
          same(constant_again, &kTable[t % 4]) && *constant_again == 10 * (t % 4 + 1) &&
          none_grid_constant;
}

// Converting a pointer that is not in the space: the GPU's answer would be meaningless.
__global__ void global_as_local(int* out) {
  out[threadIdx.x] = static_cast<int>(__cvta_generic_to_local(out + threadIdx.x));
}
