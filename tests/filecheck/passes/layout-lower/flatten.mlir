// layout-lower{flatten=true}: every layout-typed memref becomes a 1-D buffer of its physical
// size, indexed by the linear offset in memory order; memref.dim still answers the logical size.
// RUN: layout-opt %s -p 'layout-lower{flatten=true}' -o %t
// RUN: filecheck %s --input-file %t
// RUN: filecheck %s --input-file %t --check-prefix=NONE
// RUN: layout-opt %s -p 'layout-lower{flatten=true index=affine}' | filecheck %s --check-prefix=AFFINE
// NONE-NOT: {{#layout|layout\.}}

// nChw16c on 2x17x5x4 is 2x2x5x4x16 = 1280 slots; strides 640, 320, 64, 16, 1. The
// destination's loops are its physical digits, so its offset is a plain weighted sum.
// CHECK-LABEL: func.func @convert(%src: memref<2x17x5x4xf32>, %dst: memref<1280xf32>) {
// CHECK:         scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      scf.for %[[CB:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        scf.for %[[H:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          scf.for %[[W:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:            scf.for %[[CI:.*]] = %{{.*}} to %[[C16:.*]] step
// CHECK:                   scf.if
// CHECK-NEXT:                %[[X:.*]] = memref.load %src[%[[N]], %{{.*}}, %[[H]], %[[W]]] : memref<2x17x5x4xf32>
// CHECK-NEXT:                %[[C640:.*]] = arith.constant 640 : index
// CHECK-NEXT:                %[[A:.*]] = arith.muli %[[N]], %[[C640]] : index
// CHECK-NEXT:                %[[C320:.*]] = arith.constant 320 : index
// CHECK-NEXT:                %[[B:.*]] = arith.muli %[[CB]], %[[C320]] : index
// CHECK-NEXT:                %[[AB:.*]] = arith.addi %[[A]], %[[B]] : index
// CHECK-NEXT:                %[[C64:.*]] = arith.constant 64 : index
// CHECK-NEXT:                %[[C:.*]] = arith.muli %[[H]], %[[C64]] : index
// CHECK-NEXT:                %[[ABC:.*]] = arith.addi %[[AB]], %[[C]] : index
// CHECK-NEXT:                %[[D:.*]] = arith.muli %[[W]], %[[C16]] : index
// CHECK-NEXT:                %[[ABCD:.*]] = arith.addi %[[ABC]], %[[D]] : index
// CHECK-NEXT:                %[[OFF:.*]] = arith.addi %[[ABCD]], %[[CI]] : index
// CHECK-NEXT:                memref.store %[[X]], %dst[%[[OFF]]] : memref<1280xf32>
// CHECK-NEXT:              } else {
// CHECK:                     memref.store %{{.*}}, %dst[%{{.*}}] : memref<1280xf32>
// CHECK-NOT:     arith.divui
// CHECK:         func.return
// AFFINE-LABEL: func.func @convert(%src: memref<2x17x5x4xf32>, %dst: memref<1280xf32>) {
// AFFINE:         affine.apply affine_map<(d0, d1, d2, d3, d4) -> ((((((d0 * 640) + (d1 * 320)) + (d2 * 64)) + (d3 * 16)) + d4))>
func.func @convert(%src: memref<2x17x5x4xf32>, %dst: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw16c">>) {
  layout.convert %src to %dst : memref<2x17x5x4xf32> to memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw16c">>
  func.return
}

// "NW->NW8w" flattened: offset n·32 + (w floordiv 8)·8 + w mod 8 = n·32 + w. The vector
// stays a vector access.
// CHECK-LABEL: func.func @vector(%m: memref<64xf32>) {
// CHECK:         scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      scf.for %[[W:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        %[[R:.*]] = arith.muli %[[N]], %{{.*}} : index
// CHECK-NEXT:        %[[OFF:.*]] = arith.addi %[[R]], %[[W]] : index
// CHECK-NEXT:        %[[V:.*]] = vector.load %m[%[[OFF]]] : memref<64xf32>, vector<8xf32>
// CHECK-NEXT:        vector.store %[[V]], %m[%[[OFF]]] : memref<64xf32>, vector<8xf32>
// AFFINE-LABEL: func.func @vector(%m: memref<64xf32>) {
// AFFINE:         %[[OFF:.*]] = affine.apply affine_map<(d0, d1) -> (((d0 * 32) + d1))> (%{{.*}}, %{{.*}})
// AFFINE-NEXT:    vector.load %m[%[[OFF]]] : memref<64xf32>, vector<8xf32>
func.func @vector(%m: memref<2x32xf32, #layout.tag<"NW->NW8w">>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  scf.for %n = %c0 to %c2 step %c1 {
    scf.for %w = %c0 to %c32 step %c8 {
      %v = vector.load %m[%n, %w] : memref<2x32xf32, #layout.tag<"NW->NW8w">>, vector<8xf32>
      vector.store %v, %m[%n, %w] : memref<2x32xf32, #layout.tag<"NW->NW8w">>, vector<8xf32>
    }
  }
  func.return
}

// 4x4 tiles of 13x10 (transposed tile order), 192 slots: (j/4)·64 + (i/4)·16 + (j%4)·4 + i%4.
// CHECK-LABEL: func.func @affine_store(%m: memref<192xf32>, %v: f32) {
// CHECK:         memref.store %v, %m[%{{.*}}] : memref<192xf32>
// AFFINE-LABEL: func.func @affine_store(%m: memref<192xf32>, %v: f32) {
// AFFINE:         affine.store %v, %m[%[[I:.*]] floordiv 4 * 16 + %[[I]] mod 4 + %[[J:.*]] floordiv 4 * 64 + %[[J]] mod 4 * 4] : memref<192xf32>
func.func @affine_store(%m: memref<13x10xf32, #layout.map<affine_map<(d0, d1) -> (d1 floordiv 4, d0 floordiv 4, d1 mod 4, d0 mod 4)>>>, %v: f32) {
  affine.for %i = 0 to 13 {
    affine.for %j = 0 to 10 {
      affine.store %v, %m[%i, %j] : memref<13x10xf32, #layout.map<affine_map<(d0, d1) -> (d1 floordiv 4, d0 floordiv 4, d1 mod 4, d0 mod 4)>>>
    }
  }
  func.return
}

// CHECK-LABEL: func.func @dim(%m: memref<1280xf32>) -> index {
// CHECK-NEXT:    %[[D:.*]] = arith.constant 17 : index
// CHECK-NEXT:    func.return %[[D]] : index
func.func @dim(%m: memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw16c">>) -> index {
  %c1 = arith.constant 1 : index
  %d = memref.dim %m, %c1 : memref<2x17x5x4xf32, #layout.tag<"NCHW->nChw16c">>
  func.return %d : index
}
