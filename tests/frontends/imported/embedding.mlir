// Model 'embedding' of tests/frontend_models.py: Gather (int64 indices), Cast.
// Imported with issue 27's commands; do not edit:
// regenerate with `python tests/frontend_models.py`.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
module {
  memref.global "private" constant @__constant_10x8xf32 : memref<10x8xf32> = dense<[[0.272550672, -0.674382806, -0.565465629, 0.352987856, 1.47124124, 0.0265756082, 0.698076367, -0.129050106], [-0.192548826, -0.709981739, -1.22656095, -1.548880e+00, -0.253616869, -0.577116489, -0.308456659, -0.826948225], [-1.77204704, 0.417331338, -1.53741872, -1.30655718, -0.096871525, 0.277354121, 0.339324653, -0.635506272], [-0.185366318, 0.392601073, 0.108785518, -0.7863034, 0.422065854, -1.73073494, 0.949318945, 1.34964395], [0.896168708, 0.347510368, 0.42648682, 0.360906929, -0.742734551, -0.675615489, -1.34335053, 0.412015736], [-0.967790722, -0.875769615, 0.219771862, -1.98597586, -0.440259546, 0.607142329, 0.780959427, -1.11955678], [-0.460242629, 1.54746068, -0.464793354, -7.686290e-01, -1.04771662, 0.163662732, 0.808382809, -0.864510953], [0.759269654, -1.2243371, -1.49717689, -0.748123824, -0.445863634, 0.365185082, 1.95274723, -0.813290358], [1.76300311, -0.320140898, -0.0246632248, -0.423218369, -1.25290668, 2.41041708, -0.326042622, -0.74576348], [-2.77726412, -1.14211333, -0.166719392, -0.111449011, 0.418257892, 2.27759171, -0.0339219272, 0.628101825]]> {alignment = 64 : i64}
  func.func @embedding(%arg0: memref<2x3xi64>, %arg1: memref<2x3x8xf32>) {
    %c10_i64 = arith.constant 10 : i64
    %c0_i64 = arith.constant 0 : i64
    %0 = memref.get_global @__constant_10x8xf32 : memref<10x8xf32>
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<2x3xi1>
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : memref<2x3xi64>) outs(%alloc : memref<2x3xi1>) {
    ^bb0(%in: i64, %out: i1):
      %1 = arith.cmpi slt, %in, %c0_i64 : i64
      linalg.yield %1 : i1
    }
    %alloc_0 = memref.alloc() {alignment = 64 : i64} : memref<2x3xi64>
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : memref<2x3xi64>) outs(%alloc_0 : memref<2x3xi64>) {
    ^bb0(%in: i64, %out: i64):
      %1 = arith.addi %in, %c10_i64 : i64
      linalg.yield %1 : i64
    }
    linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%alloc, %alloc_0, %arg0 : memref<2x3xi1>, memref<2x3xi64>, memref<2x3xi64>) outs(%alloc_0 : memref<2x3xi64>) {
    ^bb0(%in: i1, %in_4: i64, %in_5: i64, %out: i64):
      %1 = arith.select %in, %in_4, %in_5 : i64
      linalg.yield %1 : i64
    }
    %collapse_shape = memref.collapse_shape %alloc_0 [[0, 1]] : memref<2x3xi64> into memref<6xi64>
    %alloc_1 = memref.alloc() {alignment = 64 : i64} : memref<6x8xf32>
    linalg.generic {indexing_maps = [#map1, #map], iterator_types = ["parallel", "parallel"]} ins(%collapse_shape : memref<6xi64>) outs(%alloc_1 : memref<6x8xf32>) {
    ^bb0(%in: i64, %out: f32):
      %1 = arith.index_cast %in : i64 to index
      %2 = linalg.index 1 : index
      %3 = memref.load %0[%1, %2] : memref<10x8xf32>
      linalg.yield %3 : f32
    }
    %expand_shape = memref.expand_shape %alloc_1 [[0, 1], [2]] output_shape [2, 3, 8] : memref<6x8xf32> into memref<2x3x8xf32>
    %alloc_2 = memref.alloc() {alignment = 64 : i64} : memref<2x3xf32>
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : memref<2x3xi64>) outs(%alloc_2 : memref<2x3xf32>) {
    ^bb0(%in: i64, %out: f32):
      %1 = arith.sitofp %in : i64 to f32
      linalg.yield %1 : f32
    }
    %expand_shape_3 = memref.expand_shape %alloc_2 [[0], [1, 2]] output_shape [2, 3, 1] : memref<2x3xf32> into memref<2x3x1xf32>
    linalg.generic {indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expand_shape, %expand_shape_3 : memref<2x3x8xf32>, memref<2x3x1xf32>) outs(%arg1 : memref<2x3x8xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %1 = arith.mulf %in, %in_4 : f32
      linalg.yield %1 : f32
    }
    memref.dealloc %alloc : memref<2x3xi1>
    memref.dealloc %alloc_0 : memref<2x3xi64>
    memref.dealloc %alloc_1 : memref<6x8xf32>
    memref.dealloc %alloc_2 : memref<2x3xf32>
    return
  }
}

