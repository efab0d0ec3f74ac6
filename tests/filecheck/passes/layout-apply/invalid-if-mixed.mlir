// An scf.if whose branches yield buffers of different layouts cannot have one result type:
// like a loop-carried buffer that changes layout, it is an error, pointing at the yield.
// RUN: not layout-opt %s -p layout-apply 2>&1 | filecheck %s
// RUN: not layout-opt %s -p layout-lower 2>&1 | filecheck %s

// CHECK: {{.*}}invalid-if-mixed.mlir:[[# @LINE + 6]]:5: error: layout-apply: the branches of scf.if yield buffers of different layouts (memref<16xf32, #layout.tag<"W->W4w">>, memref<16xf32>); assign one layout to both
func.func @if_mixed(%p: i1, %i: index) -> f32 {
  %m = memref.alloc() : memref<16xf32>
  layout.assign %m to #layout.tag<"W->W4w"> : memref<16xf32>
  %n = memref.alloc() : memref<16xf32>
  %r = scf.if %p -> (memref<16xf32>) {
    scf.yield %m : memref<16xf32>
  } else {
    scf.yield %n : memref<16xf32>
  }
  %x = memref.load %r[%i] : memref<16xf32>
  func.return %x : f32
}
