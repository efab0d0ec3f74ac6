// A splat of 10^10 elements: xDSL's parser would expand it into a list of all of them.
// RUN: layout-opt
// RUN: layout-run
// ERROR: {{FILE}}:5: a dense literal: 10000000000 elements is more than the limit of 16777216 elements
"memref.global"() <{sym_name = "g", sym_visibility = "private", type = memref<100000x100000xf32>, initial_value = dense<1.0> : tensor<100000x100000xf32>, constant}> : () -> ()
func.func @main() -> f32 {
  %g = memref.get_global @g : memref<100000x100000xf32>
  %c1 = arith.constant 1 : index
  %v = memref.load %g[%c1, %c1] : memref<100000x100000xf32>
  func.return %v : f32
}
