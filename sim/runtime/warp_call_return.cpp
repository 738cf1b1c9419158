// warpsim_warp_op (device_abi.hpp), the kernel's entry into a warp-level call: it calls the
// C++ body (warpsim_warp_op_body, beside BlockRunner::warp_op), then returns to the kernel with
// `pop; jmp *` instead of `ret`. A lane resumes at the call where it stopped, while the return
// stack buffer holds the call the previous lane has just made; in a kernel whose consecutive warp
// calls sit at different lines (any unrolled reduction) those differ, and every lane's `ret`
// would be mispredicted. The indirect jump is predicted from its last target instead, which is
// right for all lanes of a step but the first. Measured untraced on the project's machine, a
// kernel with two or four shuffle lines per loop: 1.54 M steps/s with `ret`, 2.75 M/s with this
// (bench_sim's unrolled256 figure runs such a kernel).
#if !defined(__x86_64__)
#error "warpsim's warp-call trampoline is x86-64 code (sim/runtime/warp_call_return.cpp)"
#endif

asm(R"(
    .text
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
)");
