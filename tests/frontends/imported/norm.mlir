// Model 'norm' of tests/frontend_models.py: LayerNormalization, Softmax, ReduceMean, ReduceSum, ReduceMax, InstanceNormalization, ArgMax.
// Imported with issue 27's commands; do not edit:
// regenerate with `python tests/frontend_models.py`.
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1, d2) -> (d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
#map5 = affine_map<(d0, d1, d2) -> (0, d1, d2)>
#map6 = affine_map<(d0, d1, d2) -> (d1)>
module {
  memref.global "private" constant @__constant_3xf32_1 : memref<3xf32> = dense<[-1.65529668, -0.0665667728, -2.39131451]> {alignment = 64 : i64}
  memref.global "private" constant @__constant_3xf32 : memref<3xf32> = dense<[0.929666281, -0.561199665, -0.457471788]> {alignment = 64 : i64}
  memref.global "private" constant @__constant_6xf32_0 : memref<6xf32> = dense<[-0.778625965, 0.381314754, -2.659950e+00, -0.172793105, -0.397271574, -0.601890087]> {alignment = 64 : i64}
  memref.global "private" constant @__constant_6xf32 : memref<6xf32> = dense<[-0.524115682, -1.04736459, -5.268560e-01, -0.2269025, 1.97824919, -1.5522151]> {alignment = 64 : i64}
  func.func @norm(%arg0: memref<2x3x6xf32>, %arg1: memref<2x3x6xf32>, %arg2: memref<2x3xi64>) {
    %cst = arith.constant 3.000000e+00 : f32
    %cst_0 = arith.constant 9.99999974E-6 : f32
    %cst_1 = arith.constant 6.000000e+00 : f32
    %cst_2 = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_3 = arith.constant 0xFF800000 : f32
    %0 = memref.get_global @__constant_6xf32 : memref<6xf32>
    %1 = memref.get_global @__constant_6xf32_0 : memref<6xf32>
    %2 = memref.get_global @__constant_3xf32 : memref<3xf32>
    %3 = memref.get_global @__constant_3xf32_1 : memref<3xf32>
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<2x3x1xf32>
    %alloc_4 = memref.alloc() {alignment = 64 : i64} : memref<2x3x1xf32>
    linalg.fill ins(%cst_2 : f32) outs(%alloc_4 : memref<2x3x1xf32>)
    %alloc_5 = memref.alloc() {alignment = 64 : i64} : memref<2x3x1xf32>
    memref.copy %alloc_4, %alloc_5 : memref<2x3x1xf32> to memref<2x3x1xf32>
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : memref<2x3x6xf32>) outs(%alloc_5 : memref<2x3x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.addf %in, %out : f32
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_5 : memref<2x3x1xf32>) outs(%alloc : memref<2x3x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.divf %in, %cst_1 : f32
      linalg.yield %4 : f32
    }
    %collapse_shape = memref.collapse_shape %alloc [[0], [1, 2]] : memref<2x3x1xf32> into memref<2x3xf32>
    linalg.generic {indexing_maps = [#map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapse_shape : memref<2x3xf32>) outs(%arg1 : memref<2x3x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    %alloc_6 = memref.alloc() {alignment = 64 : i64} : memref<2x3x6xf32>
    linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %arg1 : memref<2x3x6xf32>, memref<2x3x6xf32>) outs(%alloc_6 : memref<2x3x6xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %4 = arith.subf %in, %in_20 : f32
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_6, %alloc_6 : memref<2x3x6xf32>, memref<2x3x6xf32>) outs(%arg1 : memref<2x3x6xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %4 = arith.mulf %in, %in_20 : f32
      linalg.yield %4 : f32
    }
    %alloc_7 = memref.alloc() {alignment = 64 : i64} : memref<2x3x1xf32>
    memref.copy %alloc_4, %alloc_7 : memref<2x3x1xf32> to memref<2x3x1xf32>
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg1 : memref<2x3x6xf32>) outs(%alloc_7 : memref<2x3x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.addf %in, %out : f32
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_7 : memref<2x3x1xf32>) outs(%alloc : memref<2x3x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.divf %in, %cst_1 : f32
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc : memref<2x3x1xf32>) outs(%alloc : memref<2x3x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.addf %in, %cst_0 : f32
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc : memref<2x3x1xf32>) outs(%alloc : memref<2x3x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = math.rsqrt %in : f32
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [#map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapse_shape : memref<2x3xf32>) outs(%arg1 : memref<2x3x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_6, %arg1 : memref<2x3x6xf32>, memref<2x3x6xf32>) outs(%arg1 : memref<2x3x6xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %4 = arith.mulf %in, %in_20 : f32
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1, %0 : memref<2x3x6xf32>, memref<6xf32>) outs(%arg1 : memref<2x3x6xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %4 = arith.mulf %in, %in_20 : f32
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1, %1 : memref<2x3x6xf32>, memref<6xf32>) outs(%arg1 : memref<2x3x6xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %4 = arith.addf %in, %in_20 : f32
      linalg.yield %4 : f32
    }
    linalg.fill ins(%c0_i64 : i64) outs(%arg2 : memref<2x3xi64>)
    %alloc_8 = memref.alloc() {alignment = 64 : i64} : memref<2x3xf32>
    linalg.fill ins(%cst_3 : f32) outs(%alloc_8 : memref<2x3xf32>)
    %alloc_9 = memref.alloc() {alignment = 64 : i64} : memref<2x3xf32>
    memref.copy %alloc_8, %alloc_9 : memref<2x3xf32> to memref<2x3xf32>
    %alloc_10 = memref.alloc() {alignment = 64 : i64} : memref<2x3xi64>
    memref.copy %arg2, %alloc_10 : memref<2x3xi64> to memref<2x3xi64>
    linalg.generic {indexing_maps = [#map, #map2, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg1 : memref<2x3x6xf32>) outs(%alloc_9, %alloc_10 : memref<2x3xf32>, memref<2x3xi64>) {
    ^bb0(%in: f32, %out: f32, %out_20: i64):
      %4 = linalg.index 2 : index
      %5 = arith.index_cast %4 : index to i64
      %6 = arith.maximumf %in, %out : f32
      %7 = arith.cmpf ogt, %in, %out : f32
      %8 = arith.select %7, %5, %out_20 : i64
      linalg.yield %6, %8 : f32, i64
    }
    %expand_shape = memref.expand_shape %alloc_9 [[0], [1, 2]] output_shape [2, 3, 1] : memref<2x3xf32> into memref<2x3x1xf32>
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1, %expand_shape : memref<2x3x6xf32>, memref<2x3x1xf32>) outs(%arg1 : memref<2x3x6xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %4 = arith.subf %in, %in_20 : f32
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : memref<2x3x6xf32>) outs(%arg1 : memref<2x3x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = math.exp %in : f32
      linalg.yield %4 : f32
    }
    %alloc_11 = memref.alloc() {alignment = 64 : i64} : memref<2x3x1xf32>
    memref.copy %alloc_4, %alloc_11 : memref<2x3x1xf32> to memref<2x3x1xf32>
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg1 : memref<2x3x6xf32>) outs(%alloc_11 : memref<2x3x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.addf %in, %out : f32
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1, %alloc_11 : memref<2x3x6xf32>, memref<2x3x1xf32>) outs(%arg1 : memref<2x3x6xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %4 = arith.divf %in, %in_20 : f32
      linalg.yield %4 : f32
    }
    %alloc_12 = memref.alloc() {alignment = 64 : i64} : memref<2x1x6xf32>
    linalg.fill ins(%cst_2 : f32) outs(%alloc_12 : memref<2x1x6xf32>)
    linalg.generic {indexing_maps = [#map, #map4], iterator_types = ["parallel", "reduction", "parallel"]} ins(%arg1 : memref<2x3x6xf32>) outs(%alloc_12 : memref<2x1x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.addf %in, %out : f32
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_12 : memref<2x1x6xf32>) outs(%alloc_12 : memref<2x1x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.divf %in, %cst : f32
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [#map, #map4, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1, %alloc_12 : memref<2x3x6xf32>, memref<2x1x6xf32>) outs(%arg1 : memref<2x3x6xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %4 = arith.subf %in, %in_20 : f32
      linalg.yield %4 : f32
    }
    %alloc_13 = memref.alloc() {alignment = 64 : i64} : memref<1x3x6xf32>
    linalg.fill ins(%cst_2 : f32) outs(%alloc_13 : memref<1x3x6xf32>)
    linalg.generic {indexing_maps = [#map, #map5], iterator_types = ["reduction", "parallel", "parallel"]} ins(%arg1 : memref<2x3x6xf32>) outs(%alloc_13 : memref<1x3x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.addf %in, %out : f32
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [#map, #map2, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : memref<2x3x6xf32>) outs(%alloc_8, %arg2 : memref<2x3xf32>, memref<2x3xi64>) {
    ^bb0(%in: f32, %out: f32, %out_20: i64):
      %4 = linalg.index 2 : index
      %5 = arith.index_cast %4 : index to i64
      %6 = arith.maximumf %in, %out : f32
      %7 = arith.cmpf ogt, %in, %out : f32
      %8 = arith.select %7, %5, %out_20 : i64
      linalg.yield %6, %8 : f32, i64
    }
    %expand_shape_14 = memref.expand_shape %alloc_8 [[0], [1, 2]] output_shape [2, 3, 1] : memref<2x3xf32> into memref<2x3x1xf32>
    linalg.generic {indexing_maps = [#map, #map5, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1, %alloc_13 : memref<2x3x6xf32>, memref<1x3x6xf32>) outs(%arg1 : memref<2x3x6xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %4 = arith.addf %in, %in_20 : f32
      linalg.yield %4 : f32
    }
    %alloc_15 = memref.alloc() {alignment = 64 : i64} : memref<2x3x6xf32>
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1, %expand_shape_14 : memref<2x3x6xf32>, memref<2x3x1xf32>) outs(%alloc_15 : memref<2x3x6xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %4 = arith.addf %in, %in_20 : f32
      linalg.yield %4 : f32
    }
    %alloc_16 = memref.alloc() {alignment = 64 : i64} : memref<2x3x1xf32>
    memref.copy %alloc_4, %alloc_16 : memref<2x3x1xf32> to memref<2x3x1xf32>
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_15 : memref<2x3x6xf32>) outs(%alloc_16 : memref<2x3x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.addf %in, %out : f32
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_16 : memref<2x3x1xf32>) outs(%alloc : memref<2x3x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.divf %in, %cst_1 : f32
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [#map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapse_shape : memref<2x3xf32>) outs(%arg1 : memref<2x3x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    %alloc_17 = memref.alloc() {alignment = 64 : i64} : memref<2x3x6xf32>
    linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_15, %arg1 : memref<2x3x6xf32>, memref<2x3x6xf32>) outs(%alloc_17 : memref<2x3x6xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %4 = arith.subf %in, %in_20 : f32
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_17, %alloc_17 : memref<2x3x6xf32>, memref<2x3x6xf32>) outs(%arg1 : memref<2x3x6xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %4 = arith.mulf %in, %in_20 : f32
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg1 : memref<2x3x6xf32>) outs(%alloc_4 : memref<2x3x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.addf %in, %out : f32
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_4 : memref<2x3x1xf32>) outs(%alloc : memref<2x3x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.divf %in, %cst_1 : f32
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc : memref<2x3x1xf32>) outs(%alloc : memref<2x3x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.addf %in, %cst_0 : f32
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc : memref<2x3x1xf32>) outs(%alloc : memref<2x3x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = math.rsqrt %in : f32
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [#map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapse_shape : memref<2x3xf32>) outs(%arg1 : memref<2x3x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    %alloc_18 = memref.alloc() {alignment = 64 : i64} : memref<2x3x6xf32>
    linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_17, %arg1 : memref<2x3x6xf32>, memref<2x3x6xf32>) outs(%alloc_18 : memref<2x3x6xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %4 = arith.mulf %in, %in_20 : f32
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [#map6, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2 : memref<3xf32>) outs(%arg1 : memref<2x3x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    %alloc_19 = memref.alloc() {alignment = 64 : i64} : memref<2x3x6xf32>
    linalg.generic {indexing_maps = [#map6, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3 : memref<3xf32>) outs(%alloc_19 : memref<2x3x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_18, %arg1 : memref<2x3x6xf32>, memref<2x3x6xf32>) outs(%arg1 : memref<2x3x6xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %4 = arith.mulf %in, %in_20 : f32
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1, %alloc_19 : memref<2x3x6xf32>, memref<2x3x6xf32>) outs(%arg1 : memref<2x3x6xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %4 = arith.addf %in, %in_20 : f32
      linalg.yield %4 : f32
    }
    memref.dealloc %alloc : memref<2x3x1xf32>
    memref.dealloc %alloc_4 : memref<2x3x1xf32>
    memref.dealloc %alloc_5 : memref<2x3x1xf32>
    memref.dealloc %alloc_6 : memref<2x3x6xf32>
    memref.dealloc %alloc_7 : memref<2x3x1xf32>
    memref.dealloc %alloc_8 : memref<2x3xf32>
    memref.dealloc %alloc_9 : memref<2x3xf32>
    memref.dealloc %alloc_10 : memref<2x3xi64>
    memref.dealloc %alloc_11 : memref<2x3x1xf32>
    memref.dealloc %alloc_12 : memref<2x1x6xf32>
    memref.dealloc %alloc_13 : memref<1x3x6xf32>
    memref.dealloc %alloc_15 : memref<2x3x6xf32>
    memref.dealloc %alloc_16 : memref<2x3x1xf32>
    memref.dealloc %alloc_17 : memref<2x3x6xf32>
    memref.dealloc %alloc_18 : memref<2x3x6xf32>
    memref.dealloc %alloc_19 : memref<2x3x6xf32>
    return
  }
}

