// What upstream's bufferization makes of a tensor-level linalg program with its default
// options: the function keeps its tensor signature; bufferization.to_buffer gives fully
// dynamic strided views of the arguments, bufferization.to_tensor the result. Generated
// with mlir-opt-22 --one-shot-bufferize from:
//   func.func @matmul_relu(%A: tensor<4x8xf32>, %B: tensor<8x6xf32>) -> tensor<4x6xf32> {
//     %zero = arith.constant 0.0 : f32
//     %init = tensor.empty() : tensor<4x6xf32>
//     %filled = linalg.fill ins(%zero : f32) outs(%init : tensor<4x6xf32>) -> tensor<4x6xf32>
//     %mm = linalg.matmul ins(%A, %B : tensor<4x8xf32>, tensor<8x6xf32>) outs(%filled : tensor<4x6xf32>) -> tensor<4x6xf32>
//     %out = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%mm : tensor<4x6xf32>) {
//     ^bb0(%o: f32):
//       %r = arith.maximumf %o, %zero : f32
//       linalg.yield %r : f32
//     } -> tensor<4x6xf32>
//     %slice = tensor.extract_slice %out[1, 2] [2, 3] [1, 1] : tensor<4x6xf32> to tensor<2x3xf32>
//     %ins = tensor.insert_slice %slice into %out[0, 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<4x6xf32>
//     return %ins : tensor<4x6xf32>
//   }
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @matmul_relu(%arg0: tensor<4x8xf32>, %arg1: tensor<8x6xf32>) -> tensor<4x6xf32> {
    %0 = bufferization.to_buffer %arg1 : tensor<8x6xf32> to memref<8x6xf32, strided<[?, ?], offset: ?>>
    %1 = bufferization.to_buffer %arg0 : tensor<4x8xf32> to memref<4x8xf32, strided<[?, ?], offset: ?>>
    %cst = arith.constant 0.000000e+00 : f32
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<4x6xf32>
    linalg.fill ins(%cst : f32) outs(%alloc : memref<4x6xf32>)
    linalg.matmul ins(%1, %0 : memref<4x8xf32, strided<[?, ?], offset: ?>>, memref<8x6xf32, strided<[?, ?], offset: ?>>) outs(%alloc : memref<4x6xf32>)
    linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%alloc : memref<4x6xf32>) {
    ^bb0(%out: f32):
      %3 = arith.maximumf %out, %cst : f32
      linalg.yield %3 : f32
    }
    %subview = memref.subview %alloc[1, 2] [2, 3] [1, 1] : memref<4x6xf32> to memref<2x3xf32, strided<[6, 1], offset: 8>>
    %alloc_0 = memref.alloc() {alignment = 64 : i64} : memref<2x3xf32>
    memref.copy %subview, %alloc_0 : memref<2x3xf32, strided<[6, 1], offset: 8>> to memref<2x3xf32>
    %subview_1 = memref.subview %alloc[0, 0] [2, 3] [1, 1] : memref<4x6xf32> to memref<2x3xf32, strided<[6, 1]>>
    memref.copy %alloc_0, %subview_1 : memref<2x3xf32> to memref<2x3xf32, strided<[6, 1]>>
    %2 = bufferization.to_tensor %alloc : memref<4x6xf32> to tensor<4x6xf32>
    return %2 : tensor<4x6xf32>
  }
}

