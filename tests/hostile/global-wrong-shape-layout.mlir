// The same with a layout: the lowering failed with numpy's "cannot reshape".
// RUN: layout-opt -p layout-lower
// RUN: layout-run --check
// ERROR: memref.global @g: the initializer's type tensor<4xi32> does not match memref<2x3xi32, #layout.tag<"AB->BA">>
"memref.global"() <{sym_name = "g", sym_visibility = "private", type = memref<2x3xi32, #layout.tag<"AB->BA">>, initial_value = dense<[1, 2, 3, 4]> : tensor<4xi32>, constant}> : () -> ()
func.func @main() -> i32 {
  %g = memref.get_global @g : memref<2x3xi32, #layout.tag<"AB->BA">>
  %c1 = arith.constant 1 : index
  %v = memref.load %g[%c1, %c1] : memref<2x3xi32, #layout.tag<"AB->BA">>
  func.return %v : i32
}
