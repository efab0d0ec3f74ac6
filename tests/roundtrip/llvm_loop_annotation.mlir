// LLVM loop annotations on scf.for (mlir/test/Target/LLVMIR/loop-metadata.mlir): the hint
// layout-schedule gives a reduction loop LLVM must keep rolled, and other unroll keys.
func.func @rolled(%A: memref<16xf32>, %lb: index, %ub: index, %step: index) -> f32 {
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %lb to %ub step %step iter_args(%acc = %zero) -> (f32) {
    %x = memref.load %A[%i] : memref<16xf32>
    %y = arith.addf %acc, %x : f32
    scf.yield %y : f32
  } {loop_annotation = #llvm.loop_annotation<unroll = #llvm.loop_unroll<disable = true>>}
  scf.for %j = %lb to %ub step %step {
    memref.store %sum, %A[%j] : memref<16xf32>
  } {loop_annotation = #llvm.loop_annotation<disableNonforced = true, unroll = #llvm.loop_unroll<count = 4 : i32, runtimeDisable = true>, mustProgress = true>}
  return %sum : f32
}
