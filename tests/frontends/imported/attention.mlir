// Model 'attention' of tests/frontend_models.py: an attention head: MatMul, Reshape, Transpose, batched MatMul, Where (causal mask), Softmax, Add.
// Imported with issue 27's commands; do not edit:
// regenerate with `python tests/frontend_models.py`.
#map = affine_map<(d0, d1, d2) -> (d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> ()>
#map4 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  memref.global "private" constant @__constant_4x4xi1 : memref<4x4xi1> = dense<[[true, false, false, false], [true, true, false, false], [true, true, true, false], [true, true, true, true]]> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_0 : memref<f32> = dense<-1.000000e+09> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32 : memref<f32> = dense<5.000000e-01> {alignment = 64 : i64}
  memref.global "private" constant @__constant_6x6xf32 : memref<6x6xf32> = dense<[[-0.0393935852, 0.0447348244, 1.87688851, -1.10190105, 0.347696811, 1.03927994], [-0.0915251523, -0.565117538, -2.12964964, -0.700806438, -0.218648478, -1.372733], [1.89096689, 1.10709155, 0.658121467, 1.16962385, -0.351598322, -0.525215566], [1.39741421, 1.90057051, -1.46187603, -0.213021055, -0.805103242, 1.1937542], [-0.492316663, -0.764664292, 1.56467915, -0.560719967, -0.652341425, 0.0255062394], [0.174276397, -0.00476257363, -0.0781370326, 0.124834411, 2.33142447, 0.0747448877]]> {alignment = 64 : i64}
  func.func @attention(%arg0: memref<1x4x6xf32>, %arg1: memref<1x4x6xf32>) {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %0 = memref.get_global @__constant_6x6xf32 : memref<6x6xf32>
    %1 = memref.get_global @__constant_xf32 : memref<f32>
    %2 = memref.get_global @__constant_xf32_0 : memref<f32>
    %3 = memref.get_global @__constant_4x4xi1 : memref<4x4xi1>
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<1x6x6xf32>
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%0 : memref<6x6xf32>) outs(%alloc : memref<1x6x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    linalg.fill ins(%cst : f32) outs(%arg1 : memref<1x4x6xf32>)
    linalg.batch_matmul ins(%arg0, %alloc : memref<1x4x6xf32>, memref<1x6x6xf32>) outs(%arg1 : memref<1x4x6xf32>)
    %expand_shape = memref.expand_shape %arg1 [[0], [1], [2, 3]] output_shape [1, 4, 2, 3] : memref<1x4x6xf32> into memref<1x4x2x3xf32>
    %alloc_1 = memref.alloc() {alignment = 64 : i64} : memref<1x2x4x3xf32>
    linalg.transpose ins(%expand_shape : memref<1x4x2x3xf32>) outs(%alloc_1 : memref<1x2x4x3xf32>) permutation = [0, 2, 1, 3] 
    %alloc_2 = memref.alloc() {alignment = 64 : i64} : memref<1x2x3x4xf32>
    linalg.transpose ins(%expand_shape : memref<1x4x2x3xf32>) outs(%alloc_2 : memref<1x2x3x4xf32>) permutation = [0, 2, 3, 1] 
    %collapse_shape = memref.collapse_shape %alloc_1 [[0, 1], [2], [3]] : memref<1x2x4x3xf32> into memref<2x4x3xf32>
    %collapse_shape_3 = memref.collapse_shape %alloc_2 [[0, 1], [2], [3]] : memref<1x2x3x4xf32> into memref<2x3x4xf32>
    %alloc_4 = memref.alloc() {alignment = 64 : i64} : memref<2x4x4xf32>
    linalg.fill ins(%cst : f32) outs(%alloc_4 : memref<2x4x4xf32>)
    linalg.batch_matmul ins(%collapse_shape, %collapse_shape_3 : memref<2x4x3xf32>, memref<2x3x4xf32>) outs(%alloc_4 : memref<2x4x4xf32>)
    %expand_shape_5 = memref.expand_shape %alloc_4 [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : memref<2x4x4xf32> into memref<1x2x4x4xf32>
    %alloc_6 = memref.alloc() {alignment = 64 : i64} : memref<1x2x4x4xf32>
    linalg.generic {indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expand_shape_5, %1 : memref<1x2x4x4xf32>, memref<f32>) outs(%alloc_6 : memref<1x2x4x4xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %4 = arith.mulf %in, %in_16 : f32
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [#map4, #map2, #map3, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%3, %alloc_6, %2 : memref<4x4xi1>, memref<1x2x4x4xf32>, memref<f32>) outs(%alloc_6 : memref<1x2x4x4xf32>) {
    ^bb0(%in: i1, %in_16: f32, %in_17: f32, %out: f32):
      %4 = arith.select %in, %in_16, %in_17 : f32
      linalg.yield %4 : f32
    }
    %alloc_7 = memref.alloc() {alignment = 64 : i64} : memref<1x2x4xi64>
    linalg.fill ins(%c0_i64 : i64) outs(%alloc_7 : memref<1x2x4xi64>)
    %alloc_8 = memref.alloc() {alignment = 64 : i64} : memref<1x2x4xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc_8 : memref<1x2x4xf32>)
    linalg.generic {indexing_maps = [#map2, #map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc_6 : memref<1x2x4x4xf32>) outs(%alloc_8, %alloc_7 : memref<1x2x4xf32>, memref<1x2x4xi64>) {
    ^bb0(%in: f32, %out: f32, %out_16: i64):
      %4 = linalg.index 3 : index
      %5 = arith.index_cast %4 : index to i64
      %6 = arith.maximumf %in, %out : f32
      %7 = arith.cmpf ogt, %in, %out : f32
      %8 = arith.select %7, %5, %out_16 : i64
      linalg.yield %6, %8 : f32, i64
    }
    %expand_shape_9 = memref.expand_shape %alloc_8 [[0], [1], [2, 3]] output_shape [1, 2, 4, 1] : memref<1x2x4xf32> into memref<1x2x4x1xf32>
    linalg.generic {indexing_maps = [#map2, #map6, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_6, %expand_shape_9 : memref<1x2x4x4xf32>, memref<1x2x4x1xf32>) outs(%alloc_6 : memref<1x2x4x4xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %4 = arith.subf %in, %in_16 : f32
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_6 : memref<1x2x4x4xf32>) outs(%alloc_6 : memref<1x2x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = math.exp %in : f32
      linalg.yield %4 : f32
    }
    %alloc_10 = memref.alloc() {alignment = 64 : i64} : memref<1x2x4x1xf32>
    linalg.fill ins(%cst : f32) outs(%alloc_10 : memref<1x2x4x1xf32>)
    linalg.generic {indexing_maps = [#map2, #map6], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc_6 : memref<1x2x4x4xf32>) outs(%alloc_10 : memref<1x2x4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.addf %in, %out : f32
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [#map2, #map6, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_6, %alloc_10 : memref<1x2x4x4xf32>, memref<1x2x4x1xf32>) outs(%alloc_6 : memref<1x2x4x4xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %4 = arith.divf %in, %in_16 : f32
      linalg.yield %4 : f32
    }
    %collapse_shape_11 = memref.collapse_shape %alloc_6 [[0, 1], [2], [3]] : memref<1x2x4x4xf32> into memref<2x4x4xf32>
    %alloc_12 = memref.alloc() {alignment = 64 : i64} : memref<2x4x3xf32>
    linalg.fill ins(%cst : f32) outs(%alloc_12 : memref<2x4x3xf32>)
    linalg.batch_matmul ins(%collapse_shape_11, %collapse_shape : memref<2x4x4xf32>, memref<2x4x3xf32>) outs(%alloc_12 : memref<2x4x3xf32>)
    %expand_shape_13 = memref.expand_shape %alloc_12 [[0, 1], [2], [3]] output_shape [1, 2, 4, 3] : memref<2x4x3xf32> into memref<1x2x4x3xf32>
    %alloc_14 = memref.alloc() {alignment = 64 : i64} : memref<1x4x2x3xf32>
    linalg.transpose ins(%expand_shape_13 : memref<1x2x4x3xf32>) outs(%alloc_14 : memref<1x4x2x3xf32>) permutation = [0, 2, 1, 3] 
    %collapse_shape_15 = memref.collapse_shape %alloc_14 [[0], [1], [2, 3]] : memref<1x4x2x3xf32> into memref<1x4x6xf32>
    linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapse_shape_15, %arg0 : memref<1x4x6xf32>, memref<1x4x6xf32>) outs(%arg1 : memref<1x4x6xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %4 = arith.addf %in, %in_16 : f32
      linalg.yield %4 : f32
    }
    memref.dealloc %alloc : memref<1x6x6xf32>
    memref.dealloc %alloc_1 : memref<1x2x4x3xf32>
    memref.dealloc %alloc_2 : memref<1x2x3x4xf32>
    memref.dealloc %alloc_4 : memref<2x4x4xf32>
    memref.dealloc %alloc_6 : memref<1x2x4x4xf32>
    memref.dealloc %alloc_7 : memref<1x2x4xi64>
    memref.dealloc %alloc_8 : memref<1x2x4xf32>
    memref.dealloc %alloc_10 : memref<1x2x4x1xf32>
    memref.dealloc %alloc_12 : memref<2x4x3xf32>
    memref.dealloc %alloc_14 : memref<1x4x2x3xf32>
    return
  }
}

