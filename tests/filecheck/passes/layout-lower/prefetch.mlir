// layout-lower on memref.prefetch and affine.prefetch of layout-typed memrefs: the same hint
// (read/write, locality, data/instr kept) on the physical buffer at the physical index, of the
// element's container when packed; affine.prefetch stays affine with index=affine. A prefetch
// through a view with a run-time window prefetches the root. (upstream's prefetch_normalize:
// mlir/test/Dialect/MemRef/normalize-memrefs-ops.mlir.)
// RUN: layout-opt %s -p layout-lower -o %t
// RUN: filecheck %s --input-file %t
// RUN: filecheck %s --input-file %t --check-prefix=NONE
// RUN: layout-opt %s -p 'layout-lower{index=affine}' | filecheck %s --check-prefix=AFFINE
// RUN: layout-opt %s -p 'layout-lower{flatten=true}' | filecheck %s --check-prefix=FLAT
// NONE-NOT: {{#layout|layout\.|, affine_map}}

// CHECK-LABEL: func.func @prefetch_normalize(%arg0: memref<16x32xf32>) {
// CHECK:         affine.for %[[I:.*]] = 0 to 8 {
// CHECK-NEXT:      memref.prefetch %arg0[%{{.*}}, %[[I]]], read, locality<3>, data : memref<16x32xf32>
// AFFINE-LABEL: func.func @prefetch_normalize(%arg0: memref<16x32xf32>) {
// AFFINE:         affine.prefetch %arg0[0, %{{.*}}], read, locality<3>, data : memref<16x32xf32>
// FLAT-LABEL:   func.func @prefetch_normalize(%arg0: memref<512xf32>) {
// FLAT:           memref.prefetch %arg0[%{{.*}}], read, locality<3>, data : memref<512xf32>
func.func @prefetch_normalize(%arg0: memref<512xf32, affine_map<(d0) -> (d0 floordiv 32, d0 mod 32)>>) -> () {
  affine.for %arg3 = 0 to 8  {
    affine.prefetch %arg0[%arg3], read, locality<3>, data : memref<512xf32, affine_map<(d0) -> (d0 floordiv 32, d0 mod 32)>>
  }
  return
}

// nChw8c: c = 11 is block 1, lane 3.
// CHECK-LABEL: func.func @blocked(%m: memref<2x3x4x4x8xf32>, %h: index) {
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:         memref.prefetch %m[%[[C1]], %[[C1]], %h, %[[C0]], %[[C3]]], write, locality<1>, instr : memref<2x3x4x4x8xf32>
// AFFINE-LABEL: func.func @blocked(
// AFFINE:         memref.prefetch %m[
func.func @blocked(%m: memref<2x17x4x4xf32, #layout.tag<"NCHW->nChw8c">>, %h: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c11 = arith.constant 11 : index
  memref.prefetch %m[%c1, %c11, %h, %c0], write, locality<1>, instr : memref<2x17x4x4xf32, #layout.tag<"NCHW->nChw8c">>
  return
}

// Six i1 lanes per i6 container: (n, c) is container (n, c floordiv 6).
// CHECK-LABEL: func.func @packed(%b: memref<4x2xi6>, %n: index) {
// CHECK:         %[[Q:.*]] = arith.divui %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    memref.prefetch %b[%n, %[[Q]]], read, locality<0>, data : memref<4x2xi6>
// AFFINE-LABEL: func.func @packed(%b: memref<4x2xi6>, %n: index) {
// AFFINE:         affine.prefetch %b[%n, (%{{.*}} + 3) floordiv 6], read, locality<0>, data : memref<4x2xi6>
func.func @packed(%b: memref<4x12xi1, #layout.tag<"NC->NC6c", pack = i6>>, %n: index) {
  affine.for %c = 0 to 9 {
    affine.prefetch %b[%n, %c + 3], read, locality<0>, data : memref<4x12xi1, #layout.tag<"NC->NC6c", pack = i6>>
  }
  return
}

// A static window has its own layout; a run-time one folds into the root's index.
// CHECK-LABEL: func.func @views(%a: memref<4x2x8xf32>, %o: index) {
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK:         memref.prefetch %a[%[[C2]], %[[C0]], %[[C3]]], read, locality<3>, data : memref<4x2x8xf32>
// CHECK:         memref.prefetch %a[%o, %[[C0]], %[[C1]]], read, locality<2>, data : memref<4x2x8xf32>
func.func @views(%a: memref<4x16xf32, #layout.tag<"NC->NC8c">>, %o: index) {
  %c1 = arith.constant 1 : index
  %s = memref.subview %a[1, 2] [2, 8] [1, 1] : memref<4x16xf32, #layout.tag<"NC->NC8c">> to memref<2x8xf32, strided<[16, 1], offset: 18>>
  memref.prefetch %s[%c1, %c1], read, locality<3>, data : memref<2x8xf32, strided<[16, 1], offset: 18>>
  %r = memref.subview %a[%o, 0] [1, 16] [1, 1] : memref<4x16xf32, #layout.tag<"NC->NC8c">> to memref<16xf32, strided<[1], offset: ?>>
  memref.prefetch %r[%c1], read, locality<2>, data : memref<16xf32, strided<[1], offset: ?>>
  return
}
