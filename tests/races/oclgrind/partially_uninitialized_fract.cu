// The pattern of Oclgrind's tests/kernels/uninitialized/partially_uninitialized_fract.cl, written for CUDA here
// (scripts/race_suites.py oclgrind runs it; docs/checks/oclgrind.md has the table).
// label: uninit_private: f.y of a thread's own float4 is never set before its floor (stored to output[1]) and fractional part are taken
// launch: --kernel partially_uninitialized_fract --grid 1 --block 1 --arg f32[8]:zeros
__global__ void partially_uninitialized_fract(float* output) {
  float4 f;
  f.x = f.z = f.w = 4.2f;
  output[0] = floorf(f.x); output[1] = floorf(f.y); output[2] = floorf(f.z); output[3] = floorf(f.w);  // expect: uninit_local
  output[4] = f.x - floorf(f.x); output[5] = f.y - floorf(f.y);
  output[6] = f.z - floorf(f.z); output[7] = f.w - floorf(f.w);
}
