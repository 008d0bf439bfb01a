/* rt-timing-x86.S - the entry points of loop timing for the plugin's
 * inline code on x86-64 (plugin/pp-timing.cc, "the asm form").
 *
 * On x86-64 the plugin times a loop with one volatile asm on its entry and
 * one on each exit, which the compiler sees as a few instructions that
 * clobber r11 and the flags: the countdown, the stamp test and the branch
 * to an out-of-line call path are inside the asm, so the compiler adds no block,
 * no call and no register pressure to the loop's code.  The call path (in the
 * section .text.perfpred_cold) steps over the red zone and calls
 *
 *   __pp_tbegin_x86   with, on the stack above the return address, the
 *                     thread-pointer offset of the loop's scratch slots
 *                     (scr[0], as in __pp_tbegin);
 *   __pp_tend_x86     with the same, and above it the offset of the
 *                     counter slot S.
 *
 * The call path pushes the offsets (immediates the linker fills in) and calls
 * through the GOT: lazy binding's resolver, on the way through a PLT,
 * would clobber r10 and r11 before anything here could save them.
 *
 * A call from the middle of compiled code must preserve every register
 * the compiler may hold there: these save the call-clobbered general
 * registers, align the stack and call the C functions of rt-timing.c,
 * which use no vector, x87 or flag state a caller could hold (they are
 * compiled for the general registers only and call nothing).  The flags
 * are the asm's declared clobber.
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#if defined(__x86_64__) && defined(__ELF__)

#ifdef __CET__
#define PP_ENDBR endbr64
#else
#define PP_ENDBR
#endif

	.text

	.macro pp_push reg
	pushq	\reg
	.cfi_adjust_cfa_offset 8
	.endm

	.macro pp_pop reg
	popq	\reg
	.cfi_adjust_cfa_offset -8
	.endm

	.macro pp_save
	pp_push	%rax
	pp_push	%rcx
	pp_push	%rdx
	pp_push	%rsi
	pp_push	%rdi
	pp_push	%r8
	pp_push	%r9
	pp_push	%r10
	pp_push	%r11
	.endm

	.macro pp_restore
	pp_pop	%r11
	pp_pop	%r10
	pp_pop	%r9
	pp_pop	%r8
	pp_pop	%rdi
	pp_pop	%rsi
	pp_pop	%rdx
	pp_pop	%rcx
	pp_pop	%rax
	.endm

/* the call, with the stack aligned to 16 (rbp is callee-saved) */
	.macro pp_call fn
	pp_push	%rbp
	.cfi_offset %rbp, -88
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	andq	$-16, %rsp
	call	\fn@PLT
	movq	%rbp, %rsp
	.cfi_def_cfa_register %rsp
	pp_pop	%rbp
	.cfi_restore %rbp
	.endm

	.globl	__pp_tbegin_x86
	.type	__pp_tbegin_x86, @function
__pp_tbegin_x86:
	.cfi_startproc
	PP_ENDBR
	pp_save
	movq	%fs:0, %rdi
	addq	80(%rsp), %rdi          /* &scr[0]: above 9 saved registers and the return address */
	pp_call	__pp_tbegin
	pp_restore
	ret
	.cfi_endproc
	.size	__pp_tbegin_x86, .-__pp_tbegin_x86

	.globl	__pp_tend_x86
	.type	__pp_tend_x86, @function
__pp_tend_x86:
	.cfi_startproc
	PP_ENDBR
	pp_save
	movq	%fs:0, %rdi
	movq	%rdi, %rsi
	addq	80(%rsp), %rdi          /* &scr[0] */
	addq	88(%rsp), %rsi          /* &cnt[S] */
	pp_call	__pp_tend
	pp_restore
	ret
	.cfi_endproc
	.size	__pp_tend_x86, .-__pp_tend_x86

#endif

	.section .note.GNU-stack,"",@progbits
