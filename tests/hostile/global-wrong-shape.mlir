// A dense initializer of another shape than its global: mlir-opt refuses it.
// RUN: layout-opt
// RUN: layout-run
// ERROR: memref.global @g: the initializer's type tensor<4xi32> does not match memref<2x3xi32> (expected tensor<2x3xi32>)
"memref.global"() <{sym_name = "g", sym_visibility = "private", type = memref<2x3xi32>, initial_value = dense<[1, 2, 3, 4]> : tensor<4xi32>, constant}> : () -> ()
func.func @main() -> i32 {
  %g = memref.get_global @g : memref<2x3xi32>
  %c1 = arith.constant 1 : index
  %v = memref.load %g[%c1, %c1] : memref<2x3xi32>
  func.return %v : i32
}
