// layout-lower on allocations whose '?' dims a builtin affine_map tiles: the physical type
// is upstream --normalize-memrefs' (every result that uses a '?' dim is '?'), and the sizes
// are computed from the logical ones as upstream sizes them (a tile's `X floordiv c` gets
// `X ceildiv c`, its `X mod c` gets c), in lean index code: `(n + 3) divui 4`.
// REQUIRES: mlir-opt
// RUN: layout-opt %s -p layout-lower | filecheck %s
// RUN: layout-opt %s -p 'layout-lower{index=affine}' | filecheck %s --check-prefix=AFFINE
// RUN: layout-opt %s -p 'layout-lower{validate=true}' | %mlir_opt | filecheck %s --check-prefix=UPSTREAM
// RUN: %mlir_opt --normalize-memrefs %s | filecheck %s --check-prefix=UPSTREAM

// UPSTREAM-LABEL: func.func @tile_1d(
// UPSTREAM-SAME:    -> memref<?x?xf32>
// UPSTREAM:         memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?xf32>
// CHECK-LABEL: func.func @tile_1d(%n: index) -> memref<?x?xf32> {
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[SUM:.*]] = arith.addi %n, %[[C3]] : index
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[TILES:.*]] = arith.divui %[[SUM]], %[[C4]] : index
// CHECK-NEXT:    %a = memref.alloc(%[[TILES]], %[[C4]]) : memref<?x?xf32>
// AFFINE-LABEL: func.func @tile_1d(
// AFFINE:         %[[TILES:.*]] = affine.apply affine_map<(d0) -> (((d0 + 3) floordiv 4))> (%n)
// AFFINE:         memref.alloc(%[[TILES]], %{{.*}}) : memref<?x?xf32>
func.func @tile_1d(%n: index) -> memref<?xf32, affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>> {
  %a = memref.alloc(%n) : memref<?xf32, affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>>
  return %a : memref<?xf32, affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>>
}

// Both dims tiled and dynamic.
// UPSTREAM-LABEL: func.func @tile_2d(
// UPSTREAM-SAME:    -> memref<?x?x?x?xf32>
// CHECK-LABEL: func.func @tile_2d(%n: index, %m: index) -> memref<?x?x?x?xf32> {
// CHECK:         %[[C32:.*]] = arith.constant 32 : index
// CHECK:         %[[ROWS:.*]] = arith.divui %{{.*}}, %[[C32]] : index
// CHECK:         %[[C64:.*]] = arith.constant 64 : index
// CHECK:         %[[COLS:.*]] = arith.divui %{{.*}}, %[[C64]] : index
// CHECK-NEXT:    %a = memref.alloc(%[[ROWS]], %[[COLS]], %[[C32]], %[[C64]]) : memref<?x?x?x?xf32>
func.func @tile_2d(%n: index, %m: index) -> memref<?x?xf32, affine_map<(d0, d1) -> (d0 floordiv 32, d1 floordiv 64, d0 mod 32, d1 mod 64)>> {
  %a = memref.alloc(%n, %m) : memref<?x?xf32, affine_map<(d0, d1) -> (d0 floordiv 32, d1 floordiv 64, d0 mod 32, d1 mod 64)>>
  return %a : memref<?x?xf32, affine_map<(d0, d1) -> (d0 floordiv 32, d1 floordiv 64, d0 mod 32, d1 mod 64)>>
}

// One dynamic dim of two, in an alloca: the static dim's results stay static.
// UPSTREAM-LABEL: func.func @tile_2d_one_dynamic(
// UPSTREAM:         memref.alloca(%{{.*}}, %{{.*}}) : memref<3x?x32x?xf32>
// CHECK-LABEL: func.func @tile_2d_one_dynamic(%m: index) {
// CHECK:         %[[COLS:.*]] = arith.divui
// CHECK-NEXT:    %a = memref.alloca(%[[COLS]], %{{.*}}) : memref<3x?x32x?xf32>
func.func @tile_2d_one_dynamic(%m: index) {
  %a = memref.alloca(%m) : memref<70x?xf32, affine_map<(d0, d1) -> (d0 floordiv 32, d1 floordiv 64, d0 mod 32, d1 mod 64)>>
  return
}

// A shifted tile: `(n + 3) ceildiv 4` tiles, computed as `(n + 2) divui 4 + 1`.
// UPSTREAM-LABEL: func.func @shifted(
// UPSTREAM-SAME:    -> memref<?x?xf32>
// CHECK-LABEL: func.func @shifted(%n: index) -> memref<?x?xf32> {
// CHECK:         %[[Q:.*]] = arith.divui
// CHECK:         %[[TILES:.*]] = arith.addi %[[Q]], %{{.*}} : index
// CHECK-NEXT:    %a = memref.alloc(%[[TILES]], %{{.*}}) : memref<?x?xf32>
func.func @shifted(%n: index) -> memref<?xf32, affine_map<(d0) -> ((d0 + 3) floordiv 4, (d0 + 3) mod 4)>> {
  %a = memref.alloc(%n) : memref<?xf32, affine_map<(d0) -> ((d0 + 3) floordiv 4, (d0 + 3) mod 4)>>
  return %a : memref<?xf32, affine_map<(d0) -> ((d0 + 3) floordiv 4, (d0 + 3) mod 4)>>
}
