// Asks which address space a pointer is in: warpsim cannot tell local from global memory, so this
// must fail to compile, saying so (never a silently wrong answer).
__global__ void ask_local(int* out) {
  int local = 0;
  out[0] = static_cast<int>(__isLocal(&local));
}
