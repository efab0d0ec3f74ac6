// The same under --check: the lowering refuses it by name, never skips it.
// RUN: layout-run --check
// RUN: layout-opt -p layout-lower
// ERROR: layout-lower: memref.atomic_rmw uses the layout-typed memref memref<8xf32, #layout.tag<"W->W4w">> and has no lowering
func.func @main(%a: memref<8xf32, #layout.tag<"W->W4w">>) -> f32 {
  %c1 = arith.constant 1 : index
  %x = arith.constant 2.0 : f32
  %r = memref.atomic_rmw addf %x, %a[%c1] : (f32, memref<8xf32, #layout.tag<"W->W4w">>) -> f32
  func.return %r : f32
}
