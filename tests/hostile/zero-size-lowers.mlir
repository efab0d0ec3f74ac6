// The lowered form of an empty layout buffer: its physical shape, with the zero extents.
// RUN: layout-opt -p layout-lower
// OUTPUT: func.func @main(%a: memref<2x0x5x4x8xf32>, %b: memref<4x0xi8>) {
func.func @main(%a: memref<2x0x5x4xf32, #layout.tag<"NCHW->nChw8c">>, %b: memref<0x4xi8, #layout.map<affine_map<(d0, d1) -> (d1, d0)>>>) {
  func.return
}
