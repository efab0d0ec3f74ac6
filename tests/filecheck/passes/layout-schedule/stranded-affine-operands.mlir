// The upstream-misfold guard rewrites an `affine.apply` whose map MLIR 22 would fold wrongly
// into arith code; an affine access that used its result then had an operand that is no
// valid affine dim (an arith value inside a loop), which mlir-opt-22 refuses ("operand
// cannot be used as a dimension id"; fuzz seed 590146). Such an access is
// rewritten the same way, as a memref access on arith indices.
// RUN: layout-opt %s -p layout-schedule | filecheck %s
// RUN: layout-opt %s -p layout-schedule,layout-lower | mlir-opt-22 --lower-affine --convert-to-llvm -o /dev/null

// CHECK-LABEL: func.func @stranded(
// CHECK:         affine.for %{{.*}} = 0 to 2 {
// CHECK:           %[[X:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : index
// CHECK:           %[[ROW:.*]] = arith.muli %[[X]], %c2 : index
// CHECK-NEXT:      %[[COLUMN:.*]] = arith.addi %[[X]], %x26 : index
// CHECK-NEXT:      memref.store %w, %A[%[[ROW]], %[[COLUMN]]] : memref<5x4xf64>
// CHECK-NOT:     affine.store
func.func @stranded(%A: memref<5x4xf64>, %n: index, %w: f64) {
  %c2 = arith.constant 2 : index
  %x5 = arith.remui %n, %c2 : index
  %x26 = affine.apply affine_map<(d0) -> (d0 mod 4)>(%x5)
  affine.for %i = 0 to 2 {
    %x38 = affine.apply affine_map<(d0) -> (d0 mod 3)>(%x26)
    affine.store %w, %A[2 * %x38, %x38 + %x26] : memref<5x4xf64>
  }
  func.return
}
