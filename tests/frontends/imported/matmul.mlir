// Model 'matmul' of tests/frontend_models.py: MatMul (2-D and batched), Gemm (transA, transB, alpha, beta), Flatten, Einsum.
// Imported with issue 27's commands; do not edit:
// regenerate with `python tests/frontend_models.py`.
#map = affine_map<(d0, d1, d2) -> (d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d2)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> (d1)>
module {
  memref.global "private" constant @__constant_1x4x5xf32 : memref<1x4x5xf32> = dense<[[[-0.0829689279, 1.27885938, 0.221812457, -1.42060924, -1.31722248], [-0.911242306, 1.07281017, 0.425849825, -1.79005599, 0.0651899427], [1.07778025, 0.746436655, -0.732827126, -0.503297627, -0.969399094], [0.316183925, -0.597285867, -0.425077409, 1.85419559, 1.22010899]]]> {alignment = 64 : i64}
  memref.global "private" constant @__constant_2x3xf32 : memref<2x3xf32> = dense<[[0.242494255, 0.826835632, -0.116670974], [-0.538383961, -1.35866201, -0.526707113]]> {alignment = 64 : i64}
  memref.global "private" constant @__constant_2x5x3xf32 : memref<2x5x3xf32> = dense<[[[-0.359912872, -0.0717860609, 1.21470404], [-0.121272549, -0.416531473, 0.352680117], [-1.76655817, -1.07069659, -0.667236209], [-2.13092518, -0.871054112, -0.138217822], [-2.33443666, -0.319930226, -0.279612601]], [[0.3537395, 0.613877535, 0.801241457], [0.247610137, 0.323063642, 0.101194024], [0.78925544, 0.117944837, -0.988018095], [-0.247364253, -0.979413986, 2.03262424], [1.28580403, -0.403800845, 0.466321945]]]> {alignment = 64 : i64}
  memref.global "private" constant @__constant_6xf32 : memref<6xf32> = dense<[-0.726237416, -1.50476778, -1.00745106, -0.254099905, -1.11131585, 0.161190629]> {alignment = 64 : i64}
  memref.global "private" constant @__constant_6x15xf32 : memref<6x15xf32> = dense<[[0.590796471, -0.78139925, -0.0388442352, 0.549985051, 1.37216711, 1.17936397, -0.604028821, 0.679257094, 0.358278722, -0.462732017, 1.52315259, -0.37250042, 0.193770111, 1.47977054, 1.95687556], [0.322187752, 1.01120937, -1.06601071, -0.0813403651, 0.597270787, 1.10802901, -0.210326895, 0.353182226, 0.375300139, 0.933318734, 1.52985013, -7.530590e-01, 0.520805359, -0.0291437451, -0.841027081], [0.564774871, -1.22708249, 0.147862121, 0.450281799, 2.06289363, 1.94868255, 0.462872803, -0.407793462, 0.244887859, -1.1142627, -1.81397486, -0.90972054, 1.62822413, 0.0918842181, 0.208422199], [1.85412538, 1.19974077, -1.32196593, -0.031163428, -1.42579699, 2.11802816, 1.16451669, -0.736377358, -0.0928864553, 1.29529488, 0.715366303, 1.43216765, -1.05265677, -1.26872861, -0.230761498], [0.551761568, -0.313689262, 0.820446431, 0.459257305, -0.850528538, 0.142444581, 0.365937382, -1.28780568, -0.0127986232, 2.36285281, 0.0928136259, 3.64409852, -0.551051617, -1.08745277, 1.96297109], [0.832884907, 1.65460706, 0.865469753, 0.320755064, -0.102322325, -0.939314067, 0.827907204, 2.92991495, -0.806924223, -0.27221489, 0.802423894, 0.124793775, -0.797727644, -1.96179509, -0.228980914]]> {alignment = 64 : i64}
  memref.global "private" constant @__constant_5xf32 : memref<5xf32> = dense<[0.822399258, 0.137770727, -0.857106268, 0.207698256, -1.61881268]> {alignment = 64 : i64}
  memref.global "private" constant @__constant_4x5xf32 : memref<4x5xf32> = dense<[[-0.0829689279, 1.27885938, 0.221812457, -1.42060924, -1.31722248], [-0.911242306, 1.07281017, 0.425849825, -1.79005599, 0.0651899427], [1.07778025, 0.746436655, -0.732827126, -0.503297627, -0.969399094], [0.316183925, -0.597285867, -0.425077409, 1.85419559, 1.22010899]]> {alignment = 64 : i64}
  func.func @matmul(%arg0: memref<2x3x4xf32>, %arg1: memref<2x3x3xf32>, %arg2: memref<6x3xf32>) {
    %cst = arith.constant 2.000000e+00 : f32
    %cst_0 = arith.constant 5.000000e-01 : f32
    %cst_1 = arith.constant 0.000000e+00 : f32
    %0 = memref.get_global @__constant_4x5xf32 : memref<4x5xf32>
    %1 = memref.get_global @__constant_5xf32 : memref<5xf32>
    %2 = memref.get_global @__constant_6x15xf32 : memref<6x15xf32>
    %3 = memref.get_global @__constant_6xf32 : memref<6xf32>
    %4 = memref.get_global @__constant_2x5x3xf32 : memref<2x5x3xf32>
    %5 = memref.get_global @__constant_2x3xf32 : memref<2x3xf32>
    %6 = memref.get_global @__constant_1x4x5xf32 : memref<1x4x5xf32>
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<2x4x5xf32>
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%0 : memref<4x5xf32>) outs(%alloc : memref<2x4x5xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    %alloc_2 = memref.alloc() {alignment = 64 : i64} : memref<2x3x5xf32>
    linalg.fill ins(%cst_1 : f32) outs(%alloc_2 : memref<2x3x5xf32>)
    linalg.batch_matmul ins(%arg0, %alloc : memref<2x3x4xf32>, memref<2x4x5xf32>) outs(%alloc_2 : memref<2x3x5xf32>)
    linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_2, %1 : memref<2x3x5xf32>, memref<5xf32>) outs(%alloc_2 : memref<2x3x5xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %7 = arith.addf %in, %in_10 : f32
      linalg.yield %7 : f32
    }
    linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_2 : memref<2x3x5xf32>) outs(%alloc_2 : memref<2x3x5xf32>) {
    ^bb0(%in: f32, %out: f32):
      %7 = arith.cmpf ugt, %in, %cst_1 : f32
      %8 = arith.select %7, %in, %cst_1 : f32
      linalg.yield %8 : f32
    }
    %collapse_shape = memref.collapse_shape %alloc_2 [[0], [1, 2]] : memref<2x3x5xf32> into memref<2x15xf32>
    %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<15x6xf32>
    linalg.transpose ins(%2 : memref<6x15xf32>) outs(%alloc_3 : memref<15x6xf32>) permutation = [1, 0] 
    %alloc_4 = memref.alloc() {alignment = 64 : i64} : memref<2x6xf32>
    linalg.fill ins(%cst_1 : f32) outs(%alloc_4 : memref<2x6xf32>)
    linalg.matmul ins(%collapse_shape, %alloc_3 : memref<2x15xf32>, memref<15x6xf32>) outs(%alloc_4 : memref<2x6xf32>)
    linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc_4 : memref<2x6xf32>) outs(%alloc_4 : memref<2x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %7 = arith.mulf %in, %cst_0 : f32
      linalg.yield %7 : f32
    }
    linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%alloc_4, %3 : memref<2x6xf32>, memref<6xf32>) outs(%alloc_4 : memref<2x6xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %7 = arith.mulf %in_10, %cst : f32
      %8 = arith.addf %in, %7 : f32
      linalg.yield %8 : f32
    }
    %collapse_shape_5 = memref.collapse_shape %arg0 [[0, 1], [2]] : memref<2x3x4xf32> into memref<6x4xf32>
    %expand_shape = memref.expand_shape %collapse_shape_5 [[0, 1], [2]] output_shape [1, 6, 4] : memref<6x4xf32> into memref<1x6x4xf32>
    %alloc_6 = memref.alloc() {alignment = 64 : i64} : memref<1x6x5xf32>
    linalg.fill ins(%cst_1 : f32) outs(%alloc_6 : memref<1x6x5xf32>)
    linalg.batch_matmul ins(%expand_shape, %6 : memref<1x6x4xf32>, memref<1x4x5xf32>) outs(%alloc_6 : memref<1x6x5xf32>)
    %collapse_shape_7 = memref.collapse_shape %alloc_6 [[0, 1], [2]] : memref<1x6x5xf32> into memref<6x5xf32>
    %expand_shape_8 = memref.expand_shape %collapse_shape_7 [[0, 1], [2]] output_shape [2, 3, 5] : memref<6x5xf32> into memref<2x3x5xf32>
    linalg.fill ins(%cst_1 : f32) outs(%arg1 : memref<2x3x3xf32>)
    linalg.batch_matmul ins(%expand_shape_8, %4 : memref<2x3x5xf32>, memref<2x5x3xf32>) outs(%arg1 : memref<2x3x3xf32>)
    %alloc_9 = memref.alloc() {alignment = 64 : i64} : memref<6x2xf32>
    linalg.transpose ins(%alloc_4 : memref<2x6xf32>) outs(%alloc_9 : memref<6x2xf32>) permutation = [1, 0] 
    linalg.fill ins(%cst_1 : f32) outs(%arg2 : memref<6x3xf32>)
    linalg.matmul ins(%alloc_9, %5 : memref<6x2xf32>, memref<2x3xf32>) outs(%arg2 : memref<6x3xf32>)
    memref.dealloc %alloc : memref<2x4x5xf32>
    memref.dealloc %alloc_2 : memref<2x3x5xf32>
    memref.dealloc %alloc_3 : memref<15x6xf32>
    memref.dealloc %alloc_4 : memref<2x6xf32>
    memref.dealloc %alloc_6 : memref<1x6x5xf32>
    memref.dealloc %alloc_9 : memref<6x2xf32>
    return
  }
}

