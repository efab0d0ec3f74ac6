// A tensor-level linalg program, the start of the README's bufferization recipe:
//   mlir-opt-22 --one-shot-bufferize examples/tensor/matmul_relu.mlir > bufferized.mlir
//   (add `layout.assign`s to bufferized.mlir's buffers)
//   layout-opt bufferized.mlir -p layout-lower
// The entry takes and fills buffers (`to_tensor … restrict`, `materialize_in_destination`),
// so bufferization with its default options gives a function of memrefs that runs as it is.
func.func @main(%a: memref<4x8xf32>, %b: memref<8x6xf32>, %out: memref<4x6xf32>) {
  %A = bufferization.to_tensor %a restrict : memref<4x8xf32> to tensor<4x8xf32>
  %B = bufferization.to_tensor %b restrict : memref<8x6xf32> to tensor<8x6xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<4x6xf32>
  %C0 = linalg.fill ins(%zero : f32) outs(%init : tensor<4x6xf32>) -> tensor<4x6xf32>
  %C = linalg.matmul ins(%A, %B : tensor<4x8xf32>, tensor<8x6xf32>) outs(%C0 : tensor<4x6xf32>) -> tensor<4x6xf32>
  %R = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%C : tensor<4x6xf32>) {
  ^bb0(%c: f32):
    %m = arith.maximumf %c, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x6xf32>
  bufferization.materialize_in_destination %R in restrict writable %out : (tensor<4x6xf32>, memref<4x6xf32>) -> ()
  return
}
