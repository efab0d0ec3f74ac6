// An op the lowering does not know, on a layout-typed memref: refused, never skipped.
// RUN: layout-opt --allow-unregistered-dialect -p layout-lower
// ERROR: layout-lower: foo.touch uses the layout-typed memref memref<8xf32, #layout.tag<"W->W4w">> and has no lowering
func.func @main(%a: memref<8xf32, #layout.tag<"W->W4w">>) -> f32 {
  "foo.touch"(%a) : (memref<8xf32, #layout.tag<"W->W4w">>) -> ()
  %c1 = arith.constant 1 : index
  %v = memref.load %a[%c1] : memref<8xf32, #layout.tag<"W->W4w">>
  func.return %v : f32
}
