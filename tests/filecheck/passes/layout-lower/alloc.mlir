// layout-lower on allocations (memref.alloc and memref.alloca): the physical shape, and a
// pad fill exactly when the layout has pad slots (nChw16c on C = 17 pads C up to 32; nChw8c
// on C = 16 has no pad slot).
// RUN: layout-opt %s -p layout-lower | filecheck %s
// RUN: layout-opt %s -p 'layout-lower{index=affine}' | filecheck %s
// RUN: layout-opt %s -p 'layout-lower{flatten=true}' | filecheck %s --check-prefix=FLAT

// CHECK-LABEL: func.func private @alloc_pad() -> memref<2x2x5x4x16xf32> {
// CHECK-NEXT:    %[[M:.*]] = memref.alloc() : memref<2x2x5x4x16xf32>
// CHECK-NEXT:    %[[PAD:.*]] = arith.constant -1.000000e+00 : f32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         scf.for %[[I0:.*]] = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK-NEXT:      scf.for %[[I1:.*]] = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK-NEXT:        scf.for %[[I2:.*]] = %[[C0]] to %[[C5]] step %[[C1]] {
// CHECK-NEXT:          scf.for %[[I3:.*]] = %[[C0]] to %[[C4]] step %[[C1]] {
// CHECK-NEXT:            scf.for %[[I4:.*]] = %[[C0]] to %[[C16]] step %[[C1]] {
// CHECK-NEXT:              memref.store %[[PAD]], %[[M]][%[[I0]], %[[I1]], %[[I2]], %[[I3]], %[[I4]]] : memref<2x2x5x4x16xf32>
// CHECK:         func.return %[[M]] : memref<2x2x5x4x16xf32>
// FLAT-LABEL:  func.func private @alloc_pad() -> memref<1280xf32> {
// FLAT-NEXT:     %[[M:.*]] = memref.alloc() : memref<1280xf32>
// FLAT-NEXT:     %[[PAD:.*]] = arith.constant -1.000000e+00 : f32
// FLAT:          scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// FLAT-NEXT:       memref.store %[[PAD]], %[[M]][%[[I]]] : memref<1280xf32>
// FLAT-NEXT:     }
// FLAT-NEXT:     func.return %[[M]] : memref<1280xf32>
func.func private @alloc_pad() -> memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw16c", pad = -1.0>> {
  %m = memref.alloc() : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw16c", pad = -1.0>>
  func.return %m : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw16c", pad = -1.0>>
}

// CHECK-LABEL: func.func private @alloc_no_pad() -> memref<2x2x5x4x8xf32> {
// CHECK-NEXT:    %[[M:.*]] = memref.alloc() : memref<2x2x5x4x8xf32>
// CHECK-NEXT:    func.return %[[M]] : memref<2x2x5x4x8xf32>
// FLAT-LABEL:  func.func private @alloc_no_pad() -> memref<640xf32> {
// FLAT-NEXT:     %[[M:.*]] = memref.alloc() : memref<640xf32>
// FLAT-NEXT:     func.return %[[M]] : memref<640xf32>
func.func private @alloc_no_pad() -> memref<2x16x5x4xf32, #layout.tag<"NCHW->nChw8c">> {
  %m = memref.alloc() : memref<2x16x5x4xf32, #layout.tag<"NCHW->nChw8c">>
  func.return %m : memref<2x16x5x4xf32, #layout.tag<"NCHW->nChw8c">>
}

// An HTP crouton buffer: 1x9x10x40 int8 in 8x8x32 chunks is 1x2x2x2x8x8x32, filled with 31.
// The extent-1 batch loop folds away.
// CHECK-LABEL: func.func private @alloc_crouton() -> memref<1x2x2x2x8x8x32xi8> {
// CHECK-NEXT:    %[[M:.*]] = memref.alloc() : memref<1x2x2x2x8x8x32xi8>
// CHECK-NEXT:    %[[PAD:.*]] = arith.constant 31 : i8
// CHECK-COUNT-6: scf.for
// CHECK-NEXT:    memref.store %[[PAD]], %[[M]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<1x2x2x2x8x8x32xi8>
// CHECK-NOT:     scf.for
// CHECK:         func.return %[[M]]
func.func private @alloc_crouton() -> memref<1x9x10x40xi8, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32], pad = 31>> {
  %m = memref.alloc() : memref<1x9x10x40xi8, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32], pad = 31>>
  func.return %m : memref<1x9x10x40xi8, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32], pad = 31>>
}

// Deallocation of the physical buffer; no pad fill for a padless permutation.
// CHECK-LABEL: func.func @alloc_dealloc(%v: f32) {
// CHECK-NEXT:    %[[M:.*]] = memref.alloc() : memref<2x5x4x16xf32>
// CHECK-NOT:     scf.for
// CHECK:         memref.store %v, %[[M]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<2x5x4x16xf32>
// CHECK-NEXT:    memref.dealloc %[[M]] : memref<2x5x4x16xf32>
// CHECK-NEXT:    func.return
func.func @alloc_dealloc(%v: f32) {
  %m = memref.alloc() : memref<2x16x5x4xf32, #layout.tag<"NCHW->nhwc">>
  %c0 = arith.constant 0 : index
  memref.store %v, %m[%c0, %c0, %c0, %c0] : memref<2x16x5x4xf32, #layout.tag<"NCHW->nhwc">>
  memref.dealloc %m : memref<2x16x5x4xf32, #layout.tag<"NCHW->nhwc">>
  func.return
}

// memref.alloca lowers the same way. W4w on 16 has no pad slot: logical 5 is physical (1, 1).
// FLAT-LABEL: func.func @alloca_no_pad(%v: f32) -> f32 {
// FLAT-NEXT:    %[[M:.*]] = memref.alloca() : memref<16xf32>
// FLAT-NEXT:    %[[C5:.*]] = arith.constant 5 : index
// FLAT-NEXT:    memref.store %v, %[[M]][%[[C5]]] : memref<16xf32>
// CHECK-LABEL: func.func @alloca_no_pad(%v: f32) -> f32 {
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[M:.*]] = memref.alloca() : memref<4x4xf32>
// CHECK-NOT:     scf.for
// CHECK:         memref.store %v, %[[M]][%[[C1]], %[[C1]]] : memref<4x4xf32>
// CHECK-NEXT:    %[[X:.*]] = memref.load %[[M]][%[[C1]], %[[C1]]] : memref<4x4xf32>
// CHECK-NEXT:    func.return %[[X]] : f32
func.func @alloca_no_pad(%v: f32) -> f32 {
  %m = memref.alloca() : memref<16xf32, #layout.tag<"W->W4w">>
  %c5 = arith.constant 5 : index
  memref.store %v, %m[%c5] : memref<16xf32, #layout.tag<"W->W4w">>
  %x = memref.load %m[%c5] : memref<16xf32, #layout.tag<"W->W4w">>
  func.return %x : f32
}

// W4w on 10 pads to 12 slots, filled with the pad -1.
// FLAT-LABEL: func.func @alloca_pad(%v: f32) -> f32 {
// FLAT-NEXT:    %[[M:.*]] = memref.alloca() : memref<12xf32>
// FLAT-NEXT:    %[[PAD:.*]] = arith.constant -1.000000e+00 : f32
// FLAT:         scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// FLAT-NEXT:      memref.store %[[PAD]], %[[M]][%[[K]]] : memref<12xf32>
// CHECK-LABEL: func.func @alloca_pad(%v: f32) -> f32 {
// CHECK-NEXT:    %{{.*}} = arith.constant 1 : index
// CHECK-NEXT:    %[[M:.*]] = memref.alloca() : memref<3x4xf32>
// CHECK-NEXT:    %[[PAD:.*]] = arith.constant -1.000000e+00 : f32
// CHECK:         scf.for
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        memref.store %[[PAD]], %[[M]][%{{.*}}, %{{.*}}] : memref<3x4xf32>
func.func @alloca_pad(%v: f32) -> f32 {
  %m = memref.alloca() : memref<10xf32, #layout.tag<"W->W4w", pad = -1.0>>
  %c5 = arith.constant 5 : index
  memref.store %v, %m[%c5] : memref<10xf32, #layout.tag<"W->W4w", pad = -1.0>>
  %x = memref.load %m[%c5] : memref<10xf32, #layout.tag<"W->W4w", pad = -1.0>>
  func.return %x : f32
}

// CHECK-NOT: layout.
// FLAT-NOT: layout.
