// Lane fibers: every CUDA thread runs on a stack of its own, and a lane hands the core to the
// next one with a switch of a few nanoseconds. Linux on x86-64 (System V ABI).
//
// Why not Boost.Context's jump_fcontext, which warpsim used first: it resumes the target with an
// indirect jmp, so the call that suspended a lane is never matched by a ret, and every lane's
// next return (from the warp intrinsic back into the kernel) is mispredicted. Measured on the
// project's machine (2-core EPYC), switching from inside a called function as warp_op does:
// 13.9 ns per switch with jump_fcontext, 4.4 ns with this switch, which resumes with ret. All
// lanes suspend at the same call, so the return stack buffer predicts every resume. Over a
// 32-lane step that is 300 ns of the 500 ns that 2 M steps/s allows.
//
// Only the callee-saved integer registers are saved: lanes share the thread's MXCSR and x87
// control word (CUDA device code has no rounding-mode state of its own to keep per lane).
// This switch (and the return trampoline of warp_call_return.cpp) does not
// keep a CET shadow stack in step. Shadow stacks apply only to programs built with
// -fcf-protection, which Debian's compilers do not use by default.
#pragma once

#include <cstddef>

#if !defined(__x86_64__)
#error "warpsim's lane fibers switch with x86-64 code (sim/runtime/fiber.cpp); port it first"
#endif

namespace warpsim::runtime::fiber {

using Context = void*;  // where a suspended fiber resumes: its saved stack pointer

// A stack for one fiber: [top - size, top), with a guard page below.
struct Stack {
  void* top = nullptr;
  std::size_t size = 0;
};

// Prepares `stack` so that the first switch to the returned context calls entry(arg) on it.
// entry must never return: a finished fiber switches away for good.
Context prepare(Stack stack, void (*entry)(void*), void* arg);

}  // namespace warpsim::runtime::fiber

// Saves the running fiber's registers and stack pointer into *save, then resumes `resume`.
// Returns when some fiber switches back to *save.
extern "C" void warpsim_fiber_switch(warpsim::runtime::fiber::Context* save,
                                     warpsim::runtime::fiber::Context resume);
