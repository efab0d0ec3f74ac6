// Model 'mobilenet' of tests/frontend_models.py: Conv (group=C, depthwise; 1x1), BatchNormalization, Clip (ReLU6).
// Imported with issue 27's commands; do not edit:
// regenerate with `python tests/frontend_models.py`.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#map2 = affine_map<(d0, d1, d2, d3) -> ()>
module {
  memref.global "private" constant @__constant_1x4x1x1xf32_3 : memref<1x4x1x1xf32> = dense<[[[[-0.644510031]], [[0.919092714]], [[-0.971320927]], [[1.26777613]]]]> {alignment = 64 : i64}
  memref.global "private" constant @__constant_1x4x1x1xf32_2 : memref<1x4x1x1xf32> = dense<[[[[0.113238581]], [[-0.23133643]], [[-0.90107119]], [[-1.00884116]]]]> {alignment = 64 : i64}
  memref.global "private" constant @__constant_1x4x1x1xf32_1 : memref<1x4x1x1xf32> = dense<[[[[1.1055007]], [[0.564902306]], [[1.5547148]], [[1.69246626]]]]> {alignment = 64 : i64}
  memref.global "private" constant @__constant_1x4x1x1xf32 : memref<1x4x1x1xf32> = dense<[[[[0.92899084]], [[0.157697126]], [[-0.63961482]], [[0.638353944]]]]> {alignment = 64 : i64}
  memref.global "private" constant @__constant_4x3x3xf32 : memref<4x3x3xf32> = dense<[[[0.558836758, 0.339395642, 0.186394915], [0.2801283, 0.516261518, 0.756909251], [0.92622286, 0.784536838, -0.827108263]], [[1.93389916, -0.49749735, -0.378654838], [-0.296097577, 1.49136794, 0.489432871], [0.792693197, -1.1546607, -0.199138045]], [[1.4327867, -0.273404539, 0.976860523], [1.02053356, 0.216925636, 0.186299279], [-1.03863394, -0.330746591, -7.161610e-01]], [[1.06556177, -0.139843702, -2.27133965], [-1.01098251, -1.48244703, 0.244663209], [-1.05319405, -0.228605703, 6.866350e-02]]]> {alignment = 64 : i64}
  memref.global "private" constant @__constant_3x4x1x1xf32 : memref<3x4x1x1xf32> = dense<[[[[0.711420536]], [[0.183152393]], [[-2.16533232]], [[0.343751222]]], [[[-1.30896914]], [[-1.02766275]], [[0.555437684]], [[0.122946732]]], [[[0.834919452]], [[-0.536652803]], [[1.72033155]], [[1.29667294]]]]> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_0 : memref<f32> = dense<6.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32 : memref<f32> = dense<0.000000e+00> {alignment = 64 : i64}
  func.func @mobilenet(%arg0: memref<1x4x5x5xf32>, %arg1: memref<1x3x3x3xf32>) {
    %cst = arith.constant 9.99999974E-6 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %0 = memref.get_global @__constant_xf32 : memref<f32>
    %1 = memref.get_global @__constant_xf32_0 : memref<f32>
    %2 = memref.get_global @__constant_3x4x1x1xf32 : memref<3x4x1x1xf32>
    %3 = memref.get_global @__constant_4x3x3xf32 : memref<4x3x3xf32>
    %4 = memref.get_global @__constant_1x4x1x1xf32 : memref<1x4x1x1xf32>
    %5 = memref.get_global @__constant_1x4x1x1xf32_1 : memref<1x4x1x1xf32>
    %6 = memref.get_global @__constant_1x4x1x1xf32_2 : memref<1x4x1x1xf32>
    %7 = memref.get_global @__constant_1x4x1x1xf32_3 : memref<1x4x1x1xf32>
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<1x4x7x7xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc : memref<1x4x7x7xf32>)
    %subview = memref.subview %alloc[0, 0, 1, 1] [1, 4, 5, 5] [1, 1, 1, 1] : memref<1x4x7x7xf32> to memref<1x4x5x5xf32, strided<[196, 49, 7, 1], offset: 8>>
    memref.copy %arg0, %subview : memref<1x4x5x5xf32> to memref<1x4x5x5xf32, strided<[196, 49, 7, 1], offset: 8>>
    %alloc_1 = memref.alloc() {alignment = 64 : i64} : memref<1x4x3x3xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc_1 : memref<1x4x3x3xf32>)
    linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%alloc, %3 : memref<1x4x7x7xf32>, memref<4x3x3xf32>) outs(%alloc_1 : memref<1x4x3x3xf32>)
    %alloc_2 = memref.alloc() {alignment = 64 : i64} : memref<1x4x1x1xf32>
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5 : memref<1x4x1x1xf32>) outs(%alloc_2 : memref<1x4x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %8 = arith.addf %in, %cst : f32
      linalg.yield %8 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_2 : memref<1x4x1x1xf32>) outs(%alloc_2 : memref<1x4x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %8 = math.rsqrt %in : f32
      linalg.yield %8 : f32
    }
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_1, %4 : memref<1x4x3x3xf32>, memref<1x4x1x1xf32>) outs(%alloc_1 : memref<1x4x3x3xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %8 = arith.subf %in, %in_3 : f32
      linalg.yield %8 : f32
    }
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_1, %alloc_2 : memref<1x4x3x3xf32>, memref<1x4x1x1xf32>) outs(%alloc_1 : memref<1x4x3x3xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %8 = arith.mulf %in, %in_3 : f32
      linalg.yield %8 : f32
    }
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_1, %6 : memref<1x4x3x3xf32>, memref<1x4x1x1xf32>) outs(%alloc_1 : memref<1x4x3x3xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %8 = arith.mulf %in, %in_3 : f32
      linalg.yield %8 : f32
    }
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_1, %7 : memref<1x4x3x3xf32>, memref<1x4x1x1xf32>) outs(%alloc_1 : memref<1x4x3x3xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %8 = arith.addf %in, %in_3 : f32
      linalg.yield %8 : f32
    }
    linalg.generic {indexing_maps = [#map, #map2, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_1, %0, %1 : memref<1x4x3x3xf32>, memref<f32>, memref<f32>) outs(%alloc_1 : memref<1x4x3x3xf32>) {
    ^bb0(%in: f32, %in_3: f32, %in_4: f32, %out: f32):
      %8 = arith.cmpf ult, %in, %in_3 : f32
      %9 = arith.select %8, %in_3, %in : f32
      %10 = arith.cmpf ugt, %9, %in_4 : f32
      %11 = arith.select %10, %in_4, %9 : f32
      linalg.yield %11 : f32
    }
    linalg.fill ins(%cst_0 : f32) outs(%arg1 : memref<1x3x3x3xf32>)
    linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%alloc_1, %2 : memref<1x4x3x3xf32>, memref<3x4x1x1xf32>) outs(%arg1 : memref<1x3x3x3xf32>)
    memref.dealloc %alloc : memref<1x4x7x7xf32>
    memref.dealloc %alloc_1 : memref<1x4x3x3xf32>
    memref.dealloc %alloc_2 : memref<1x4x1x1xf32>
    return
  }
}

