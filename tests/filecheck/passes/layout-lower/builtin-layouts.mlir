// layout-lower on MLIR's builtin memref layouts: a plain `affine_map<…>` layout is lowered
// like #layout.map (heterolayout replaces --normalize-memrefs), a `strided<[…], offset: …>`
// layout like #layout.strided (a 1-D physical buffer). Each builtin function below must
// lower to the same code as its #layout twin.
// RUN: layout-opt %s -p layout-lower -o %t
// RUN: filecheck %s --input-file %t
// RUN: filecheck %s --input-file %t --check-prefix=NONE
// RUN: layout-opt %s -p 'layout-lower{index=affine}' | filecheck %s --check-prefix=AFFINE
// NONE-NOT: {{#layout|layout\.|, affine_map|, strided<}}

// 10x16 in 4x4 tiles: physical 3x4x4x4.
// CHECK-LABEL: func.func @builtin_map(%A: memref<3x4x4x4xf32>, %i: index, %j: index) -> f32 {
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[IB:.*]] = arith.divui %i, %[[C4]] : index
// CHECK-NEXT:    %[[JB:.*]] = arith.divui %j, %[[C4]] : index
// CHECK-NEXT:    %[[II:.*]] = arith.remui %i, %[[C4]] : index
// CHECK-NEXT:    %[[JI:.*]] = arith.remui %j, %[[C4]] : index
// CHECK-NEXT:    %[[X:.*]] = memref.load %A[%[[IB]], %[[JB]], %[[II]], %[[JI]]] : memref<3x4x4x4xf32>
// CHECK-NEXT:    func.return %[[X]] : f32
// CHECK-LABEL: func.func @layout_map(%A: memref<3x4x4x4xf32>, %i: index, %j: index) -> f32 {
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[IB:.*]] = arith.divui %i, %[[C4]] : index
// CHECK-NEXT:    %[[JB:.*]] = arith.divui %j, %[[C4]] : index
// CHECK-NEXT:    %[[II:.*]] = arith.remui %i, %[[C4]] : index
// CHECK-NEXT:    %[[JI:.*]] = arith.remui %j, %[[C4]] : index
// CHECK-NEXT:    %[[X:.*]] = memref.load %A[%[[IB]], %[[JB]], %[[II]], %[[JI]]] : memref<3x4x4x4xf32>
// CHECK-NEXT:    func.return %[[X]] : f32
func.func @builtin_map(%A: memref<10x16xf32, affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>>, %i: index, %j: index) -> f32 {
  %x = memref.load %A[%i, %j] : memref<10x16xf32, affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>>
  func.return %x : f32
}
func.func @layout_map(%A: memref<10x16xf32, #layout.map<affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>>>, %i: index, %j: index) -> f32 {
  %x = memref.load %A[%i, %j] : memref<10x16xf32, #layout.map<affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>>>
  func.return %x : f32
}

// An allocation with a builtin tiled layout, pad-filled (10 rows pad to 12), and an affine
// store through it.
// CHECK-LABEL: func.func @builtin_map_alloc(%i: index, %j: index, %v: f32) -> memref<3x4x4x4xf32> {
// CHECK-NEXT:    %{{.*}} = arith.constant 4 : index
// CHECK-NEXT:    %[[A:.*]] = memref.alloc() : memref<3x4x4x4xf32>
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-COUNT-4: scf.for
// CHECK-NEXT:    memref.store %[[Z]], %[[A]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<3x4x4x4xf32>
// CHECK:         memref.store %v, %[[A]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<3x4x4x4xf32>
// CHECK-NEXT:    func.return %[[A]] : memref<3x4x4x4xf32>
// AFFINE-LABEL: func.func @builtin_map_alloc(%i: index, %j: index, %v: f32) -> memref<3x4x4x4xf32> {
// AFFINE:         affine.store %v, %{{.*}}[%i floordiv 4, %j floordiv 4, %i mod 4, %j mod 4] : memref<3x4x4x4xf32>
func.func @builtin_map_alloc(%i: index, %j: index, %v: f32) -> memref<10x16xf32, affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>> {
  %A = memref.alloc() : memref<10x16xf32, affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>>
  affine.store %v, %A[%i, %j] : memref<10x16xf32, affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>>
  func.return %A : memref<10x16xf32, affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>>
}

// strided<[40, 1], offset: 3> on 4x30: memref<153xf32> indexed by 40·i + j + 3.
// CHECK-LABEL: func.func @builtin_strided(%A: memref<153xf32>, %i: index, %j: index) -> f32 {
// CHECK-NEXT:    %[[C40:.*]] = arith.constant 40 : index
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[M:.*]] = arith.muli %i, %[[C40]] : index
// CHECK-NEXT:    %[[S:.*]] = arith.addi %[[M]], %j : index
// CHECK-NEXT:    %[[OFF:.*]] = arith.addi %[[S]], %[[C3]] : index
// CHECK-NEXT:    %[[X:.*]] = memref.load %A[%[[OFF]]] : memref<153xf32>
// CHECK-NEXT:    func.return %[[X]] : f32
// CHECK-LABEL: func.func @layout_strided(%A: memref<153xf32>, %i: index, %j: index) -> f32 {
// CHECK-NEXT:    %[[C40:.*]] = arith.constant 40 : index
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[M:.*]] = arith.muli %i, %[[C40]] : index
// CHECK-NEXT:    %[[S:.*]] = arith.addi %[[M]], %j : index
// CHECK-NEXT:    %[[OFF:.*]] = arith.addi %[[S]], %[[C3]] : index
// CHECK-NEXT:    %[[X:.*]] = memref.load %A[%[[OFF]]] : memref<153xf32>
// CHECK-NEXT:    func.return %[[X]] : f32
// AFFINE-LABEL: func.func @builtin_strided(%A: memref<153xf32>, %i: index, %j: index) -> f32 {
// AFFINE-NEXT:    %[[OFF:.*]] = affine.apply affine_map<(d0, d1) -> ((((d0 * 40) + d1) + 3))> (%i, %j)
// AFFINE-NEXT:    memref.load %A[%[[OFF]]] : memref<153xf32>
func.func @builtin_strided(%A: memref<4x30xf32, strided<[40, 1], offset: 3>>, %i: index, %j: index) -> f32 {
  %x = memref.load %A[%i, %j] : memref<4x30xf32, strided<[40, 1], offset: 3>>
  func.return %x : f32
}
func.func @layout_strided(%A: memref<4x30xf32, #layout.strided<[40, 1], offset = 3>>, %i: index, %j: index) -> f32 {
  %x = memref.load %A[%i, %j] : memref<4x30xf32, #layout.strided<[40, 1], offset = 3>>
  func.return %x : f32
}
