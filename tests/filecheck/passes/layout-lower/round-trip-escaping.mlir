// A -> B -> A where B is not a local allocation (here: an argument the caller reads after
// the call): the second convert folds away, but the first one must stay, as a loop nest
// writing %b.
// RUN: layout-opt %s -p layout-lower | filecheck %s

// CHECK-LABEL: func.func @round_trip_through_argument(%a: memref<4x4xf32>, %b: memref<16xf32>) {
// CHECK:         scf.for
// CHECK:           %[[X:.*]] = memref.load %a[%{{.*}}, %{{.*}}] : memref<4x4xf32>
// CHECK-NEXT:      memref.store %[[X]], %b[%{{.*}}] : memref<16xf32>
// CHECK-NOT:     memref.store %{{.*}}, %a
// CHECK:         func.return
func.func @round_trip_through_argument(%a: memref<16xf32, #layout.tag<"W->W4w">>, %b: memref<16xf32>) {
  layout.convert %a to %b : memref<16xf32, #layout.tag<"W->W4w">> to memref<16xf32>
  layout.convert %b to %a : memref<16xf32> to memref<16xf32, #layout.tag<"W->W4w">>
  func.return
}
