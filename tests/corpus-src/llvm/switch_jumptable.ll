; Dense switch: LLVM 22 lowers it to a jump table (.branchtargets + brx.idx),
; older LLVM to compare trees.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define i32 @dispatch(i32 %op, i32 %a, i32 %b) noinline {
entry:
  switch i32 %op, label %def [
    i32 0, label %c0
    i32 1, label %c1
    i32 2, label %c2
    i32 3, label %c3
    i32 4, label %c4
    i32 5, label %c5
    i32 6, label %c6
    i32 7, label %c7
    i32 8, label %c8
  ]
c0: %r0 = add i32 %a, %b
  br label %ret
c1: %r1 = sub i32 %a, %b
  br label %ret
c2: %r2 = mul i32 %a, %b
  br label %ret
c3: %r3 = sdiv i32 %a, %b
  br label %ret
c4: %r4 = and i32 %a, %b
  br label %ret
c5: %r5 = or i32 %a, %b
  br label %ret
c6: %r6 = xor i32 %a, %b
  br label %ret
c7: %r7 = shl i32 %a, %b
  br label %ret
c8: %r8 = lshr i32 %a, %b
  br label %ret
def:
  br label %ret
ret:
  %r = phi i32 [ %r0, %c0 ], [ %r1, %c1 ], [ %r2, %c2 ], [ %r3, %c3 ], [ %r4, %c4 ], [ %r5, %c5 ], [ %r6, %c6 ], [ %r7, %c7 ], [ %r8, %c8 ], [ -1, %def ]
  ret i32 %r
}

define void @interp(i32* %prog, i32* %out, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %loop
loop:
  %pc = phi i32 [ 0, %entry ], [ %pc1, %loop ]
  %acc = phi i32 [ %t, %entry ], [ %acc1, %loop ]
  %px = zext i32 %pc to i64
  %pp = getelementptr i32, i32* %prog, i64 %px
  %op = load i32, i32* %pp
  %acc1 = call i32 @dispatch(i32 %op, i32 %acc, i32 %pc)
  %pc1 = add i32 %pc, 1
  %c = icmp slt i32 %pc1, %n
  br i1 %c, label %loop, label %exit
exit:
  %tx = zext i32 %t to i64
  %po = getelementptr i32, i32* %out, i64 %tx
  store i32 %acc1, i32* %po
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (i32*, i32*, i32)* @interp, !"kernel", i32 1}
