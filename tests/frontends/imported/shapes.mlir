// Model 'shapes' of tests/frontend_models.py: Transpose, Reshape, Flatten, Concat, Slice (steps), Split, Unsqueeze, Squeeze, Expand.
// Imported with issue 27's commands; do not edit:
// regenerate with `python tests/frontend_models.py`.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  func.func @shapes(%arg0: memref<2x3x4xf32>, %arg1: memref<3x2x5xf32>) {
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<2x4x3xf32>
    linalg.transpose ins(%arg0 : memref<2x3x4xf32>) outs(%alloc : memref<2x4x3xf32>) permutation = [0, 2, 1] 
    %collapse_shape = memref.collapse_shape %alloc [[0], [1, 2]] : memref<2x4x3xf32> into memref<2x12xf32>
    %collapse_shape_0 = memref.collapse_shape %arg0 [[0], [1, 2]] : memref<2x3x4xf32> into memref<2x12xf32>
    %alloc_1 = memref.alloc() {alignment = 64 : i64} : memref<2x24xf32>
    %subview = memref.subview %alloc_1[0, 0] [2, 12] [1, 1] : memref<2x24xf32> to memref<2x12xf32, strided<[24, 1]>>
    memref.copy %collapse_shape, %subview : memref<2x12xf32> to memref<2x12xf32, strided<[24, 1]>>
    %subview_2 = memref.subview %alloc_1[0, 12] [2, 12] [1, 1] : memref<2x24xf32> to memref<2x12xf32, strided<[24, 1], offset: 12>>
    memref.copy %collapse_shape_0, %subview_2 : memref<2x12xf32> to memref<2x12xf32, strided<[24, 1], offset: 12>>
    %subview_3 = memref.subview %alloc_1[0, 1] [2, 10] [1, 2] : memref<2x24xf32> to memref<2x10xf32, strided<[24, 2], offset: 1>>
    %subview_4 = memref.subview %subview_3[0, 0] [2, 5] [1, 1] : memref<2x10xf32, strided<[24, 2], offset: 1>> to memref<2x5xf32, strided<[24, 2], offset: 1>>
    %subview_5 = memref.subview %subview_3[0, 5] [2, 5] [1, 1] : memref<2x10xf32, strided<[24, 2], offset: 1>> to memref<2x5xf32, strided<[24, 2], offset: 11>>
    %alloc_6 = memref.alloc() {alignment = 64 : i64} : memref<2x5xf32>
    linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%subview_4, %subview_5 : memref<2x5xf32, strided<[24, 2], offset: 1>>, memref<2x5xf32, strided<[24, 2], offset: 11>>) outs(%alloc_6 : memref<2x5xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %0 = arith.mulf %in, %in_7 : f32
      linalg.yield %0 : f32
    }
    linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_6 : memref<2x5xf32>) outs(%arg1 : memref<3x2x5xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    memref.dealloc %alloc : memref<2x4x3xf32>
    memref.dealloc %alloc_1 : memref<2x24xf32>
    memref.dealloc %alloc_6 : memref<2x5xf32>
    return
  }
}

