#include "fiber.hpp"

#include <cstdint>

// warpsim_fiber_switch(rdi = Context* save, rsi = Context resume):
//   push the six callee-saved registers, store rsp into *save, load rsp = resume, pop them, ret.
// A prepared stack holds six register slots (r12 = entry, r13 = arg) and warpsim_fiber_start as
// the return address, so the first switch to it "returns" into warpsim_fiber_start.

asm(R"(
    .text
    .globl  warpsim_fiber_switch
    .hidden warpsim_fiber_switch
    .type   warpsim_fiber_switch, @function
    .p2align 4
warpsim_fiber_switch:
    .cfi_startproc
    pushq   %rbp
    .cfi_adjust_cfa_offset 8
    pushq   %rbx
    .cfi_adjust_cfa_offset 8
    pushq   %r12
    .cfi_adjust_cfa_offset 8
    pushq   %r13
    .cfi_adjust_cfa_offset 8
    pushq   %r14
    .cfi_adjust_cfa_offset 8
    pushq   %r15
    .cfi_adjust_cfa_offset 8
    movq    %rsp, (%rdi)
    movq    %rsi, %rsp
    popq    %r15
    popq    %r14
    popq    %r13
    popq    %r12
    popq    %rbx
    popq    %rbp
    .cfi_adjust_cfa_offset -48
    ret
    .cfi_endproc
    .size   warpsim_fiber_switch, .-warpsim_fiber_switch

    .globl  warpsim_fiber_start
    .hidden warpsim_fiber_start
    .type   warpsim_fiber_start, @function
    .p2align 4
warpsim_fiber_start:
    .cfi_startproc
    .cfi_undefined rip
    movq    %r13, %rdi
    callq   *%r12
    ud2
    .cfi_endproc
    .size   warpsim_fiber_start, .-warpsim_fiber_start
)");

extern "C" void warpsim_fiber_start();

namespace warpsim::runtime::fiber {

Context prepare(Stack stack, void (*entry)(void*), void* arg) {
  // 16-byte aligned top; after the first switch pops the return address, rsp is that top, so
  // warpsim_fiber_start's call enters `entry` with the alignment the ABI requires.
  auto top = reinterpret_cast<std::uintptr_t>(stack.top) & ~std::uintptr_t{15};
  auto* slot = reinterpret_cast<void**>(top);
  *--slot = reinterpret_cast<void*>(&warpsim_fiber_start);  // return address
  *--slot = nullptr;                                          // rbp
  *--slot = nullptr;                                          // rbx
  *--slot = reinterpret_cast<void*>(entry);                   // r12
  *--slot = arg;                                              // r13
  *--slot = nullptr;                                          // r14
  *--slot = nullptr;                                          // r15
  return slot;
}

}  // namespace warpsim::runtime::fiber
