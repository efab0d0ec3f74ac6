// A stride beyond the 64-bit index range.
// RUN: layout-opt
// ERROR: beyond the 64-bit index range
func.func @main(%a: memref<4xf32, #layout.strided<[99999999999999999999999]>>) {
  func.return
}
