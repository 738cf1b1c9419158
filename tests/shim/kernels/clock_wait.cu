// A wait on the device clock, as cuda-samples' simpleHyperQ (clock_block) waits: each lane spins
// until clock() has advanced `cycles`. out[3 * t .. 3 * t + 2] for lane t: the cycles its wait
// measured, clock64() read twice in a row (their difference), and clock64() read around a clock()
// (clock() minus the first clock64(), low 32 bits).
__global__ void clock_wait(long long* out, int cycles) {
  const unsigned int start = (unsigned int)clock();
  clock_t waited = 0;
  while (waited < cycles) waited = (clock_t)((unsigned int)clock() - start);
  const int t = threadIdx.x;
  out[3 * t] = waited;
  const long long a = clock64();
  const long long b = clock64();
  out[3 * t + 1] = b - a;
  const long long c = clock64();
  out[3 * t + 2] = (long long)(unsigned int)((unsigned int)clock() - (unsigned int)c);
}
