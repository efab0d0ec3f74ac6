// A loop-carried buffer whose layout would change between iterations (it enters plain and
// is yielded with a layout) is refused, pointing at the scf.yield.
// RUN: not layout-opt %s -p layout-apply 2>&1 | filecheck %s
// RUN: not layout-opt %s -p layout-lower 2>&1 | filecheck %s

// CHECK: {{.*}}invalid-loop-carried.mlir:[[# @LINE + 10]]:5: error: layout-apply: a loop-carried buffer would change its layout between iterations
func.func @f(%v: f32) {
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  layout.assign %b to #layout.tag<"W->W4w"> : memref<16xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %a) -> (memref<16xf32>) {
    memref.store %v, %x[%i] : memref<16xf32>
    scf.yield %b : memref<16xf32>
  }
  func.return
}
