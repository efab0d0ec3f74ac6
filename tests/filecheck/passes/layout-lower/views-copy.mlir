// Copies through views with run-time windows, as upstream tiling and bufferization emit
// them: `memref.copy` and `layout.convert` from or into such a view become loops of loads
// and stores of the root (`linalg.copy`, then view folding); a copy of a window onto the
// same window (what bufferization leaves after a tiled op wrote its tile in place) goes
// away. Upstream requires a non-empty subview inside its source and an access inside its
// view, so the offsets and view indices are known non-negative: the index code divides
// unsigned (divui/remui) as for static offsets, and translation validation proves it with
// those facts.
// RUN: layout-opt %s -p layout-lower | filecheck %s
// RUN: layout-opt %s -p layout-lower | mlir-opt-22 | filecheck %s --check-prefix=UPSTREAM
// RUN: layout-opt %s -p 'layout-lower{validate=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=VALID

// VALID: layout-lower: translation validation: 6 of 6 accesses proven

// UPSTREAM: func.func @copy_out
// CHECK-LABEL: func.func @copy_out(%a: memref<4x16xf32>, %b: memref<16xf32>, %n: index) {
// CHECK-NOT:   memref.subview
// CHECK:       scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:    %[[CH:.*]] = arith.addi %n, %[[K]] : index
// CHECK-NEXT:    %[[BLOCK:.*]] = arith.divui %[[CH]], %{{.*}} : index
// CHECK-NEXT:    %[[LANE:.*]] = arith.remui %[[CH]], %{{.*}} : index
// CHECK-NEXT:    %[[V:.*]] = memref.load %a[%[[BLOCK]], %[[LANE]]] : memref<4x16xf32>
// CHECK-NEXT:    memref.store %[[V]], %b[%[[K]]] : memref<16xf32>
// CHECK-NOT:   memref.copy
func.func @copy_out(%a: memref<64xf32, #layout.tag<"C->C16c">>, %b: memref<16xf32>, %n: index) {
  %s = memref.subview %a[%n] [16] [1] : memref<64xf32, #layout.tag<"C->C16c">> to memref<16xf32, strided<[1], offset: ?>>
  memref.copy %s, %b : memref<16xf32, strided<[1], offset: ?>> to memref<16xf32>
  func.return
}

// Into a window with a run-time size: the inner loop runs to memref.dim of the source.
// CHECK-LABEL: func.func @copy_in(%a: memref<2x4x4x16xf32>, %b: memref<4x?xf32>, %i: index, %j: index, %m: index) {
// CHECK:       %[[N:.*]] = memref.dim %b, %{{.*}} : memref<4x?xf32>
// CHECK:       scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:    scf.for %[[C:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK-NEXT:      %[[V:.*]] = memref.load %b[%[[R]], %[[C]]] : memref<4x?xf32>
// CHECK-NOT:       floordivsi
// CHECK-NOT:       select
// CHECK:           memref.store %[[V]], %a[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<2x4x4x16xf32>
func.func @copy_in(%a: memref<8x64xf32, #layout.tag<"HC->hC4h16c">>, %b: memref<4x?xf32>, %i: index, %j: index, %m: index) {
  %s = memref.subview %a[%i, %j] [4, %m] [1, 1] : memref<8x64xf32, #layout.tag<"HC->hC4h16c">> to memref<4x?xf32, strided<[64, 1], offset: ?>>
  memref.copy %b, %s : memref<4x?xf32> to memref<4x?xf32, strided<[64, 1], offset: ?>>
  func.return
}

// A tile filled in place and copied onto itself: the fill's loops remain, the copy is gone.
// CHECK-LABEL: func.func @onto_itself(%a: memref<2x4x4x16xf32>, %i: index, %m: index) {
// CHECK:       scf.for
// CHECK:         scf.for
// CHECK:           memref.store %cst, %a
// CHECK-NOT:   scf.for
// CHECK-NOT:   memref.copy
// CHECK:       func.return
func.func @onto_itself(%a: memref<8x64xf32, #layout.tag<"HC->hC4h16c">>, %i: index, %m: index) {
  %cst = arith.constant 1.0 : f32
  %s = memref.subview %a[%i, 0] [%m, 64] [1, 1] : memref<8x64xf32, #layout.tag<"HC->hC4h16c">> to memref<?x64xf32, strided<[64, 1], offset: ?>>
  linalg.fill ins(%cst : f32) outs(%s : memref<?x64xf32, strided<[64, 1], offset: ?>>)
  %t = memref.subview %a[%i, 0] [%m, 64] [1, 1] : memref<8x64xf32, #layout.tag<"HC->hC4h16c">> to memref<?x64xf32, strided<[64, 1], offset: ?>>
  memref.copy %s, %t : memref<?x64xf32, strided<[64, 1], offset: ?>> to memref<?x64xf32, strided<[64, 1], offset: ?>>
  func.return
}

// layout.convert of a run-time window into another layout: one loop, both sides lean.
// CHECK-LABEL: func.func @convert_window(%a: memref<4x16xf32>, %t: memref<4x4xf32>, %n: index) {
// CHECK:       scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:    %[[CH:.*]] = arith.addi %n, %[[K]] : index
// CHECK-NEXT:    arith.divui %[[CH]]
// CHECK-NEXT:    arith.remui %[[CH]]
// CHECK-NEXT:    %[[V:.*]] = memref.load %a
// CHECK-NEXT:    arith.divui %[[K]]
// CHECK-NEXT:    arith.remui %[[K]]
// CHECK-NEXT:    memref.store %[[V]], %t
func.func @convert_window(%a: memref<64xf32, #layout.tag<"C->C16c">>, %t: memref<16xf32, #layout.tag<"C->C4c">>, %n: index) {
  %s = memref.subview %a[%n] [16] [1] : memref<64xf32, #layout.tag<"C->C16c">> to memref<16xf32, strided<[1], offset: ?>>
  layout.convert %s to %t : memref<16xf32, strided<[1], offset: ?>> to memref<16xf32, #layout.tag<"C->C4c">>
  func.return
}

// A view of a view with two run-time offsets: the root index %p + %q + c is known in
// bounds, not each offset alone, so the index code keeps floor division (correct, not lean).
// CHECK-LABEL: func.func @chain(%a: memref<4x16xf32>, %p: index, %q: index, %c: index) -> f32 {
// CHECK:       arith.floordivsi
// CHECK:       arith.select
func.func @chain(%a: memref<64xf32, #layout.tag<"C->C16c">>, %p: index, %q: index, %c: index) -> f32 {
  %s = memref.subview %a[%p] [32] [1] : memref<64xf32, #layout.tag<"C->C16c">> to memref<32xf32, strided<[1], offset: ?>>
  %t = memref.subview %s[%q] [16] [1] : memref<32xf32, strided<[1], offset: ?>> to memref<16xf32, strided<[1], offset: ?>>
  %v = memref.load %t[%c] : memref<16xf32, strided<[1], offset: ?>>
  func.return %v : f32
}
