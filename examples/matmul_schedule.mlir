// C = A * B written as the textbook triple loop on logical row-major matrices, with a GEMM
// library's operand layouts: B in 16-column panels with k inside (KN->Nk16n), C in the
// same panels (MN->NM16n), A in 8-row strips (MK->MK8m) so the rows of a register tile sit
// side by side. layout-schedule tiles C in registers (rows x vectors of columns), runs k
// inside the tile with the accumulators in registers, and keeps the exact order of the
// additions into every element.
//   layout-run examples/matmul_schedule.mlir --check -p layout-schedule,layout-lower
func.func @main(%a: memref<20x24xf32>, %b: memref<24x40xf32>, %c: memref<20x40xf32>) {
  layout.assign %a to #layout.tag<"MK->MK8m"> : memref<20x24xf32>
  layout.assign %b to #layout.tag<"KN->Nk16n"> : memref<24x40xf32>
  layout.assign %c to #layout.tag<"MN->NM16n"> : memref<20x40xf32>
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 20 {
    affine.for %j = 0 to 40 {
      affine.store %zero, %c[%i, %j] : memref<20x40xf32>
      affine.for %k = 0 to 24 {
        %x = affine.load %a[%i, %k] : memref<20x24xf32>
        %y = affine.load %b[%k, %j] : memref<24x40xf32>
        %z = affine.load %c[%i, %j] : memref<20x40xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %z, %p : f32
        affine.store %s, %c[%i, %j] : memref<20x40xf32>
      }
    }
  }
  func.return
}
