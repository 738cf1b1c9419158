#include "fiber.hpp"

#include <cstdint>

// warpsim_fiber_switch(rdi = Context* save, rsi = Context resume):
//   push the six callee-saved registers, store rsp into *save, load rsp = resume, pop them, ret.
// A prepared stack holds six register slots (r12 = entry, r13 = arg) and warpsim_fiber_start as
// the return address, so the first switch to it "returns" into warpsim_fiber_start.
//
// warpsim_warp_op (device_abi.hpp), the kernel's entry into a warp-level call: it calls the
// C++ body, then returns to the kernel with `pop; jmp *` instead of `ret`. A lane resumes at the
// call where it stopped, while the return stack buffer holds the call the previous lane has just
// made; in a kernel whose consecutive warp calls sit at different lines (any unrolled reduction)
// those differ, and every lane's `ret` would be mispredicted. The indirect jump is predicted from
// its last target instead, which is right for all lanes of a step but the first.
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

    .globl  warpsim_warp_op
    .type   warpsim_warp_op, @function
    .p2align 4
warpsim_warp_op:
    .cfi_startproc
    subq    $8, %rsp
    .cfi_adjust_cfa_offset 8
    call    warpsim_warp_op_body
    addq    $8, %rsp
    .cfi_adjust_cfa_offset -8
    popq    %rcx
    .cfi_adjust_cfa_offset -8
    .cfi_register rip, rcx
    jmp     *%rcx
    .cfi_endproc
    .size   warpsim_warp_op, .-warpsim_warp_op

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
