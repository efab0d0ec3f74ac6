// A tensor-level matmul tiled by upstream and bufferized, the IR tiling pipelines hand on:
//   mlir-opt-22 --transform-preload-library=transform-library-paths=examples/tensor/tile_matmul.transform.mlir \
//     --transform-interpreter --canonicalize --one-shot-bufferize examples/tensor/tiled_matmul.mlir
// gives loops over tiles with run-time offsets and `affine.min` sizes (8 rows in tiles of 3,
// 12 columns in tiles of 5), `memref.subview`s of the buffers, `linalg.fill`/`linalg.matmul`
// on the subviews and `memref.copy`s of each tile onto itself. Assign layouts to its buffers
// (`layout.assign`) and `layout-opt -p layout-lower` lowers it as it is.
func.func @main(%a: memref<8x16xf32>, %b: memref<16x12xf32>, %out: memref<8x12xf32>) {
  %A = bufferization.to_tensor %a restrict : memref<8x16xf32> to tensor<8x16xf32>
  %B = bufferization.to_tensor %b restrict : memref<16x12xf32> to tensor<16x12xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<8x12xf32>
  %C0 = linalg.fill ins(%zero : f32) outs(%init : tensor<8x12xf32>) -> tensor<8x12xf32>
  %C = linalg.matmul ins(%A, %B : tensor<8x16xf32>, tensor<16x12xf32>) outs(%C0 : tensor<8x12xf32>) -> tensor<8x12xf32>
  bufferization.materialize_in_destination %C in restrict writable %out : (tensor<8x12xf32>, memref<8x12xf32>) -> ()
  return
}
