// Model 'windows' of tests/frontend_models.py: Conv 1-D and 3-D, MaxPool 1-D, AveragePool 3-D.
// Imported with issue 27's commands; do not edit:
// regenerate with `python tests/frontend_models.py`.
#map = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
module {
  memref.global "private" constant @__constant_2x1x2x3x3xf32 : memref<2x1x2x3x3xf32> = dense<[[[[[1.2437458, -0.689767718, 1.5052942], [0.709602773, 0.0188753232, 0.478588551], [-0.523224533, -1.64147329, 0.135941565]], [[-1.23849952, 0.270164222, 1.01076865], [-0.021617787, -0.204814792, -1.82711446], [0.499259114, 1.05559456, 0.712329626]]]], [[[[-1.56955624, -1.00039184, -1.33900881], [0.443745315, 0.206762433, -1.46330142], [1.77990186, -0.846496344, 0.437184781]], [[0.282400548, 0.880547821, 0.365455061], [0.024256723, 0.804472863, -1.10690546], [1.18077326, -1.74848616, -1.51239741]]]]]> {alignment = 64 : i64}
  memref.global "private" constant @__constant_4x2x3xf32 : memref<4x2x3xf32> = dense<[[[1.19786406, 2.09494042, 1.92633808], [-1.25687814, -1.19596565, -1.13306832]], [[0.36363107, 1.36340749, 0.308810323], [-0.0994624197, 0.0274102651, 0.159400702]], [[0.622988402, 1.53737593, -0.0496725552], [-0.30599007, -0.322262257, 0.131115988]], [[-1.4865216, 0.331099868, -0.444864035], [1.03242719, -0.0209821165, -0.440271556]]]> {alignment = 64 : i64}
  func.func @windows(%arg0: memref<1x2x9xf32>, %arg1: memref<1x4x4xf32>, %arg2: memref<1x2x3x1x1xf32>) {
    %cst = arith.constant 4.000000e+00 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant 0xFF800000 : f32
    %0 = memref.get_global @__constant_4x2x3xf32 : memref<4x2x3xf32>
    %1 = memref.get_global @__constant_2x1x2x3x3xf32 : memref<2x1x2x3x3xf32>
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<1x2x11xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc : memref<1x2x11xf32>)
    %subview = memref.subview %alloc[0, 0, 1] [1, 2, 9] [1, 1, 1] : memref<1x2x11xf32> to memref<1x2x9xf32, strided<[22, 11, 1], offset: 1>>
    memref.copy %arg0, %subview : memref<1x2x9xf32> to memref<1x2x9xf32, strided<[22, 11, 1], offset: 1>>
    %alloc_2 = memref.alloc() {alignment = 64 : i64} : memref<1x4x5xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc_2 : memref<1x4x5xf32>)
    linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<2> : vector<1xi64>} ins(%alloc, %0 : memref<1x2x11xf32>, memref<4x2x3xf32>) outs(%alloc_2 : memref<1x4x5xf32>)
    linalg.fill ins(%cst_1 : f32) outs(%arg1 : memref<1x4x4xf32>)
    %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<2xf32>
    linalg.pooling_ncw_max {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%alloc_2, %alloc_3 : memref<1x4x5xf32>, memref<2xf32>) outs(%arg1 : memref<1x4x4xf32>)
    %expand_shape = memref.expand_shape %arg1 [[0], [1, 2], [3, 4]] output_shape [1, 1, 4, 2, 2] : memref<1x4x4xf32> into memref<1x1x4x2x2xf32>
    %alloc_4 = memref.alloc() {alignment = 64 : i64} : memref<1x1x4x4x4xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc_4 : memref<1x1x4x4x4xf32>)
    %subview_5 = memref.subview %alloc_4[0, 0, 0, 1, 1] [1, 1, 4, 2, 2] [1, 1, 1, 1, 1] : memref<1x1x4x4x4xf32> to memref<1x1x4x2x2xf32, strided<[64, 64, 16, 4, 1], offset: 5>>
    memref.copy %expand_shape, %subview_5 : memref<1x1x4x2x2xf32> to memref<1x1x4x2x2xf32, strided<[64, 64, 16, 4, 1], offset: 5>>
    %alloc_6 = memref.alloc() {alignment = 64 : i64} : memref<1x2x3x2x2xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc_6 : memref<1x2x3x2x2xf32>)
    linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : vector<3xi64>, strides = dense<1> : vector<3xi64>} ins(%alloc_4, %1 : memref<1x1x4x4x4xf32>, memref<2x1x2x3x3xf32>) outs(%alloc_6 : memref<1x2x3x2x2xf32>)
    %alloc_7 = memref.alloc() {alignment = 64 : i64} : memref<1x2x2xf32>
    %alloc_8 = memref.alloc() {alignment = 64 : i64} : memref<1x3x2x2x2xf32>
    linalg.transpose ins(%alloc_6 : memref<1x2x3x2x2xf32>) outs(%alloc_8 : memref<1x3x2x2x2xf32>) permutation = [0, 2, 3, 4, 1] 
    %alloc_9 = memref.alloc() {alignment = 64 : i64} : memref<1x3x1x1x2xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc_9 : memref<1x3x1x1x2xf32>)
    linalg.pooling_ndhwc_sum {dilations = dense<1> : vector<3xi64>, strides = dense<1> : vector<3xi64>} ins(%alloc_8, %alloc_7 : memref<1x3x2x2x2xf32>, memref<1x2x2xf32>) outs(%alloc_9 : memref<1x3x1x1x2xf32>)
    linalg.transpose ins(%alloc_9 : memref<1x3x1x1x2xf32>) outs(%arg2 : memref<1x2x3x1x1xf32>) permutation = [0, 4, 1, 2, 3] 
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%arg2 : memref<1x2x3x1x1xf32>) outs(%arg2 : memref<1x2x3x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %2 = arith.divf %in, %cst : f32
      linalg.yield %2 : f32
    }
    memref.dealloc %alloc : memref<1x2x11xf32>
    memref.dealloc %alloc_2 : memref<1x4x5xf32>
    memref.dealloc %alloc_3 : memref<2xf32>
    memref.dealloc %alloc_4 : memref<1x1x4x4x4xf32>
    memref.dealloc %alloc_6 : memref<1x2x3x2x2xf32>
    memref.dealloc %alloc_7 : memref<1x2x2xf32>
    memref.dealloc %alloc_8 : memref<1x3x2x2x2xf32>
    memref.dealloc %alloc_9 : memref<1x3x1x1x2xf32>
    return
  }
}

