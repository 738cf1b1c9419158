// N threads each map 256 fiber-sized stacks and guard each, then touch two pages of each: the
// cost warpsim's worker threads paid for their lanes' stacks on a first launch (bench/results.md).
// Mode 0: mmap + mprotect per stack; 1: one mapping, mprotect guards; 2: one mapping,
// MADV_GUARD_INSTALL guards (Linux 6.13+). Usage: stack_guards THREADS [MODE]
#include <sys/mman.h>
#include <thread>
#include <vector>
#include <chrono>
#include <cstdio>
#include <cstdlib>
int main(int argc, char** argv) {
  int n = atoi(argv[1]); int mode = argc > 2 ? atoi(argv[2]) : 0;
  auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> ts;
  for (int k = 0; k < n; ++k) ts.emplace_back([mode] {
    const size_t page = 4096, usable = 256 * 1024, bytes = usable + page;
    if (mode == 0) {
      for (int s = 0; s < 256; ++s) {
        char* b = (char*)mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
        mprotect(b, page, PROT_NONE);
        b[bytes - 64] = 1; b[bytes - 4096 - 64] = 1;
      }
    } else {
      char* b = (char*)mmap(nullptr, bytes * 256, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
      for (int s = 0; s < 256; ++s) {
        if (mode == 1) mprotect(b + s * bytes, page, PROT_NONE);
        if (mode == 2) madvise(b + s * bytes, page, 102 /*MADV_GUARD_INSTALL*/);
        b[(s + 1) * bytes - 64] = 1; b[(s + 1) * bytes - 4096 - 64] = 1;
      }
    }
  });
  for (auto& t : ts) t.join();
  printf("threads %d mode %d: %.2f ms\n", n, mode, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() * 1e3);
}
