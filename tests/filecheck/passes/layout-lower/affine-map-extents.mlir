// Builtin `affine_map` layouts get the physical shapes upstream `--normalize-memrefs` gives
// them: a `mod c` result has extent c (3 elements tiled by 4: 1x4, not 1x3), a shifted
// result its bound + 1, and a map's unused symbols drop with the alloc's symbol operands.
// REQUIRES: mlir-opt
// RUN: %mlir_opt --normalize-memrefs %s | filecheck %s --check-prefix=UPSTREAM
// RUN: layout-opt %s -p layout-lower | filecheck %s
// RUN: layout-opt %s -p layout-lower | %mlir_opt --normalize-memrefs | filecheck %s --check-prefix=UPSTREAM

// UPSTREAM-LABEL: func.func @tail(
// UPSTREAM-SAME:    memref<1x4xf32>
// UPSTREAM:         memref.alloc() : memref<1x2x4x4xf32>
// CHECK-LABEL: func.func @tail(%a: memref<1x4xf32>, %i: index) -> f32 {
// CHECK:         memref.alloc() : memref<1x2x4x4xf32>
func.func @tail(%a: memref<3xf32, affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>>, %i: index) -> f32 {
  %b = memref.alloc() : memref<3x5xf32, affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>>
  %v = affine.load %a[%i] : memref<3xf32, affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>>
  affine.store %v, %b[%i, %i] : memref<3x5xf32, affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>>
  memref.dealloc %b : memref<3x5xf32, affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>>
  return %v : f32
}

// (d0 mod 4) + 1 reaches 4 on 0..3 elements: extent 5; 2·d0 + 1 on 3 elements: extent 6.
// UPSTREAM-LABEL: func.func @shifted(
// UPSTREAM-SAME:    memref<5xf32>, %{{.*}}: memref<6xf32>
// CHECK-LABEL: func.func @shifted(%a: memref<5xf32>, %b: memref<6xf32>) -> f32 {
func.func @shifted(%a: memref<3xf32, affine_map<(d0) -> (d0 mod 4 + 1)>>, %b: memref<3xf32, affine_map<(d0) -> (d0 * 2 + 1)>>) -> f32 {
  %v = affine.load %a[2] : memref<3xf32, affine_map<(d0) -> (d0 mod 4 + 1)>>
  affine.store %v, %b[1] : memref<3xf32, affine_map<(d0) -> (d0 * 2 + 1)>>
  return %v : f32
}

// An unused symbol: upstream normalizes the alloc and drops its symbol operand; so do we.
// UPSTREAM-LABEL: func.func @unused_symbol(
// UPSTREAM:         memref.alloc() : memref<2x4xf32>
// CHECK-LABEL: func.func @unused_symbol(%n: index, %v: f32) {
// CHECK:         %[[B:.*]] = memref.alloc() : memref<2x4xf32>
// CHECK-NOT:     [%n]
// CHECK:         memref.store %v, %[[B]]
func.func @unused_symbol(%n: index, %v: f32) {
  %b = memref.alloc()[%n] : memref<7xf32, affine_map<(d0)[s0] -> (d0 floordiv 4, d0 mod 4)>>
  affine.store %v, %b[6] : memref<7xf32, affine_map<(d0)[s0] -> (d0 floordiv 4, d0 mod 4)>>
  memref.dealloc %b : memref<7xf32, affine_map<(d0)[s0] -> (d0 floordiv 4, d0 mod 4)>>
  return
}
