// A cast from a layout to a plain memref crashed the compiled engine.
// RUN: layout-run
// RUN: layout-run --engine interp
// RUN: layout-opt -p layout-lower
// ERROR: changes the layout (#layout.tag<"RC->CR"> to no layout)
func.func @main(%a: memref<4x8xf32, #layout.tag<"RC->CR">>) -> f32 {
  %p = "memref.cast"(%a) : (memref<4x8xf32, #layout.tag<"RC->CR">>) -> memref<4x8xf32>
  %c1 = arith.constant 1 : index
  %v = memref.load %p[%c1, %c1] : memref<4x8xf32>
  func.return %v : f32
}
