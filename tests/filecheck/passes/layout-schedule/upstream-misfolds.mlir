// layout-schedule reads the program's `arith.remsi %i, 6` then `arith.divsi … 4` as the
// affine map `(i mod 6) floordiv 4`, which MLIR 22's canonicalization folds wrongly over
// affine.for variables (see passes/layout-lower/upstream-misfolds.mlir): the scheduled
// nest keeps the division in arith, on the affine.apply of the mod.
// RUN: layout-opt %s -p layout-schedule | filecheck %s

// CHECK-LABEL: func.func @gather
// CHECK:       %[[M:.*]] = affine.apply affine_map<(d0) -> ((((d0 * 3) + 5) mod 6))> (%{{.*}})
// CHECK:       %[[Q:.*]] = arith.divui %[[M]], %{{.*}} : index
// CHECK-NEXT:  memref.load %m[%[[Q]], %{{.*}}] : memref<16x4xf64>
// CHECK-NOT:   floordiv
func.func @gather(%m: memref<16x4xf64>, %o: memref<16x4xf64, #layout.tag<"AB->BA">>) {
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  affine.for %i = 5 to 12 step 3 {
    affine.for %j = 0 to 4 {
      %s = arith.remsi %i, %c6 : index
      %d = arith.divsi %s, %c4 : index
      %v = memref.load %m[%d, %j] : memref<16x4xf64>
      memref.store %v, %o[%i, %j] : memref<16x4xf64, #layout.tag<"AB->BA">>
    }
  }
  func.return
}
