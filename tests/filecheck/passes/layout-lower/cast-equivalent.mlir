// memref.cast between equivalent layouts (the same offsets on the cast's shape, written in
// another notation), `?` <-> static, an identity builtin layout and an unranked memref for
// printing: all accepted, and lowered to casts of the physical buffers. The refused casts
// are in dialect/cast-layouts.mlir.
// RUN: layout-opt %s -p layout-lower | filecheck %s
// RUN: layout-opt %s -p layout-lower | %mlir_opt | filecheck %s --check-prefix=UPSTREAM
// REQUIRES: mlir-opt

// UPSTREAM: func.func @accepted
// CHECK-LABEL: func.func @accepted(%a: memref<8x4xf32>, %d: memref<8x?xf32>, %b: memref<4x8xf32>) -> (f32, f32, f32) {
// CHECK:         %p = memref.cast %a : memref<8x4xf32> to memref<8x?xf32>
// CHECK:         %q = memref.cast %d : memref<8x?xf32> to memref<8x4xf32>
// CHECK:         %r = memref.cast %b : memref<4x8xf32> to memref<4x8xf32, strided<[8, 1]>>
// CHECK:         %u = memref.cast %a : memref<8x4xf32> to memref<*xf32>
// CHECK:         %x = memref.load %p[%{{.*}}, %{{.*}}] : memref<8x?xf32>
// CHECK:         %y = memref.load %q[%{{.*}}, %{{.*}}] : memref<8x4xf32>
// CHECK:         %z = memref.load %r[%{{.*}}, %{{.*}}] : memref<4x8xf32, strided<[8, 1]>>
func.func private @printMemrefF32(memref<*xf32>)
func.func @accepted(%a: memref<4x8xf32, #layout.tag<"RC->CR">>, %d: memref<?x8xf32, #layout.tag<"RC->CR">>, %b: memref<4x8xf32>) -> (f32, f32, f32) {
  %p = "memref.cast"(%a) : (memref<4x8xf32, #layout.tag<"RC->CR">>) -> memref<?x8xf32, #layout.map<affine_map<(d0, d1) -> (d1, d0)>>>
  %q = "memref.cast"(%d) : (memref<?x8xf32, #layout.tag<"RC->CR">>) -> memref<4x8xf32, #layout.map<affine_map<(d0, d1) -> (d1, d0)>>>
  %r = "memref.cast"(%b) : (memref<4x8xf32>) -> memref<4x8xf32, strided<[8, 1]>>
  %u = "memref.cast"(%a) : (memref<4x8xf32, #layout.tag<"RC->CR">>) -> memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %x = memref.load %p[%c1, %c2] : memref<?x8xf32, #layout.map<affine_map<(d0, d1) -> (d1, d0)>>>
  %y = memref.load %q[%c1, %c2] : memref<4x8xf32, #layout.map<affine_map<(d0, d1) -> (d1, d0)>>>
  %z = memref.load %r[%c1, %c2] : memref<4x8xf32, strided<[8, 1]>>
  func.return %x, %y, %z : f32, f32, f32
}
