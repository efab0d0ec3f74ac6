// A cast that reinterprets one layout as another was accepted, and lowered to invalid IR.
// RUN: layout-opt
// RUN: layout-run --check
// ERROR: changes the layout (#layout.tag<"RC->CR"> to #layout.tag<"RC->RC4c">)
func.func @main(%a: memref<4x8xf32, #layout.tag<"RC->CR">>) -> f32 {
  %p = "memref.cast"(%a) : (memref<4x8xf32, #layout.tag<"RC->CR">>) -> memref<4x8xf32, #layout.tag<"RC->RC4c">>
  %c1 = arith.constant 1 : index
  %v = memref.load %p[%c1, %c1] : memref<4x8xf32, #layout.tag<"RC->RC4c">>
  func.return %v : f32
}
