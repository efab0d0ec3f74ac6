// layout-apply on a dynamically shaped public argument: the entry copy is allocated with
// the argument's runtime size, which must be computed (memref.dim) before the allocation.
// RUN: layout-opt %s -p layout-apply | filecheck %s

// CHECK-LABEL: func.func @dynamic(%a: memref<?x17x5x4xf32>, %v: f32) {
// CHECK-NEXT:    %[[P0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[N:.*]] = memref.dim %a, %[[P0]] : memref<?x17x5x4xf32>
// CHECK-NEXT:    %[[T:.*]] = memref.alloc(%[[N]]) : memref<?x17x5x4xf32, #layout.tag<"NCHW->nhwc">>
// CHECK-NEXT:    layout.convert %a to %[[T]] : memref<?x17x5x4xf32> to memref<?x17x5x4xf32, #layout.tag<"NCHW->nhwc">>
// CHECK:         layout.convert %[[T]] to %a
// CHECK-NEXT:    memref.dealloc %[[T]]
func.func @dynamic(%a: memref<?x17x5x4xf32>, %v: f32) {
  layout.assign %a to #layout.tag<"NCHW->nhwc"> : memref<?x17x5x4xf32>
  %c0 = arith.constant 0 : index
  memref.store %v, %a[%c0, %c0, %c0, %c0] : memref<?x17x5x4xf32>
  func.return
}
