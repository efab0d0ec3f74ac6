// Model 'eltwise' of tests/frontend_models.py: Relu, Add, Sub, Mul, Div (broadcast), Tanh, Sigmoid, Abs, Sqrt, Pow (integer and fractional), Exp, Log, Neg, LeakyRelu, HardSigmoid, HardSwish, Max, Min, Softplus, Elu, Floor, Sin, Less, Not, Where.
// Imported with issue 27's commands; do not edit:
// regenerate with `python tests/frontend_models.py`.
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> ()>
module {
  memref.global "private" constant @__constant_xf32_2 : memref<f32> = dense<0.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_3x4xf32_1 : memref<3x4xf32> = dense<[[1.82530987, 2.63418078, 1.00137162, 2.49992013], [1.73680592, 1.51020157, 1.18857372, 1.11090922], [2.44292331, 1.69406164, 2.37358499, 2.15684819]]> {alignment = 64 : i64}
  memref.global "private" constant @__constant_3x4xf32 : memref<3x4xf32> = dense<[[1.43633139, -0.570548534, -0.845692098, 0.470593333], [0.879235148, -1.64947283, -0.22547023, -1.29415178], [-0.316209942, 0.814986944, -0.105138935, -0.499686867]]> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_0 : memref<f32> = dense<1.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32 : memref<f32> = dense<6.000000e+00> {alignment = 64 : i64}
  func.func @eltwise(%arg0: memref<2x3x4xf32>, %arg1: memref<2x3x4xf32>) {
    %true = arith.constant true
    %cst = arith.constant 2.000000e+01 : f32
    %cst_0 = arith.constant 6.000000e+00 : f32
    %cst_1 = arith.constant 3.000000e+00 : f32
    %cst_2 = arith.constant 5.000000e-01 : f32
    %cst_3 = arith.constant 2.000000e-01 : f32
    %cst_4 = arith.constant 1.000000e-01 : f32
    %cst_5 = arith.constant 1.500000e+00 : f32
    %c2_i64 = arith.constant 2 : i64
    %cst_6 = arith.constant 0.000000e+00 : f32
    %cst_7 = arith.constant 1.000000e+00 : f32
    %0 = memref.get_global @__constant_xf32 : memref<f32>
    %1 = memref.get_global @__constant_xf32_0 : memref<f32>
    %2 = memref.get_global @__constant_3x4xf32 : memref<3x4xf32>
    %3 = memref.get_global @__constant_3x4xf32_1 : memref<3x4xf32>
    %4 = memref.get_global @__constant_xf32_2 : memref<f32>
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = arith.cmpf ugt, %in, %cst_6 : f32
      %6 = arith.select %5, %in, %cst_6 : f32
      linalg.yield %6 : f32
    }
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1, %2 : memref<2x3x4xf32>, memref<3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %in_21: f32, %out: f32):
      %5 = arith.addf %in, %in_21 : f32
      linalg.yield %5 : f32
    }
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<2x3x4xf32>
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : memref<2x3x4xf32>) outs(%alloc : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = math.tanh %in : f32
      linalg.yield %5 : f32
    }
    %alloc_8 = memref.alloc() {alignment = 64 : i64} : memref<2x3x4xf32>
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc : memref<2x3x4xf32>) outs(%alloc_8 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = arith.negf %in : f32
      %6 = math.exp %5 : f32
      %7 = arith.addf %6, %cst_7 : f32
      %8 = arith.divf %cst_7, %7 : f32
      linalg.yield %8 : f32
    }
    linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_8, %arg0 : memref<2x3x4xf32>, memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %in_21: f32, %out: f32):
      %5 = arith.mulf %in, %in_21 : f32
      linalg.yield %5 : f32
    }
    %alloc_9 = memref.alloc() {alignment = 64 : i64} : memref<2x3x4xf32>
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1, %2 : memref<2x3x4xf32>, memref<3x4xf32>) outs(%alloc_9 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %in_21: f32, %out: f32):
      %5 = arith.subf %in, %in_21 : f32
      linalg.yield %5 : f32
    }
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_9, %3 : memref<2x3x4xf32>, memref<3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %in_21: f32, %out: f32):
      %5 = arith.divf %in, %in_21 : f32
      linalg.yield %5 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = math.absf %in : f32
      linalg.yield %5 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = math.sqrt %in : f32
      linalg.yield %5 : f32
    }
    %alloc_10 = memref.alloc() {alignment = 64 : i64} : memref<2x3x4xf32>
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : memref<2x3x4xf32>) outs(%alloc_10 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %5 : f32
    }
    %alloc_11 = memref.alloc() {alignment = 64 : i64} : memref<2x3x4xf32>
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : memref<2x3x4xf32>) outs(%alloc_11 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = math.powf %in, %cst_5 : f32
      linalg.yield %5 : f32
    }
    %alloc_12 = memref.alloc() {alignment = 64 : i64} : memref<2x3x4xf32>
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc : memref<2x3x4xf32>) outs(%alloc_12 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = math.exp %in : f32
      linalg.yield %5 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_8 : memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = math.log %in : f32
      linalg.yield %5 : f32
    }
    %alloc_13 = memref.alloc() {alignment = 64 : i64} : memref<2x3x4xf32>
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : memref<2x3x4xf32>) outs(%alloc_13 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = arith.negf %in : f32
      linalg.yield %5 : f32
    }
    %alloc_14 = memref.alloc() {alignment = 64 : i64} : memref<2x3x4xf32>
    linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4, %alloc_9 : memref<f32>, memref<2x3x4xf32>) outs(%alloc_14 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %in_21: f32, %out: f32):
      %5 = arith.cmpf ogt, %in, %in_21 : f32
      %6 = arith.select %5, %in, %in_21 : f32
      linalg.yield %6 : f32
    }
    linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4, %alloc_9 : memref<f32>, memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %in_21: f32, %out: f32):
      %5 = arith.cmpf olt, %in, %in_21 : f32
      %6 = arith.select %5, %in, %in_21 : f32
      linalg.yield %6 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = arith.mulf %in, %cst_4 : f32
      linalg.yield %5 : f32
    }
    linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_14, %arg1 : memref<2x3x4xf32>, memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %in_21: f32, %out: f32):
      %5 = arith.addf %in, %in_21 : f32
      linalg.yield %5 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = arith.mulf %in, %cst_3 : f32
      linalg.yield %5 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = arith.addf %in, %cst_2 : f32
      linalg.yield %5 : f32
    }
    linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1, %arg1 : memref<f32>, memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %in_21: f32, %out: f32):
      %5 = arith.cmpf olt, %in, %in_21 : f32
      %6 = arith.select %5, %in, %in_21 : f32
      linalg.yield %6 : f32
    }
    %alloc_15 = memref.alloc() {alignment = 64 : i64} : memref<2x3x4xf32>
    linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4, %arg1 : memref<f32>, memref<2x3x4xf32>) outs(%alloc_15 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %in_21: f32, %out: f32):
      %5 = arith.cmpf ogt, %in, %in_21 : f32
      %6 = arith.select %5, %in, %in_21 : f32
      linalg.yield %6 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = arith.addf %in, %cst_1 : f32
      linalg.yield %5 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = arith.cmpf ugt, %in, %cst_6 : f32
      %6 = arith.select %5, %in, %cst_6 : f32
      linalg.yield %6 : f32
    }
    linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1, %0 : memref<2x3x4xf32>, memref<f32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %in_21: f32, %out: f32):
      %5 = arith.cmpf olt, %in, %in_21 : f32
      %6 = arith.select %5, %in, %in_21 : f32
      linalg.yield %6 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = arith.divf %in, %cst_0 : f32
      linalg.yield %5 : f32
    }
    linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1, %arg0 : memref<2x3x4xf32>, memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %in_21: f32, %out: f32):
      %5 = arith.mulf %in, %in_21 : f32
      linalg.yield %5 : f32
    }
    linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_15, %arg1 : memref<2x3x4xf32>, memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %in_21: f32, %out: f32):
      %5 = arith.cmpf ogt, %in, %in_21 : f32
      %6 = arith.select %5, %in, %in_21 : f32
      linalg.yield %6 : f32
    }
    linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1, %alloc_10 : memref<2x3x4xf32>, memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %in_21: f32, %out: f32):
      %5 = arith.cmpf ogt, %in, %in_21 : f32
      %6 = arith.select %5, %in, %in_21 : f32
      linalg.yield %6 : f32
    }
    %alloc_16 = memref.alloc() {alignment = 64 : i64} : memref<2x3x4xf32>
    linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1, %alloc_11 : memref<2x3x4xf32>, memref<2x3x4xf32>) outs(%alloc_16 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %in_21: f32, %out: f32):
      %5 = arith.cmpf olt, %in, %in_21 : f32
      %6 = arith.select %5, %in, %in_21 : f32
      linalg.yield %6 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_16 : memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = math.absf %in : f32
      linalg.yield %5 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = arith.negf %in : f32
      linalg.yield %5 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = math.exp %in : f32
      linalg.yield %5 : f32
    }
    %alloc_17 = memref.alloc() {alignment = 64 : i64} : memref<2x3x4xf32>
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : memref<2x3x4xf32>) outs(%alloc_17 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = math.log1p %in : f32
      linalg.yield %5 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_16 : memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = arith.cmpf ugt, %in, %cst_6 : f32
      %6 = arith.select %5, %in, %cst_6 : f32
      linalg.yield %6 : f32
    }
    linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1, %alloc_17 : memref<2x3x4xf32>, memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %in_21: f32, %out: f32):
      %5 = arith.addf %in, %in_21 : f32
      linalg.yield %5 : f32
    }
    %alloc_18 = memref.alloc() {alignment = 64 : i64} : memref<2x3x4xi1>
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_16 : memref<2x3x4xf32>) outs(%alloc_18 : memref<2x3x4xi1>) {
    ^bb0(%in: f32, %out: i1):
      %5 = arith.cmpf ogt, %in, %cst : f32
      linalg.yield %5 : i1
    }
    linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_18, %alloc_16, %arg1 : memref<2x3x4xi1>, memref<2x3x4xf32>, memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: i1, %in_21: f32, %in_22: f32, %out: f32):
      %5 = arith.select %in, %in_21, %in_22 : f32
      linalg.yield %5 : f32
    }
    linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1, %alloc_12 : memref<2x3x4xf32>, memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %in_21: f32, %out: f32):
      %5 = arith.addf %in, %in_21 : f32
      linalg.yield %5 : f32
    }
    %alloc_19 = memref.alloc() {alignment = 64 : i64} : memref<2x3x4xf32>
    linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1, %alloc_13 : memref<2x3x4xf32>, memref<2x3x4xf32>) outs(%alloc_19 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %in_21: f32, %out: f32):
      %5 = arith.addf %in, %in_21 : f32
      linalg.yield %5 : f32
    }
    %alloc_20 = memref.alloc() {alignment = 64 : i64} : memref<2x3x4xf32>
    linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4, %arg0 : memref<f32>, memref<2x3x4xf32>) outs(%alloc_20 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %in_21: f32, %out: f32):
      %5 = arith.cmpf ogt, %in, %in_21 : f32
      %6 = arith.select %5, %in, %in_21 : f32
      linalg.yield %6 : f32
    }
    linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4, %arg0 : memref<f32>, memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %in_21: f32, %out: f32):
      %5 = arith.cmpf olt, %in, %in_21 : f32
      %6 = arith.select %5, %in, %in_21 : f32
      linalg.yield %6 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = math.exp %in : f32
      linalg.yield %5 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = arith.subf %in, %cst_7 : f32
      linalg.yield %5 : f32
    }
    linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_20, %arg1 : memref<2x3x4xf32>, memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %in_21: f32, %out: f32):
      %5 = arith.addf %in, %in_21 : f32
      linalg.yield %5 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = math.floor %in : f32
      linalg.yield %5 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = math.sin %in : f32
      linalg.yield %5 : f32
    }
    linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %4 : memref<2x3x4xf32>, memref<f32>) outs(%alloc_18 : memref<2x3x4xi1>) {
    ^bb0(%in: f32, %in_21: f32, %out: i1):
      %5 = arith.cmpf olt, %in, %in_21 : f32
      linalg.yield %5 : i1
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_18 : memref<2x3x4xi1>) outs(%alloc_18 : memref<2x3x4xi1>) {
    ^bb0(%in: i1, %out: i1):
      %5 = arith.xori %in, %true : i1
      linalg.yield %5 : i1
    }
    linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_18, %alloc_19, %arg1 : memref<2x3x4xi1>, memref<2x3x4xf32>, memref<2x3x4xf32>) outs(%arg1 : memref<2x3x4xf32>) {
    ^bb0(%in: i1, %in_21: f32, %in_22: f32, %out: f32):
      %5 = arith.select %in, %in_21, %in_22 : f32
      linalg.yield %5 : f32
    }
    memref.dealloc %alloc : memref<2x3x4xf32>
    memref.dealloc %alloc_8 : memref<2x3x4xf32>
    memref.dealloc %alloc_9 : memref<2x3x4xf32>
    memref.dealloc %alloc_10 : memref<2x3x4xf32>
    memref.dealloc %alloc_11 : memref<2x3x4xf32>
    memref.dealloc %alloc_12 : memref<2x3x4xf32>
    memref.dealloc %alloc_13 : memref<2x3x4xf32>
    memref.dealloc %alloc_14 : memref<2x3x4xf32>
    memref.dealloc %alloc_15 : memref<2x3x4xf32>
    memref.dealloc %alloc_16 : memref<2x3x4xf32>
    memref.dealloc %alloc_17 : memref<2x3x4xf32>
    memref.dealloc %alloc_18 : memref<2x3x4xi1>
    memref.dealloc %alloc_19 : memref<2x3x4xf32>
    memref.dealloc %alloc_20 : memref<2x3x4xf32>
    return
  }
}

