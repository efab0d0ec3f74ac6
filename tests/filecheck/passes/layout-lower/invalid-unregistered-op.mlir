// An unregistered op using a layout-typed memref is named by its own name.
// RUN: not layout-opt %s --allow-unregistered-dialect -p layout-lower 2>&1 | filecheck %s

// CHECK: layout-lower: my.kernel uses the layout-typed memref memref<16xf32, #layout.tag<"W->W4w">> and has no lowering; nothing is skipped silently
func.func @unknown(%m: memref<16xf32, #layout.tag<"W->W4w">>) {
  "my.kernel"(%m) : (memref<16xf32, #layout.tag<"W->W4w">>) -> ()
  func.return
}
