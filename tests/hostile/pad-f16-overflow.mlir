// A pad that f16 cannot hold became infinity silently.
// RUN: layout-opt
// RUN: layout-run
// ERROR: pad 100000.0 does not fit element type f16 (largest finite value 65504)
func.func @main(%a: memref<3xf16, #layout.tag<"W->W4w", pad = 100000.0>>) {
  func.return
}
