/* asm.s - assembler only: no plugin. */
	.text
	.globl asm_one
asm_one:
	movl $1, %eax
	ret
	.section .note.GNU-stack,"",@progbits
