// A builtin strided layout whose negative stride addresses memory before the buffer.
// RUN: layout-opt
// RUN: layout-run
// ERROR: result 'd0 * -1' is negative (-3) at logical index (3,)
func.func @main(%b: memref<4xf32, strided<[-1]>>) -> f32 {
  %c1 = arith.constant 1 : index
  %v = memref.load %b[%c1] : memref<4xf32, strided<[-1]>>
  func.return %v : f32
}
