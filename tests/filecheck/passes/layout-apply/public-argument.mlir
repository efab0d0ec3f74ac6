// layout-apply on an argument of a public function: the signature stays (callers rely on
// it). The body works on a converted copy, allocated and filled at entry; the copy is
// converted back before each return only when the function may write it, then freed.
// RUN: layout-opt %s -p layout-apply | filecheck %s
// RUN: layout-opt %s -p layout-lower | filecheck %s --check-prefix=LOWER

// Read only: convert in, no convert back.
// CHECK-LABEL: func.func @reads(%a: memref<2x17x5x4xf32>) -> f32 {
// CHECK-NEXT:    %[[T:.*]] = memref.alloc() : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
// CHECK-NEXT:    layout.convert %a to %[[T]] : memref<2x17x5x4xf32> to memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[X:.*]] = memref.load %[[T]][%[[C0]], %[[C0]], %[[C0]], %[[C0]]] : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
// CHECK-NEXT:    memref.dealloc %[[T]] : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
// CHECK-NEXT:    func.return %[[X]] : f32
// The lowered signature is still the plain one.
// LOWER-LABEL: func.func @reads(%a: memref<2x17x5x4xf32>) -> f32 {
// LOWER:         memref.alloc() : memref<2x3x5x4x8xf32>
// LOWER-NOT:     memref.store %{{.*}}, %a
// LOWER:         func.return
func.func @reads(%a: memref<2x17x5x4xf32>) -> f32 {
  layout.assign %a to #layout.tag<"NCHW->nChw8c"> : memref<2x17x5x4xf32>
  %c0 = arith.constant 0 : index
  %x = memref.load %a[%c0, %c0, %c0, %c0] : memref<2x17x5x4xf32>
  func.return %x : f32
}

// Written: converted back before the return.
// CHECK-LABEL: func.func @writes(%a: memref<2x17x5x4xf32>, %v: f32) {
// CHECK-NEXT:    %[[T:.*]] = memref.alloc() : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
// CHECK-NEXT:    layout.convert %a to %[[T]] : memref<2x17x5x4xf32> to memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    memref.store %v, %[[T]][%[[C0]], %[[C0]], %[[C0]], %[[C0]]] : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
// CHECK-NEXT:    layout.convert %[[T]] to %a : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">> to memref<2x17x5x4xf32>
// CHECK-NEXT:    memref.dealloc %[[T]] : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
// CHECK-NEXT:    func.return
// LOWER-LABEL: func.func @writes(%a: memref<2x17x5x4xf32>, %v: f32) {
// LOWER:         memref.store %{{.*}}, %a[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<2x17x5x4xf32>
// LOWER:         func.return
func.func @writes(%a: memref<2x17x5x4xf32>, %v: f32) {
  layout.assign %a to #layout.tag<"NCHW->nChw8c"> : memref<2x17x5x4xf32>
  %c0 = arith.constant 0 : index
  memref.store %v, %a[%c0, %c0, %c0, %c0] : memref<2x17x5x4xf32>
  func.return
}

// A write nested in a loop counts; so does a write through a cast.
// CHECK-LABEL: func.func @writes_in_loop(%a: memref<16xf32>, %v: f32) {
// CHECK-NEXT:    %[[T:.*]] = memref.alloc() : memref<16xf32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    layout.convert %a to %[[T]] : memref<16xf32> to memref<16xf32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    affine.for %[[I:.*]] = 0 to 16 {
// CHECK-NEXT:      affine.store %v, %[[T]][%[[I]]] : memref<16xf32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    }
// CHECK-NEXT:    layout.convert %[[T]] to %a : memref<16xf32, #layout.tag<"W->W4w">> to memref<16xf32>
// CHECK-NEXT:    memref.dealloc %[[T]] : memref<16xf32, #layout.tag<"W->W4w">>
func.func @writes_in_loop(%a: memref<16xf32>, %v: f32) {
  layout.assign %a to #layout.tag<"W->W4w"> : memref<16xf32>
  affine.for %i = 0 to 16 {
    affine.store %v, %a[%i] : memref<16xf32>
  }
  func.return
}

// CHECK-LABEL: func.func @writes_through_cast(%a: memref<2x32xf32>, %v: f32, %i: index) {
// CHECK:         memref.cast %[[T:.*]] : memref<2x32xf32, #layout.tag<"NW->NW8w">> to memref<?x32xf32, #layout.tag<"NW->NW8w">>
// CHECK:         layout.convert %[[T]] to %a : memref<2x32xf32, #layout.tag<"NW->NW8w">> to memref<2x32xf32>
// CHECK-NEXT:    memref.dealloc %[[T]]
func.func @writes_through_cast(%a: memref<2x32xf32>, %v: f32, %i: index) {
  layout.assign %a to #layout.tag<"NW->NW8w"> : memref<2x32xf32>
  %d = "memref.cast"(%a) : (memref<2x32xf32>) -> memref<?x32xf32>
  memref.store %v, %d[%i, %i] : memref<?x32xf32>
  func.return
}

// Two returns: each gets its own convert back and dealloc.
// CHECK-LABEL: func.func @two_returns(%a: memref<16xf32>, %v: f32, %p: i1) {
// CHECK:         cf.cond_br %p, ^[[B1:.*]], ^[[B2:.*]]
// CHECK:         layout.convert %[[T:.*]] to %a : memref<16xf32, #layout.tag<"W->W4w">> to memref<16xf32>
// CHECK-NEXT:    memref.dealloc %[[T]]
// CHECK-NEXT:    func.return
// CHECK:         layout.convert %[[T]] to %a : memref<16xf32, #layout.tag<"W->W4w">> to memref<16xf32>
// CHECK-NEXT:    memref.dealloc %[[T]]
// CHECK-NEXT:    func.return
func.func @two_returns(%a: memref<16xf32>, %v: f32, %p: i1) {
  layout.assign %a to #layout.tag<"W->W4w"> : memref<16xf32>
  %c0 = arith.constant 0 : index
  cf.cond_br %p, ^bb1, ^bb2
^bb1:
  memref.store %v, %a[%c0] : memref<16xf32>
  func.return
^bb2:
  func.return
}
