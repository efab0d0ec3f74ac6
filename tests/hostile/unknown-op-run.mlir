// An op neither Python engine runs (auto runs it natively), on a layout-typed memref: named
// by both engines; --check names it through the lowering, which has no rule for it either.
// RUN: layout-run --engine compiled
// RUN: layout-run --engine interp
// ERROR: unsupported op 'memref.atomic_rmw' at {{FILE}}:9:3
func.func @main(%a: memref<8xf32, #layout.tag<"W->W4w">>) -> f32 {
  %c1 = arith.constant 1 : index
  %x = arith.constant 2.0 : f32
  %r = memref.atomic_rmw addf %x, %a[%c1] : (f32, memref<8xf32, #layout.tag<"W->W4w">>) -> f32
  func.return %r : f32
}
