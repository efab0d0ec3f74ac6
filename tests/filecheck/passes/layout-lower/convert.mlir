// layout-lower on layout.convert: a loop nest walking the destination in its memory order.
// For a blocked destination the loops run over its physical dims, so the destination needs
// no index arithmetic and the logical index is rebuilt as block * 16 + inner; its pad slots
// get the pad value in the else-branch of an scf.if.
// RUN: layout-opt %s -p layout-lower -o %t
// RUN: filecheck %s --input-file %t
// RUN: filecheck %s --input-file %t --check-prefix=NONE
// RUN: layout-opt %s -p 'layout-lower{index=affine}' | filecheck %s --check-prefix=AFFINE
// NONE-NOT: {{#layout|layout\.}}

// plain 2x17x5x4 -> nChw16c (physical 2x2x5x4x16), C padded from 17 to 32 with -1.
// CHECK-LABEL: func.func @to_padded(%src: memref<2x17x5x4xf32>, %dst: memref<2x2x5x4x16xf32>) {
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C17:.*]] = arith.constant 17 : index
// CHECK:         scf.for %[[N:.*]] = %{{.*}} to %[[C2]] step
// CHECK-NEXT:      scf.for %[[CB:.*]] = %{{.*}} to %[[C2]] step
// CHECK-NEXT:        scf.for %[[H:.*]] = %{{.*}} to %[[C5]] step
// CHECK-NEXT:          scf.for %[[W:.*]] = %{{.*}} to %[[C4]] step
// CHECK-NEXT:            scf.for %[[CI:.*]] = %{{.*}} to %[[C16]] step
// CHECK-NEXT:              %[[M:.*]] = arith.muli %[[CB]], %[[C16]] : index
// CHECK-NEXT:              %[[C:.*]] = arith.addi %[[M]], %[[CI]] : index
// CHECK-NEXT:              %[[IN:.*]] = arith.cmpi ult, %[[C]], %[[C17]] : index
// CHECK-NEXT:              scf.if %[[IN]] {
// CHECK-NEXT:                %[[X:.*]] = memref.load %src[%[[N]], %[[C]], %[[H]], %[[W]]] : memref<2x17x5x4xf32>
// CHECK-NEXT:                memref.store %[[X]], %dst[%[[N]], %[[CB]], %[[H]], %[[W]], %[[CI]]] : memref<2x2x5x4x16xf32>
// CHECK-NEXT:              } else {
// CHECK-NEXT:                %[[PAD:.*]] = arith.constant -1.000000e+00 : f32
// CHECK-NEXT:                memref.store %[[PAD]], %dst[%[[N]], %[[CB]], %[[H]], %[[W]], %[[CI]]] : memref<2x2x5x4x16xf32>
// CHECK-NEXT:              }
// CHECK-NOT:     arith.divui
// CHECK-NOT:     arith.remui
// CHECK:         func.return
// AFFINE-LABEL: func.func @to_padded(
// AFFINE:         %[[C:.*]] = affine.apply affine_map<(d0, d1) -> (((d0 * 16) + d1))> (%[[CB:.*]], %[[CI:.*]])
// AFFINE-NEXT:    %[[IN:.*]] = arith.cmpi ult, %[[C]], %{{.*}} : index
// AFFINE-NEXT:    scf.if %[[IN]] {
// AFFINE-NEXT:      memref.load %src[%{{.*}}, %[[C]], %{{.*}}, %{{.*}}] : memref<2x17x5x4xf32>
func.func @to_padded(%src: memref<2x17x5x4xf32>, %dst: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw16c", pad = -1.0>>) {
  layout.convert %src to %dst : memref<2x17x5x4xf32> to memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw16c", pad = -1.0>>
  func.return
}

// nChw8c -> nChw16c on C = 16: no pad slot, so no scf.if; the destination is walked by its
// own physical index (the size-1 block loop folds), the source splits c = ci into ci/8, ci%8.
// CHECK-LABEL: func.func @blocked_to_blocked(%src: memref<2x2x5x4x8xf32>, %dst: memref<2x1x5x4x16xf32>) {
// CHECK-NOT:     scf.if
// CHECK:         scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      scf.for %[[H:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        scf.for %[[W:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          scf.for %[[CI:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:            %[[B:.*]] = arith.divui %[[CI]], %[[C8:.*]] : index
// CHECK-NEXT:            %[[I:.*]] = arith.remui %[[CI]], %[[C8]] : index
// CHECK-NEXT:            %[[X:.*]] = memref.load %src[%[[N]], %[[B]], %[[H]], %[[W]], %[[I]]] : memref<2x2x5x4x8xf32>
// CHECK-NEXT:            memref.store %[[X]], %dst[%[[N]], %{{.*}}, %[[H]], %[[W]], %[[CI]]] : memref<2x1x5x4x16xf32>
// CHECK-NOT:     scf.if
func.func @blocked_to_blocked(%src: memref<2x16x5x4xf32, #layout.tag<"NCHW->nChw8c">>, %dst: memref<2x16x5x4xf32, #layout.tag<"NCHW->nChw16c">>) {
  layout.convert %src to %dst : memref<2x16x5x4xf32, #layout.tag<"NCHW->nChw8c">> to memref<2x16x5x4xf32, #layout.tag<"NCHW->nChw16c">>
  func.return
}

// To a plain destination: logical order, loads split c.
// CHECK-LABEL: func.func @to_plain(%src: memref<2x3x5x4x8xf32>, %dst: memref<2x17x5x4xf32>) {
// CHECK:         scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        scf.for %[[H:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          scf.for %[[W:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:            %[[B:.*]] = arith.divui %[[C]], %[[C8:.*]] : index
// CHECK-NEXT:            %[[I:.*]] = arith.remui %[[C]], %[[C8]] : index
// CHECK-NEXT:            %[[X:.*]] = memref.load %src[%[[N]], %[[B]], %[[H]], %[[W]], %[[I]]] : memref<2x3x5x4x8xf32>
// CHECK-NEXT:            memref.store %[[X]], %dst[%[[N]], %[[C]], %[[H]], %[[W]]] : memref<2x17x5x4xf32>
func.func @to_plain(%src: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>, %dst: memref<2x17x5x4xf32>) {
  layout.convert %src to %dst : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">> to memref<2x17x5x4xf32>
  func.return
}

// A dynamic batch: the outer loop runs to the memref.dim of the destination's physical dim 0.
// CHECK-LABEL: func.func @dynamic(%src: memref<?x17x5x4xf32>, %dst: memref<?x5x4x17xf32>) {
// CHECK:         %[[N:.*]] = memref.dim %dst, %{{.*}} : memref<?x5x4x17xf32>
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[N]] step
func.func @dynamic(%src: memref<?x17x5x4xf32>, %dst: memref<?x17x5x4xf32, #layout.tag<"NCHW->nhwc">>) {
  layout.convert %src to %dst : memref<?x17x5x4xf32> to memref<?x17x5x4xf32, #layout.tag<"NCHW->nhwc">>
  func.return
}

// A 4x4 tiling of 13x10 (tiles in transposed order): two padded dims, both tested.
// CHECK-LABEL: func.func @to_tiles(%src: memref<13x10xf32>, %dst: memref<3x4x4x4xf32>) {
// CHECK:         scf.for %[[JB:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      scf.for %[[IB:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        scf.for %[[JJ:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          scf.for %[[II:.*]] = %{{.*}} to %{{.*}} step
// CHECK:                 %[[I:.*]] = arith.addi %{{.*}}, %[[II]] : index
// CHECK-NEXT:            %[[IOK:.*]] = arith.cmpi ult, %[[I]], %{{.*}} : index
// CHECK:                 %[[J:.*]] = arith.addi %{{.*}}, %[[JJ]] : index
// CHECK-NEXT:            %[[JOK:.*]] = arith.cmpi ult, %[[J]], %{{.*}} : index
// CHECK-NEXT:            %[[OK:.*]] = arith.andi %[[IOK]], %[[JOK]] : i1
// CHECK-NEXT:            scf.if %[[OK]] {
// CHECK-NEXT:              %[[X:.*]] = memref.load %src[%[[I]], %[[J]]] : memref<13x10xf32>
// CHECK-NEXT:              memref.store %[[X]], %dst[%[[JB]], %[[IB]], %[[JJ]], %[[II]]] : memref<3x4x4x4xf32>
// CHECK-NEXT:            } else {
// CHECK-NEXT:              %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:              memref.store %[[Z]], %dst[%[[JB]], %[[IB]], %[[JJ]], %[[II]]] : memref<3x4x4x4xf32>
func.func @to_tiles(%src: memref<13x10xf32>, %dst: memref<13x10xf32, #layout.map<affine_map<(d0, d1) -> (d1 floordiv 4, d0 floordiv 4, d1 mod 4, d0 mod 4)>>>) {
  layout.convert %src to %dst : memref<13x10xf32> to memref<13x10xf32, #layout.map<affine_map<(d0, d1) -> (d1 floordiv 4, d0 floordiv 4, d1 mod 4, d0 mod 4)>>>
  func.return
}

// A strided destination has no digit structure: its 153 slots are pre-filled with the pad
// (the 33 gaps and the offset), then the logical elements are stored at 40·i + j + 3.
// CHECK-LABEL: func.func @to_strided(%src: memref<4x30xf32>, %dst: memref<153xf32>) {
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[C153:.*]] = arith.constant 153 : index
// CHECK:         scf.for %[[K:.*]] = %{{.*}} to %[[C153]] step
// CHECK-NEXT:      memref.store %[[Z]], %dst[%[[K]]] : memref<153xf32>
// CHECK-NEXT:    }
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        %[[X:.*]] = memref.load %src[%[[I]], %[[J]]] : memref<4x30xf32>
// CHECK-NEXT:        %[[R:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK-NEXT:        %[[S:.*]] = arith.addi %[[R]], %[[J]] : index
// CHECK-NEXT:        %[[OFF:.*]] = arith.addi %[[S]], %{{.*}} : index
// CHECK-NEXT:        memref.store %[[X]], %dst[%[[OFF]]] : memref<153xf32>
func.func @to_strided(%src: memref<4x30xf32>, %dst: memref<4x30xf32, #layout.strided<[40, 1], offset = 3>>) {
  layout.convert %src to %dst : memref<4x30xf32> to memref<4x30xf32, #layout.strided<[40, 1], offset = 3>>
  func.return
}

// Round trips: A -> B -> A with nothing in between folds away with B's allocation;
// A -> B -> C with C of A's type becomes one physical copy A -> C.
// CHECK-LABEL: func.func @round_trip(%a: memref<2x3x5x4x8xf32>) {
// CHECK-NEXT:    func.return
func.func @round_trip(%a: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>) {
  %b = memref.alloc() : memref<2x17x5x4xf32, #layout.tag<"NCHW->nhwc">>
  layout.convert %a to %b : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">> to memref<2x17x5x4xf32, #layout.tag<"NCHW->nhwc">>
  layout.convert %b to %a : memref<2x17x5x4xf32, #layout.tag<"NCHW->nhwc">> to memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
  memref.dealloc %b : memref<2x17x5x4xf32, #layout.tag<"NCHW->nhwc">>
  func.return
}

// CHECK-LABEL: func.func @round_trip_to_other(%a: memref<2x3x5x4x8xf32>, %c: memref<2x3x5x4x8xf32>) {
// CHECK-NEXT:    memref.copy %a, %c : memref<2x3x5x4x8xf32> to memref<2x3x5x4x8xf32>
// CHECK-NEXT:    func.return
func.func @round_trip_to_other(%a: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>, %c: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>) {
  %b = memref.alloc() : memref<2x17x5x4xf32, #layout.tag<"NCHW->nhwc">>
  layout.convert %a to %b : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">> to memref<2x17x5x4xf32, #layout.tag<"NCHW->nhwc">>
  layout.convert %b to %c : memref<2x17x5x4xf32, #layout.tag<"NCHW->nhwc">> to memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
  memref.dealloc %b : memref<2x17x5x4xf32, #layout.tag<"NCHW->nhwc">>
  func.return
}

// A store into B between the two converts: nothing folds, both loop nests stay.
// CHECK-LABEL: func.func @round_trip_written(%a: memref<2x3x5x4x8xf32>, %v: f32) {
// CHECK:         %[[B:.*]] = memref.alloc() : memref<2x5x4x17xf32>
// CHECK:         memref.store %{{.*}}, %[[B]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<2x5x4x17xf32>
// CHECK:         memref.store %v, %[[B]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<2x5x4x17xf32>
// CHECK:         memref.store %{{.*}}, %a[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<2x3x5x4x8xf32>
// CHECK:         memref.dealloc %[[B]] : memref<2x5x4x17xf32>
func.func @round_trip_written(%a: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>, %v: f32) {
  %b = memref.alloc() : memref<2x17x5x4xf32, #layout.tag<"NCHW->nhwc">>
  %c0 = arith.constant 0 : index
  layout.convert %a to %b : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">> to memref<2x17x5x4xf32, #layout.tag<"NCHW->nhwc">>
  memref.store %v, %b[%c0, %c0, %c0, %c0] : memref<2x17x5x4xf32, #layout.tag<"NCHW->nhwc">>
  layout.convert %b to %a : memref<2x17x5x4xf32, #layout.tag<"NCHW->nhwc">> to memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw8c">>
  memref.dealloc %b : memref<2x17x5x4xf32, #layout.tag<"NCHW->nhwc">>
  func.return
}
