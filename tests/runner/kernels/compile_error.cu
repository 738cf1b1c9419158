// Does not compile: `undeclared_value` is never declared (line 5).
__global__ void broken(float* out) {
  const int i = threadIdx.x;
  out[i] = 1.0f;
  out[i] += undeclared_value;
}
