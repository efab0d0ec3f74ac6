// layout-apply propagates through scf.while like through scf.for: the before and after
// block arguments, the values passed by scf.condition and scf.yield, and the results.
// RUN: layout-opt %s -p layout-apply | filecheck %s

// CHECK-LABEL: func.func @through_while(%p: i1, %v: f32) -> f32 {
// CHECK-NEXT:    %[[A:.*]] = memref.alloc() : memref<16xf32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    %[[R:.*]] = scf.while (%[[X:.*]] = %[[A]]) : (memref<16xf32, #layout.tag<"W->W4w">>) -> memref<16xf32, #layout.tag<"W->W4w">> {
// CHECK-NEXT:      scf.condition(%p) %[[X]] : memref<16xf32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^{{.*}}(%[[Y:.*]]: memref<16xf32, #layout.tag<"W->W4w">>):
// CHECK:           memref.store %v, %[[Y]][%{{.*}}] : memref<16xf32, #layout.tag<"W->W4w">>
// CHECK-NEXT:      scf.yield %[[Y]] : memref<16xf32, #layout.tag<"W->W4w">>
// CHECK:         memref.load %[[R]][%{{.*}}] : memref<16xf32, #layout.tag<"W->W4w">>
func.func @through_while(%p: i1, %v: f32) -> f32 {
  %a = memref.alloc() : memref<16xf32>
  layout.assign %a to #layout.tag<"W->W4w"> : memref<16xf32>
  %r = scf.while (%x = %a) : (memref<16xf32>) -> memref<16xf32> {
    scf.condition(%p) %x : memref<16xf32>
  } do {
  ^bb0(%y: memref<16xf32>):
    %c5 = arith.constant 5 : index
    memref.store %v, %y[%c5] : memref<16xf32>
    scf.yield %y : memref<16xf32>
  }
  %c0 = arith.constant 0 : index
  %x0 = memref.load %r[%c0] : memref<16xf32>
  func.return %x0 : f32
}
