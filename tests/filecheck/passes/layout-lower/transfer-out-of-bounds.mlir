// layout-lower on vector.transfer_read/write that may run out of bounds or are masked (the
// padding form upstream's vectorizer emits) on layout-typed memrefs. A lane outside the
// logical extent of the walked dim, or masked off, reads the padding and is not written:
// nChw8c with C = 5 keeps pad slots for c = 5..7 in the physical buffer, which a lane past
// the logical end must neither read nor write. Lanes the index ranges decide need no guard;
// the others get `scf.if start + t < extent` (and their mask lane); without a mask,
// `scf.if start + length <= extent` first takes the transfer whole where all lanes are in.
// RUN: layout-opt %s -p layout-lower -o %t
// RUN: filecheck %s --input-file %t
// RUN: filecheck %s --input-file %t --check-prefix=NONE
// RUN: layout-opt %s -p 'layout-lower{validate=verbose}' -o /dev/null 2>&1 | filecheck %s --check-prefix=VALID
// NONE-NOT: {{#layout|layout\.|vector.transfer}}

// c = 0 on C = 5: lanes 0..4 are in, 5..7 the padding; no guard.
// CHECK-LABEL: func.func @static_edge(%a: memref<1x1x2x3x8xf32>, %out: memref<1x1x2x3x8xf32>) {
// CHECK-NOT:     scf.if
// CHECK-COUNT-5: memref.load %a[
// CHECK-NEXT:    %[[V:.*]] = vector.from_elements %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %pad, %pad, %pad : vector<8xf32>
// CHECK-COUNT-5: memref.store %{{.*}}, %out[
// CHECK-NOT:     memref.store
// CHECK:         func.return
// VALID: remark: vector.transfer_read, guarded lane by lane (5 lanes accessed), proven exhaustively over 30 element accesses
// VALID: remark: vector.transfer_write, guarded lane by lane (5 lanes accessed), proven exhaustively over 30 element accesses
func.func @static_edge(%a: memref<1x5x2x3xf32, #layout.tag<"NCHW->nChw8c", pad = 9.0>>, %out: memref<1x5x2x3xf32, #layout.tag<"NCHW->nChw8c", pad = 9.0>>) {
  %pad = arith.constant -7.0 : f32
  %c0 = arith.constant 0 : index
  affine.for %h = 0 to 2 {
    affine.for %w = 0 to 3 {
      %v = vector.transfer_read %a[%c0, %c0, %h, %w], %pad {permutation_map = affine_map<(d0, d1, d2, d3) -> (d1)>} : memref<1x5x2x3xf32, #layout.tag<"NCHW->nChw8c", pad = 9.0>>, vector<8xf32>
      vector.transfer_write %v, %out[%c0, %c0, %h, %w] {permutation_map = affine_map<(d0, d1, d2, d3) -> (d1)>} : vector<8xf32>, memref<1x5x2x3xf32, #layout.tag<"NCHW->nChw8c", pad = 9.0>>
    }
  }
  return
}

// c in {0, 8} on C = 13: the first block is whole (one vector.load), the second has lanes
// 0..4 in and 5..7 guarded.
// CHECK-LABEL: func.func @loop_edge(%a: memref<2x8xf32>) -> vector<8xf32> {
// CHECK:         scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %[[C8:.*]] iter_args(%{{.*}} = %{{.*}}) -> (vector<8xf32>) {
// CHECK-NEXT:      %[[END:.*]] = arith.addi %[[C]], %[[C8]] : index
// CHECK-NEXT:      %[[ALL:.*]] = arith.cmpi ule, %[[END]], %[[C13:.*]] : index
// CHECK:           %[[L5:.*]] = arith.cmpi ult, %{{.*}}, %[[C13]] : index
// CHECK:           %[[V:.*]] = scf.if %[[ALL]] -> (vector<8xf32>) {
// CHECK-NEXT:        %[[B:.*]] = arith.divui %[[C]], %[[C8]] : index
// CHECK-NEXT:        %[[W:.*]] = vector.load %a[%[[B]], %{{.*}}] : memref<2x8xf32>, vector<8xf32>
// CHECK-NEXT:        scf.yield %[[W]] : vector<8xf32>
// CHECK-NEXT:      } else {
// CHECK-COUNT-5:     memref.load %a
// CHECK-NEXT:        %{{.*}} = scf.if %[[L5]] -> (f32) {
// CHECK-NEXT:          memref.load %a
// CHECK-NEXT:          scf.yield
// CHECK-NEXT:        } else {
// CHECK-NEXT:          scf.yield %pad : f32
// CHECK-NEXT:        }
// CHECK:             vector.from_elements
// VALID: remark: vector.transfer_read, guarded lane by lane (8 lanes accessed), after an all-inside test, proven exhaustively over 21 element accesses
func.func @loop_edge(%a: memref<13xf32, #layout.tag<"C->C8c">>) -> vector<8xf32> {
  %pad = arith.constant -7.0 : f32
  %zero = arith.constant dense<0.0> : vector<8xf32>
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c13 = arith.constant 13 : index
  %sum = scf.for %c = %c0 to %c13 step %c8 iter_args(%acc = %zero) -> (vector<8xf32>) {
    %v = vector.transfer_read %a[%c], %pad : memref<13xf32, #layout.tag<"C->C8c">>, vector<8xf32>
    %s = arith.addf %acc, %v : vector<8xf32>
    scf.yield %s : vector<8xf32>
  }
  return %sum : vector<8xf32>
}

// A run-time start and a mask: every lane guarded by its index and its mask lane.
// CHECK-LABEL: func.func @masked(%a: memref<2x8xf32>, %s: index, %m: vector<8xi1>, %v: vector<8xf32>) {
// CHECK:         %[[IN0:.*]] = arith.cmpi ult, %s, %[[C13:.*]] : index
// CHECK:         %[[M0:.*]] = vector.extract %m[0] : i1 from vector<8xi1>
// CHECK-NEXT:    %[[G0:.*]] = arith.andi %[[IN0]], %[[M0]] : i1
// CHECK-NEXT:    scf.if %[[G0]] {
// CHECK-NEXT:      %[[E0:.*]] = vector.extract %v[0] : f32 from vector<8xf32>
// CHECK:           memref.store %[[E0]], %a[
// CHECK:         vector.extract %m[7] : i1 from vector<8xi1>
// CHECK-NOT:     vector.store
// VALID: remark: vector.transfer_write, guarded lane by lane (8 lanes accessed), proven exhaustively over 76 element accesses
func.func @masked(%a: memref<13xf32, #layout.tag<"C->C8c">>, %s: index, %m: vector<8xi1>, %v: vector<8xf32>) {
  vector.transfer_write %v, %a[%s], %m : vector<8xf32>, memref<13xf32, #layout.tag<"C->C8c">>
  return
}

// Through a view with a run-time window, the extent is the view's (5), not the root's: the
// lanes are guarded on the view, then folded into the root.
// CHECK-LABEL: func.func @runtime_view(%a: memref<2x2x8xf32>, %o: index, %i: index) -> (vector<8xf32>, vector<8xf32>) {
// CHECK:         %[[C5:.*]] = arith.constant 5 : index
// CHECK:         %[[IN7:.*]] = arith.cmpi ult, %{{.*}}, %[[C5]] : index
// CHECK-NEXT:    %{{.*}} = scf.if %[[IN7]] -> (f32) {
// CHECK:         %[[W:.*]] = vector.from_elements
// CHECK-NOT:     scf.if
// CHECK:         %[[X:.*]] = vector.from_elements %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %pad, %pad, %pad : vector<8xf32>
// CHECK-NEXT:    func.return %[[W]], %[[X]] : vector<8xf32>, vector<8xf32>
func.func @runtime_view(%a: memref<2x16xf32, #layout.tag<"NC->NC8c">>, %o: index, %i: index) -> (vector<8xf32>, vector<8xf32>) {
  %pad = arith.constant -7.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = memref.subview %a[%c1, %o] [1, 5] [1, 1] : memref<2x16xf32, #layout.tag<"NC->NC8c">> to memref<5xf32, strided<[1], offset: ?>>
  %w = vector.transfer_read %s[%i], %pad : memref<5xf32, strided<[1], offset: ?>>, vector<8xf32>
  %x = vector.transfer_read %s[%c0], %pad : memref<5xf32, strided<[1], offset: ?>>, vector<8xf32>
  return %w, %x : vector<8xf32>, vector<8xf32>
}

// A 2-D transfer becomes one 1-D transfer per row: rows along h (the third, h = 2, lies past
// H = 2: the padding, statically), lanes along c (5..7 past C = 5: the padding).
// CHECK-LABEL: func.func @rows(%a: memref<1x1x2x3x8xf32>) -> vector<3x8xf32> {
// CHECK:         %[[P:.*]] = vector.broadcast %pad : f32 to vector<3x8xf32>
// CHECK-COUNT-5: memref.load %a[
// CHECK-NEXT:    %[[R0:.*]] = vector.from_elements %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %pad, %pad, %pad : vector<8xf32>
// CHECK-NEXT:    %[[V0:.*]] = vector.insert %[[R0]], %[[P]] [0] : vector<8xf32> into vector<3x8xf32>
// CHECK-COUNT-5: memref.load %a[
// CHECK-NEXT:    %[[R1:.*]] = vector.from_elements
// CHECK-NEXT:    %[[V1:.*]] = vector.insert %[[R1]], %[[V0]] [1] : vector<8xf32> into vector<3x8xf32>
// CHECK-NEXT:    func.return %[[V1]] : vector<3x8xf32>
// VALID-COUNT-2: remark: vector.transfer_read, guarded lane by lane (5 lanes accessed), proven exhaustively over 5 element accesses
func.func @rows(%a: memref<1x5x2x3xf32, #layout.tag<"NCHW->nChw8c">>) -> vector<3x8xf32> {
  %pad = arith.constant -7.0 : f32
  %c0 = arith.constant 0 : index
  %v = vector.transfer_read %a[%c0, %c0, %c0, %c0], %pad {permutation_map = affine_map<(d0, d1, d2, d3) -> (d2, d1)>} : memref<1x5x2x3xf32, #layout.tag<"NCHW->nChw8c">>, vector<3x8xf32>
  return %v : vector<3x8xf32>
}

// VALID: layout-lower: translation validation: 19 of 19 accesses proven
