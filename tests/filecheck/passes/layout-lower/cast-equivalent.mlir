// memref.cast between equivalent layouts (the same offsets on the cast's shape, written in
// another notation), `?` <-> static, an identity builtin layout and an unranked memref for
// printing: all accepted, and lowered to casts of the physical buffers. The refused casts are in dialect/cast-layouts.mlir.
// RUN: layout-opt %s -p layout-lower | filecheck %s
// RUN: layout-opt %s -p layout-lower | %mlir_opt | filecheck %s --check-prefix=UPSTREAM
// REQUIRES: mlir-opt

// UPSTREAM: func.func @accepted
// CHECK-LABEL: func.func @accepted(%a: memref<8x4xf32>, %b: memref<4x8xf32>) {
// CHECK-NEXT:    %p = "memref.cast"(%a) : (memref<8x4xf32>) -> memref<8x?xf32>
// CHECK-NEXT:    %q = "memref.cast"(%p) : (memref<8x?xf32>) -> memref<8x4xf32>
// CHECK-NEXT:    %r = "memref.cast"(%b) : (memref<4x8xf32>) -> memref<4x8xf32, strided<[8, 1]>>
// CHECK-NEXT:    %u = "memref.cast"(%a) : (memref<8x4xf32>) -> memref<*xf32>
func.func @accepted(%a: memref<4x8xf32, #layout.tag<"RC->CR">>, %b: memref<4x8xf32>) {
  %p = "memref.cast"(%a) : (memref<4x8xf32, #layout.tag<"RC->CR">>) -> memref<?x8xf32, #layout.map<affine_map<(d0, d1) -> (d1, d0)>>>
  %q = "memref.cast"(%p) : (memref<?x8xf32, #layout.map<affine_map<(d0, d1) -> (d1, d0)>>>) -> memref<4x8xf32, #layout.tag<"RC->CR">>
  %r = "memref.cast"(%b) : (memref<4x8xf32>) -> memref<4x8xf32, strided<[8, 1]>>
  %u = "memref.cast"(%a) : (memref<4x8xf32, #layout.tag<"RC->CR">>) -> memref<*xf32>
  func.return
}
