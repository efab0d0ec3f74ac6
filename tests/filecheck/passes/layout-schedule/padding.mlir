// A padded buffer (tensor.pad, bufferized: fill the whole buffer, copy the activation into
// its interior) is filled at its border only: one fill per slab of the box minus the
// window, on subviews, each scheduled like any other nest. The interior is written once.
// RUN: layout-opt %s -p 'layout-schedule{target=avx2 fuse=false}' | filecheck %s
// RUN: layout-opt %s -p 'layout-schedule{target=avx2},layout-lower' | mlir-opt-22 --lower-affine --convert-vector-to-llvm --convert-to-llvm -o /dev/null

// CHECK-LABEL: func.func @pad(
// CHECK-DAG:     memref.subview %p[0, 0, 0, 0] [1, 16, 1, 9] [1, 1, 1, 1] : memref<1x16x7x9xf32, #layout.tag<"NCHW->nChw8c">> to memref<1x16x1x9xf32, strided<[1008, 63, 9, 1]>>
// CHECK-DAG:     memref.subview %p[0, 0, 6, 0] [1, 16, 1, 9] [1, 1, 1, 1] : memref<1x16x7x9xf32, #layout.tag<"NCHW->nChw8c">> to memref<1x16x1x9xf32, strided<[1008, 63, 9, 1], offset: 54>>
// CHECK-DAG:     memref.subview %p[0, 0, 1, 0] [1, 16, 5, 1] [1, 1, 1, 1] : memref<1x16x7x9xf32, #layout.tag<"NCHW->nChw8c">> to memref<1x16x5x1xf32, strided<[1008, 63, 9, 1], offset: 9>>
// CHECK-DAG:     memref.subview %p[0, 0, 1, 8] [1, 16, 5, 1] [1, 1, 1, 1] : memref<1x16x7x9xf32, #layout.tag<"NCHW->nChw8c">> to memref<1x16x5x1xf32, strided<[1008, 63, 9, 1], offset: 17>>
func.func @pad(%x: memref<1x16x5x7xf32>, %y: memref<1x16x7x9xf32>) {
  %pad = arith.constant -1.0 : f32
  %p = memref.alloc() : memref<1x16x7x9xf32>
  layout.assign %p to #layout.tag<"NCHW->nChw8c"> : memref<1x16x7x9xf32>
  linalg.fill ins(%pad : f32) outs(%p : memref<1x16x7x9xf32>)
  %v = memref.subview %p[0, 0, 1, 1] [1, 16, 5, 7] [1, 1, 1, 1] : memref<1x16x7x9xf32> to memref<1x16x5x7xf32, strided<[1008, 63, 9, 1], offset: 10>>
  memref.copy %x, %v : memref<1x16x5x7xf32> to memref<1x16x5x7xf32, strided<[1008, 63, 9, 1], offset: 10>>
  memref.copy %p, %y : memref<1x16x7x9xf32> to memref<1x16x7x9xf32>
  memref.dealloc %p : memref<1x16x7x9xf32>
  func.return
}
