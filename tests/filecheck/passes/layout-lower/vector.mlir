// layout-lower on vector.load / vector.store and affine.vector_load / affine.vector_store.
// A vector access stays one vector op only when its lanes provably land on one contiguous
// physical run; otherwise it is split into scalar memref.load + vector.from_elements, or
// vector.extract + memref.store. "NW->NW8w" on 2x32 is physical 2x4x8: w -> (w floordiv 8, w mod 8).
// RUN: layout-opt %s -p layout-lower -o %t
// RUN: filecheck %s --input-file %t
// RUN: filecheck %s --input-file %t --check-prefix=NONE
// RUN: layout-opt %s -p 'layout-lower{index=affine}' | filecheck %s --check-prefix=AFFINE
// NONE-NOT: {{#layout|layout\.}}

// w steps by 8 from 0: every vector<8> is one whole block (w floordiv 8, 0..7).
// CHECK-LABEL: func.func @whole_blocks(%m: memref<2x4x8xf32>) {
// CHECK:         scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      scf.for %[[W:.*]] = %[[C0:.*]] to %{{.*}} step %[[C8:.*]] {
// CHECK-NEXT:        %[[B:.*]] = arith.divui %[[W]], %[[C8]] : index
// CHECK-NEXT:        %[[V:.*]] = vector.load %m[%[[N]], %[[B]], %[[C0]]] : memref<2x4x8xf32>, vector<8xf32>
// CHECK-NEXT:        vector.store %[[V]], %m[%[[N]], %[[B]], %[[C0]]] : memref<2x4x8xf32>, vector<8xf32>
// CHECK-NEXT:      }
// CHECK-NOT:     arith.remui
// CHECK-NOT:     memref.load
// CHECK:         func.return
func.func @whole_blocks(%m: memref<2x32xf32, #layout.tag<"NW->NW8w">>) {
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

// w = 6: lanes 6, 7 are in block 0, lanes 8, 9 in block 1.
// CHECK-LABEL: func.func @crossing_load(%m: memref<2x4x8xf32>) -> vector<4xf32> {
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C6:.*]] = arith.constant 6 : index
// CHECK-DAG:     %[[C7:.*]] = arith.constant 7 : index
// CHECK-DAG:     %[[X0:.*]] = memref.load %m[%[[C0]], %[[C0]], %[[C6]]] : memref<2x4x8xf32>
// CHECK-DAG:     %[[X1:.*]] = memref.load %m[%[[C0]], %[[C0]], %[[C7]]] : memref<2x4x8xf32>
// CHECK-DAG:     %[[X2:.*]] = memref.load %m[%[[C0]], %[[C1]], %[[C0]]] : memref<2x4x8xf32>
// CHECK-DAG:     %[[X3:.*]] = memref.load %m[%[[C0]], %[[C1]], %[[C1]]] : memref<2x4x8xf32>
// CHECK:         %[[V:.*]] = vector.from_elements %[[X0]], %[[X1]], %[[X2]], %[[X3]] : vector<4xf32>
// CHECK-NEXT:    func.return %[[V]] : vector<4xf32>
// CHECK-NOT:     vector.load
func.func @crossing_load(%m: memref<2x32xf32, #layout.tag<"NW->NW8w">>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c6 = arith.constant 6 : index
  %v = vector.load %m[%c0, %c6] : memref<2x32xf32, #layout.tag<"NW->NW8w">>, vector<4xf32>
  func.return %v : vector<4xf32>
}

// An unknown start may cross a block: split, each lane with its own index code.
// CHECK-LABEL: func.func @unknown_store(%m: memref<2x4x8xf32>, %i: index, %v: vector<2xf32>) {
// CHECK-NOT:     vector.store
// CHECK:         %[[E0:.*]] = vector.extract %v[0] : f32 from vector<2xf32>
// CHECK:         %[[B0:.*]] = arith.divui %i, %[[C8:.*]] : index
// CHECK-NEXT:    %[[I0:.*]] = arith.remui %i, %[[C8]] : index
// CHECK-NEXT:    memref.store %[[E0]], %m[%{{.*}}, %[[B0]], %[[I0]]] : memref<2x4x8xf32>
// CHECK-NEXT:    %[[E1:.*]] = vector.extract %v[1] : f32 from vector<2xf32>
// CHECK:         %[[J:.*]] = arith.addi %i, %{{.*}} : index
// CHECK-NEXT:    %[[B1:.*]] = arith.divui %[[J]], %[[C8]] : index
// CHECK-NEXT:    %[[I1:.*]] = arith.remui %[[J]], %[[C8]] : index
// CHECK-NEXT:    memref.store %[[E1]], %m[%{{.*}}, %[[B1]], %[[I1]]] : memref<2x4x8xf32>
// CHECK-NEXT:    func.return
func.func @unknown_store(%m: memref<2x32xf32, #layout.tag<"NW->NW8w">>, %i: index, %v: vector<2xf32>) {
  %c0 = arith.constant 0 : index
  vector.store %v, %m[%c0, %i] : memref<2x32xf32, #layout.tag<"NW->NW8w">>, vector<2xf32>
  func.return
}

// A transposed layout ("HW->wh") puts consecutive w a whole column apart: always split.
// CHECK-LABEL: func.func @transposed(%m: memref<8x4xf32>) -> vector<4xf32> {
// CHECK-COUNT-4: memref.load %m[%{{.*}}, %{{.*}}] : memref<8x4xf32>
// CHECK:         vector.from_elements
// CHECK-NOT:     vector.load
func.func @transposed(%m: memref<4x8xf32, #layout.tag<"HW->wh">>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %v = vector.load %m[%c0, %c0] : memref<4x8xf32, #layout.tag<"HW->wh">>, vector<4xf32>
  func.return %v : vector<4xf32>
}

// affine.vector_load over whole blocks: arith mode gives a vector.load on computed
// indices, affine mode keeps an affine.vector_load with the composed map.
// CHECK-LABEL: func.func @affine_whole_blocks(%m: memref<2x4x8xf32>, %o: memref<2x32xf32>) {
// CHECK:         affine.for %[[N:.*]] = 0 to 2 {
// CHECK-NEXT:      affine.for %[[W:.*]] = 0 to 32 step 8 {
// CHECK:             %[[B:.*]] = arith.divui %[[W]], %{{.*}} : index
// CHECK:             %[[V:.*]] = vector.load %m[%[[N]], %[[B]], %{{.*}}] : memref<2x4x8xf32>, vector<8xf32>
// CHECK-NEXT:        affine.vector_store %[[V]], %o[%[[N]], %[[W]]] : memref<2x32xf32>, vector<8xf32>
// AFFINE-LABEL: func.func @affine_whole_blocks(%m: memref<2x4x8xf32>, %o: memref<2x32xf32>) {
// AFFINE-NEXT:    affine.for %[[N:.*]] = 0 to 2 {
// AFFINE-NEXT:      affine.for %[[W:.*]] = 0 to 32 step 8 {
// AFFINE-NEXT:        %[[V:.*]] = affine.vector_load %m[%[[N]], %[[W]] floordiv 8, %[[W]] mod 8] : memref<2x4x8xf32>, vector<8xf32>
// AFFINE-NEXT:        affine.vector_store %[[V]], %o[%[[N]], %[[W]]] : memref<2x32xf32>, vector<8xf32>
func.func @affine_whole_blocks(%m: memref<2x32xf32, #layout.tag<"NW->NW8w">>, %o: memref<2x32xf32>) {
  affine.for %n = 0 to 2 {
    affine.for %w = 0 to 32 step 8 {
      %v = affine.vector_load %m[%n, %w] : memref<2x32xf32, #layout.tag<"NW->NW8w">>, vector<8xf32>
      affine.vector_store %v, %o[%n, %w] : memref<2x32xf32>, vector<8xf32>
    }
  }
  func.return
}

// affine.vector_store crossing a block (w = 6 .. 9 in row 1): split in both modes.
// CHECK-LABEL: func.func @affine_crossing_store(%m: memref<2x4x8xf32>, %v: vector<4xf32>) {
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C6:.*]] = arith.constant 6 : index
// CHECK-DAG:     %[[C7:.*]] = arith.constant 7 : index
// CHECK-DAG:     %[[E0:.*]] = vector.extract %v[0] : f32 from vector<4xf32>
// CHECK-DAG:     %[[E1:.*]] = vector.extract %v[1] : f32 from vector<4xf32>
// CHECK-DAG:     %[[E2:.*]] = vector.extract %v[2] : f32 from vector<4xf32>
// CHECK-DAG:     %[[E3:.*]] = vector.extract %v[3] : f32 from vector<4xf32>
// CHECK-DAG:     memref.store %[[E0]], %m[%[[C1]], %[[C0]], %[[C6]]] : memref<2x4x8xf32>
// CHECK-DAG:     memref.store %[[E1]], %m[%[[C1]], %[[C0]], %[[C7]]] : memref<2x4x8xf32>
// CHECK-DAG:     memref.store %[[E2]], %m[%[[C1]], %[[C1]], %[[C0]]] : memref<2x4x8xf32>
// CHECK-DAG:     memref.store %[[E3]], %m[%[[C1]], %[[C1]], %[[C1]]] : memref<2x4x8xf32>
// CHECK:         func.return
// AFFINE-LABEL: func.func @affine_crossing_store(%m: memref<2x4x8xf32>, %v: vector<4xf32>) {
// AFFINE-NOT:     affine.vector_store
// AFFINE-COUNT-4: memref.store
// AFFINE-NEXT:    func.return
func.func @affine_crossing_store(%m: memref<2x32xf32, #layout.tag<"NW->NW8w">>, %v: vector<4xf32>) {
  affine.vector_store %v, %m[1, 6] : memref<2x32xf32, #layout.tag<"NW->NW8w">>, vector<4xf32>
  func.return
}
