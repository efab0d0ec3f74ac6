// layout-apply on allocations: the allocation behind a layout.assign is retyped, every use
// (loads, stores, dealloc, casts) follows, and the assign is gone. Lowering then gives the
// physical buffer.
// RUN: layout-opt %s -p layout-apply | filecheck %s
// RUN: layout-opt %s -p layout-lower | filecheck %s --check-prefix=LOWER

// CHECK-LABEL: func.func @on_alloc(%v: f32) -> f32 {
// CHECK-NEXT:    %[[M:.*]] = memref.alloc() : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    memref.store %v, %[[M]][%[[C0]], %[[C0]], %[[C0]], %[[C0]]] : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
// CHECK-NEXT:    %[[X:.*]] = memref.load %[[M]][%[[C0]], %[[C0]], %[[C0]], %[[C0]]] : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
// CHECK-NEXT:    memref.dealloc %[[M]] : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
// CHECK-NEXT:    func.return %[[X]] : f32
// LOWER-LABEL: func.func @on_alloc(%v: f32) -> f32 {
// LOWER:         memref.alloc() : memref<2x3x5x4x8xf32>
// LOWER-NOT:     layout
func.func @on_alloc(%v: f32) -> f32 {
  %m = memref.alloc() : memref<2x17x5x4xf32>
  layout.assign %m to #layout.tag<"NCHW->nChw8c"> : memref<2x17x5x4xf32>
  %c0 = arith.constant 0 : index
  memref.store %v, %m[%c0, %c0, %c0, %c0] : memref<2x17x5x4xf32>
  %x = memref.load %m[%c0, %c0, %c0, %c0] : memref<2x17x5x4xf32>
  memref.dealloc %m : memref<2x17x5x4xf32>
  func.return %x : f32
}

// An assign on a cast of the allocation applies to the allocation (its root), and the
// cast's result follows with the same layout.
// CHECK-LABEL: func.func @through_cast_root(%i: index) -> f32 {
// CHECK-NEXT:    %[[M:.*]] = memref.alloc() : memref<2x32xf32, #layout.tag<"NW->NW8w">>
// CHECK-NEXT:    %[[X:.*]] = memref.load %[[M]][%i, %i] : memref<2x32xf32, #layout.tag<"NW->NW8w">>
// CHECK-NOT:     layout.assign
func.func @through_cast_root(%i: index) -> f32 {
  %m = memref.alloc() : memref<2x32xf32>
  %d = "memref.cast"(%m) : (memref<2x32xf32>) -> memref<?x32xf32>
  layout.assign %d to #layout.tag<"NW->NW8w"> : memref<?x32xf32>
  %x = memref.load %m[%i, %i] : memref<2x32xf32>
  func.return %x : f32
}

// A private global: its type changes, and every get_global with it.
// CHECK: memref.global "private" @g : memref<16xf32, #layout.tag<"W->W4w">> = dense<1.000000e+00>
// CHECK-LABEL: func.func @private_global(%i: index) -> f32 {
// CHECK-NEXT:    %[[G:.*]] = memref.get_global @g : memref<16xf32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    %[[X:.*]] = memref.load %[[G]][%i] : memref<16xf32, #layout.tag<"W->W4w">>
// LOWER: memref.global "private" @g : memref<4x4xf32> = dense<1.000000e+00>
"memref.global"() <{sym_name = "g", sym_visibility = "private", type = memref<16xf32>, initial_value = dense<1.0> : tensor<16xf32>}> : () -> ()
func.func @private_global(%i: index) -> f32 {
  %g = memref.get_global @g : memref<16xf32>
  layout.assign %g to #layout.tag<"W->W4w"> : memref<16xf32>
  %x = memref.load %g[%i] : memref<16xf32>
  func.return %x : f32
}

// The same layout assigned twice is one assign.
// CHECK-LABEL: func.func private @twice() -> memref<16xf32, #layout.tag<"W->W4w">> {
// CHECK-NEXT:    %[[M:.*]] = memref.alloc() : memref<16xf32, #layout.tag<"W->W4w">>
// CHECK-NEXT:    func.return %[[M]] : memref<16xf32, #layout.tag<"W->W4w">>
func.func private @twice() -> memref<16xf32> {
  %m = memref.alloc() : memref<16xf32>
  layout.assign %m to #layout.tag<"W->W4w"> : memref<16xf32>
  layout.assign %m to #layout.tag<"W->W4w"> : memref<16xf32>
  func.return %m : memref<16xf32>
}
