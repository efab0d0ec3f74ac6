// pad = 1.0e400 reads as infinity, which MLIR's attribute text cannot print.
// RUN: layout-opt
// RUN: layout-run
// ERROR: pad inf is not a finite number
func.func @main(%a: memref<3xf32, #layout.tag<"W->W4w", pad = 1.0e400>>) {
  func.return
}
