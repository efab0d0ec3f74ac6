// What upstream's bufferization makes of a tensor-level linalg program: fully dynamic strided
// arguments, static strided subviews, copies between views and buffers. Generated with
// mlir-opt-22 --one-shot-bufferize=bufferize-function-boundaries from:
//   func.func @matmul_bias(%A: tensor<4x8xf32>, %B: tensor<8x16xf32>, %bias: tensor<16xf32>) -> tensor<4x16xf32> {
//     %zero = arith.constant 0.0 : f32
//     %init = tensor.empty() : tensor<4x16xf32>
//     %filled = linalg.fill ins(%zero : f32) outs(%init : tensor<4x16xf32>) -> tensor<4x16xf32>
//     %mm = linalg.matmul ins(%A, %B : tensor<4x8xf32>, tensor<8x16xf32>) outs(%filled : tensor<4x16xf32>) -> tensor<4x16xf32>
//     %out = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %bias : tensor<4x16xf32>, tensor<16xf32>) outs(%init : tensor<4x16xf32>) {
//     ^bb0(%x: f32, %b: f32, %o: f32):
//       %s = arith.addf %x, %b : f32
//       %r = arith.maximumf %s, %zero : f32
//       linalg.yield %r : f32
//     } -> tensor<4x16xf32>
//     %slice = tensor.extract_slice %out[0, 4] [2, 8] [1, 1] : tensor<4x16xf32> to tensor<2x8xf32>
//     %ins = tensor.insert_slice %slice into %out[2, 0] [2, 8] [1, 1] : tensor<2x8xf32> into tensor<4x16xf32>
//     return %ins : tensor<4x16xf32>
//   }
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @matmul_bias(%arg0: memref<4x8xf32, strided<[?, ?], offset: ?>>, %arg1: memref<8x16xf32, strided<[?, ?], offset: ?>>, %arg2: memref<16xf32, strided<[?], offset: ?>>) -> memref<4x16xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<4x16xf32>
    linalg.fill ins(%cst : f32) outs(%alloc : memref<4x16xf32>)
    linalg.matmul ins(%arg0, %arg1 : memref<4x8xf32, strided<[?, ?], offset: ?>>, memref<8x16xf32, strided<[?, ?], offset: ?>>) outs(%alloc : memref<4x16xf32>)
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%alloc, %arg2 : memref<4x16xf32>, memref<16xf32, strided<[?], offset: ?>>) outs(%alloc : memref<4x16xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %0 = arith.addf %in, %in_2 : f32
      %1 = arith.maximumf %0, %cst : f32
      linalg.yield %1 : f32
    }
    %subview = memref.subview %alloc[0, 4] [2, 8] [1, 1] : memref<4x16xf32> to memref<2x8xf32, strided<[16, 1], offset: 4>>
    %alloc_0 = memref.alloc() {alignment = 64 : i64} : memref<2x8xf32>
    memref.copy %subview, %alloc_0 : memref<2x8xf32, strided<[16, 1], offset: 4>> to memref<2x8xf32>
    %subview_1 = memref.subview %alloc[2, 0] [2, 8] [1, 1] : memref<4x16xf32> to memref<2x8xf32, strided<[16, 1], offset: 32>>
    memref.copy %alloc_0, %subview_1 : memref<2x8xf32> to memref<2x8xf32, strided<[16, 1], offset: 32>>
    %cast = memref.cast %alloc : memref<4x16xf32> to memref<4x16xf32, strided<[?, ?], offset: ?>>
    return %alloc : memref<4x16xf32>
  }
}

