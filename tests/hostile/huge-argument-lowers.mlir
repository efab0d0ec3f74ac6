// Lowering needs no buffer: a 10^10-element layout lowers like any other.
// RUN: layout-opt -p layout-lower
// OUTPUT: func.func @main(%m: memref<100000x100000xf32>) -> f32 {
func.func @main(%m: memref<100000x100000xf32, #layout.tag<"RC->CR">>) -> f32 {
  %c1 = arith.constant 1 : index
  %v = memref.load %m[%c1, %c1] : memref<100000x100000xf32, #layout.tag<"RC->CR">>
  func.return %v : f32
}
