// A private function whose returns give buffers of different layouts cannot have one result
// type: like scf.if branches that disagree, it is an error from layout-apply naming the
// conflict (a fix that converts the plain buffer before its return would replace this test).
// RUN: not layout-opt %s -p layout-apply 2>&1 | filecheck %s

// CHECK: layout-apply: {{.*}}different layouts{{.*}}
// CHECK-NOT: Operation does not verify
func.func private @pick(%p: i1) -> memref<16xf32> {
  %m = memref.alloc() : memref<16xf32>
  layout.assign %m to #layout.tag<"W->W4w"> : memref<16xf32>
  %n = memref.alloc() : memref<16xf32>
  cf.cond_br %p, ^a, ^b
^a:
  func.return %m : memref<16xf32>
^b:
  func.return %n : memref<16xf32>
}
func.func @user(%p: i1, %i: index) -> f32 {
  %r = func.call @pick(%p) : (i1) -> memref<16xf32>
  %x = memref.load %r[%i] : memref<16xf32>
  func.return %x : f32
}
