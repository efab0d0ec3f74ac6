// A global whose splat initializer would be expanded into 10^9 elements: refused before parsing,
// like a dense literal of a tensor type (a global's hex of all its elements is read as bytes).
// RUN: layout-opt
// RUN: layout-run
// ERROR: a dense literal: 1000000000 elements is more than the limit of 16777216 elements
memref.global "private" constant @g : memref<1000000000xf32> = dense<"0x0000803F">
memref.global "private" constant @h : memref<1000x1000x1000xf32> = dense<1.0>
func.func @main() {
  func.return
}
