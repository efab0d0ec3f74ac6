// Model 'pool' of tests/frontend_models.py: LRN, MaxPool (pads, ceil_mode), AveragePool (pads not counted), GlobalAveragePool.
// Imported with issue 27's commands; do not edit:
// regenerate with `python tests/frontend_models.py`.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
module {
  func.func @pool(%arg0: memref<1x2x9x9xf32>, %arg1: memref<1x2x3x3xf32>, %arg2: memref<1x2x1x1xf32>) {
    %c1_i64 = arith.constant 1 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %c5_i64 = arith.constant 5 : i64
    %c6_i64 = arith.constant 6 : i64
    %cst_1 = arith.constant 3.000000e+00 : f32
    %cst_2 = arith.constant 9.99999974E-5 : f32
    %cst_3 = arith.constant 1.000000e+00 : f32
    %cst_4 = arith.constant 7.500000e-01 : f32
    %c2_i64 = arith.constant 2 : i64
    %cst_5 = arith.constant 9.000000e+00 : f32
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<1x2x9x9xf32>
    linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0, %arg0 : memref<1x2x9x9xf32>, memref<1x2x9x9xf32>) outs(%alloc : memref<1x2x9x9xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %0 = arith.mulf %in, %in_20 : f32
      linalg.yield %0 : f32
    }
    %expand_shape = memref.expand_shape %alloc [[0], [1, 2], [3], [4]] output_shape [1, 1, 2, 9, 9] : memref<1x2x9x9xf32> into memref<1x1x2x9x9xf32>
    %alloc_6 = memref.alloc() {alignment = 64 : i64} : memref<1x1x4x9x9xf32>
    linalg.fill ins(%cst : f32) outs(%alloc_6 : memref<1x1x4x9x9xf32>)
    %subview = memref.subview %alloc_6[0, 0, 1, 0, 0] [1, 1, 2, 9, 9] [1, 1, 1, 1, 1] : memref<1x1x4x9x9xf32> to memref<1x1x2x9x9xf32, strided<[324, 324, 81, 9, 1], offset: 81>>
    memref.copy %expand_shape, %subview : memref<1x1x2x9x9xf32> to memref<1x1x2x9x9xf32, strided<[324, 324, 81, 9, 1], offset: 81>>
    %alloc_7 = memref.alloc() {alignment = 64 : i64} : memref<3x1x1xf32>
    %alloc_8 = memref.alloc() {alignment = 64 : i64} : memref<1x4x9x9x1xf32>
    linalg.transpose ins(%alloc_6 : memref<1x1x4x9x9xf32>) outs(%alloc_8 : memref<1x4x9x9x1xf32>) permutation = [0, 2, 3, 4, 1] 
    %alloc_9 = memref.alloc() {alignment = 64 : i64} : memref<1x2x9x9x1xf32>
    linalg.fill ins(%cst : f32) outs(%alloc_9 : memref<1x2x9x9x1xf32>)
    linalg.pooling_ndhwc_sum {dilations = dense<1> : vector<3xi64>, strides = dense<1> : vector<3xi64>} ins(%alloc_8, %alloc_7 : memref<1x4x9x9x1xf32>, memref<3x1x1xf32>) outs(%alloc_9 : memref<1x2x9x9x1xf32>)
    %alloc_10 = memref.alloc() {alignment = 64 : i64} : memref<1x1x2x9x9xf32>
    linalg.transpose ins(%alloc_9 : memref<1x2x9x9x1xf32>) outs(%alloc_10 : memref<1x1x2x9x9xf32>) permutation = [0, 4, 1, 2, 3] 
    linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%alloc_10 : memref<1x1x2x9x9xf32>) outs(%alloc_10 : memref<1x1x2x9x9xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.divf %in, %cst_1 : f32
      linalg.yield %0 : f32
    }
    %collapse_shape = memref.collapse_shape %alloc_10 [[0, 1], [2], [3], [4]] : memref<1x1x2x9x9xf32> into memref<1x2x9x9xf32>
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%collapse_shape : memref<1x2x9x9xf32>) outs(%alloc : memref<1x2x9x9xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.mulf %in, %cst_2 : f32
      linalg.yield %0 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc : memref<1x2x9x9xf32>) outs(%alloc : memref<1x2x9x9xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.addf %in, %cst_3 : f32
      linalg.yield %0 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc : memref<1x2x9x9xf32>) outs(%alloc : memref<1x2x9x9xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = math.powf %in, %cst_4 : f32
      linalg.yield %0 : f32
    }
    linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0, %alloc : memref<1x2x9x9xf32>, memref<1x2x9x9xf32>) outs(%alloc : memref<1x2x9x9xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %0 = arith.divf %in, %in_20 : f32
      linalg.yield %0 : f32
    }
    %alloc_11 = memref.alloc() {alignment = 64 : i64} : memref<1x2x11x11xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc_11 : memref<1x2x11x11xf32>)
    %subview_12 = memref.subview %alloc_11[0, 0, 1, 1] [1, 2, 9, 9] [1, 1, 1, 1] : memref<1x2x11x11xf32> to memref<1x2x9x9xf32, strided<[242, 121, 11, 1], offset: 12>>
    memref.copy %alloc, %subview_12 : memref<1x2x9x9xf32> to memref<1x2x9x9xf32, strided<[242, 121, 11, 1], offset: 12>>
    %alloc_13 = memref.alloc() {alignment = 64 : i64} : memref<1x2x5x5xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc_13 : memref<1x2x5x5xf32>)
    %alloc_14 = memref.alloc() {alignment = 64 : i64} : memref<3x3xf32>
    linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%alloc_11, %alloc_14 : memref<1x2x11x11xf32>, memref<3x3xf32>) outs(%alloc_13 : memref<1x2x5x5xf32>)
    %alloc_15 = memref.alloc() {alignment = 64 : i64} : memref<1x2x7x7xf32>
    linalg.fill ins(%cst : f32) outs(%alloc_15 : memref<1x2x7x7xf32>)
    %subview_16 = memref.subview %alloc_15[0, 0, 1, 1] [1, 2, 5, 5] [1, 1, 1, 1] : memref<1x2x7x7xf32> to memref<1x2x5x5xf32, strided<[98, 49, 7, 1], offset: 8>>
    memref.copy %alloc_13, %subview_16 : memref<1x2x5x5xf32> to memref<1x2x5x5xf32, strided<[98, 49, 7, 1], offset: 8>>
    linalg.fill ins(%cst : f32) outs(%alloc_13 : memref<1x2x5x5xf32>)
    linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%alloc_15, %alloc_14 : memref<1x2x7x7xf32>, memref<3x3xf32>) outs(%alloc_13 : memref<1x2x5x5xf32>)
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_13 : memref<1x2x5x5xf32>) outs(%alloc_13 : memref<1x2x5x5xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = linalg.index 2 : index
      %1 = arith.index_cast %0 : index to i64
      %2 = arith.subi %1, %c1_i64 : i64
      %3 = arith.addi %1, %c2_i64 : i64
      %4 = arith.minsi %3, %c6_i64 : i64
      %5 = arith.minsi %4, %c5_i64 : i64
      %6 = arith.subi %c1_i64, %1 : i64
      %7 = arith.maxsi %6, %c0_i64 : i64
      %8 = arith.subi %5, %2 : i64
      %9 = arith.subi %8, %7 : i64
      %10 = arith.maxsi %9, %c0_i64 : i64
      %11 = linalg.index 3 : index
      %12 = arith.index_cast %11 : index to i64
      %13 = arith.subi %12, %c1_i64 : i64
      %14 = arith.addi %12, %c2_i64 : i64
      %15 = arith.minsi %14, %c6_i64 : i64
      %16 = arith.minsi %15, %c5_i64 : i64
      %17 = arith.subi %c1_i64, %12 : i64
      %18 = arith.maxsi %17, %c0_i64 : i64
      %19 = arith.subi %16, %13 : i64
      %20 = arith.subi %19, %18 : i64
      %21 = arith.maxsi %20, %c0_i64 : i64
      %22 = arith.muli %10, %21 : i64
      %23 = arith.sitofp %22 : i64 to f32
      %24 = arith.divf %in, %23 : f32
      linalg.yield %24 : f32
    }
    %alloc_17 = memref.alloc() {alignment = 64 : i64} : memref<1x2x7x7xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc_17 : memref<1x2x7x7xf32>)
    %subview_18 = memref.subview %alloc_17[0, 0, 0, 0] [1, 2, 5, 5] [1, 1, 1, 1] : memref<1x2x7x7xf32> to memref<1x2x5x5xf32, strided<[98, 49, 7, 1]>>
    memref.copy %alloc_13, %subview_18 : memref<1x2x5x5xf32> to memref<1x2x5x5xf32, strided<[98, 49, 7, 1]>>
    linalg.fill ins(%cst_0 : f32) outs(%arg1 : memref<1x2x3x3xf32>)
    %alloc_19 = memref.alloc() {alignment = 64 : i64} : memref<2x2xf32>
    linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%alloc_17, %alloc_19 : memref<1x2x7x7xf32>, memref<2x2xf32>) outs(%arg1 : memref<1x2x3x3xf32>)
    linalg.fill ins(%cst : f32) outs(%arg2 : memref<1x2x1x1xf32>)
    linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg1, %alloc_14 : memref<1x2x3x3xf32>, memref<3x3xf32>) outs(%arg2 : memref<1x2x1x1xf32>)
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg2 : memref<1x2x1x1xf32>) outs(%arg2 : memref<1x2x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.divf %in, %cst_5 : f32
      linalg.yield %0 : f32
    }
    memref.dealloc %alloc : memref<1x2x9x9xf32>
    memref.dealloc %alloc_6 : memref<1x1x4x9x9xf32>
    memref.dealloc %alloc_7 : memref<3x1x1xf32>
    memref.dealloc %alloc_8 : memref<1x4x9x9x1xf32>
    memref.dealloc %alloc_9 : memref<1x2x9x9x1xf32>
    memref.dealloc %alloc_10 : memref<1x1x2x9x9xf32>
    memref.dealloc %alloc_11 : memref<1x2x11x11xf32>
    memref.dealloc %alloc_13 : memref<1x2x5x5xf32>
    memref.dealloc %alloc_14 : memref<3x3xf32>
    memref.dealloc %alloc_15 : memref<1x2x7x7xf32>
    memref.dealloc %alloc_17 : memref<1x2x7x7xf32>
    memref.dealloc %alloc_19 : memref<2x2xf32>
    return
  }
}

