// Model 'upsample' of tests/frontend_models.py: Pad, Resize (nearest), ConvTranspose (strides).
// Imported with issue 27's commands; do not edit:
// regenerate with `python tests/frontend_models.py`.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> ()>
module {
  memref.global "private" constant @__constant_xf32_0 : memref<f32> = dense<6.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32 : memref<f32> = dense<0.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_2x3x2x2xf32 : memref<2x3x2x2xf32> = dense<[[[[-0.958750724, -0.167200953], [-1.08956766, 0.328323334]], [[2.27148128, -0.600088775], [0.245248571, -0.592110872]], [[-0.0915691704, -1.36929262], [0.947746574, -0.965373873]]], [[[-1.31106126, -0.99753791], [-0.15528509, -0.224610791]], [[0.169105887, -0.810911297], [0.416431904, -0.588144302]], [[0.163902402, 1.01354337], [0.530750453, -0.876552879]]]]> {alignment = 64 : i64}
  func.func @upsample(%arg0: memref<1x2x2x2xf32>, %arg1: memref<1x3x16x16xf32>) {
    %cst = arith.constant 3.000000e+00 : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cst_0 = arith.constant 2.000000e+00 : f32
    %cst_1 = arith.constant 5.000000e-01 : f32
    %cst_2 = arith.constant 0.000000e+00 : f32
    %0 = memref.get_global @__constant_2x3x2x2xf32 : memref<2x3x2x2xf32>
    %1 = memref.get_global @__constant_xf32 : memref<f32>
    %2 = memref.get_global @__constant_xf32_0 : memref<f32>
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<1x2x4x4xf32>
    linalg.fill ins(%cst_2 : f32) outs(%alloc : memref<1x2x4x4xf32>)
    %subview = memref.subview %alloc[0, 0, 1, 1] [1, 2, 2, 2] [1, 1, 1, 1] : memref<1x2x4x4xf32> to memref<1x2x2x2xf32, strided<[32, 16, 4, 1], offset: 5>>
    memref.copy %arg0, %subview : memref<1x2x2x2xf32> to memref<1x2x2x2xf32, strided<[32, 16, 4, 1], offset: 5>>
    %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<1x2x8x8xf32>
    linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%alloc_3 : memref<1x2x8x8xf32>) {
    ^bb0(%out: f32):
      %3 = linalg.index 1 : index
      %4 = linalg.index 2 : index
      %5 = linalg.index 3 : index
      %6 = arith.index_cast %4 : index to i64
      %7 = arith.sitofp %6 : i64 to f32
      %8 = arith.addf %7, %cst_1 : f32
      %9 = arith.divf %8, %cst_0 : f32
      %10 = arith.subf %9, %cst_1 : f32
      %11 = math.floor %10 : f32
      %12 = math.ceil %10 : f32
      %13 = arith.subf %10, %11 : f32
      %14 = arith.cmpf ule, %13, %cst_1 : f32
      %15 = arith.select %14, %11, %12 : f32
      %16 = arith.maximumf %15, %cst_2 : f32
      %17 = arith.minimumf %16, %cst : f32
      %18 = arith.fptosi %17 : f32 to i64
      %19 = arith.index_cast %18 : i64 to index
      %20 = arith.index_cast %5 : index to i64
      %21 = arith.sitofp %20 : i64 to f32
      %22 = arith.addf %21, %cst_1 : f32
      %23 = arith.divf %22, %cst_0 : f32
      %24 = arith.subf %23, %cst_1 : f32
      %25 = math.floor %24 : f32
      %26 = math.ceil %24 : f32
      %27 = arith.subf %24, %25 : f32
      %28 = arith.cmpf ule, %27, %cst_1 : f32
      %29 = arith.select %28, %25, %26 : f32
      %30 = arith.maximumf %29, %cst_2 : f32
      %31 = arith.minimumf %30, %cst : f32
      %32 = arith.fptosi %31 : f32 to i64
      %33 = arith.index_cast %32 : i64 to index
      %34 = memref.load %alloc[%c0, %3, %19, %33] : memref<1x2x4x4xf32>
      linalg.yield %34 : f32
    }
    %alloc_4 = memref.alloc() {alignment = 64 : i64} : memref<3x2x2x2xf32>
    linalg.fill ins(%cst_2 : f32) outs(%alloc_4 : memref<3x2x2x2xf32>)
    linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%alloc_4 : memref<3x2x2x2xf32>) {
    ^bb0(%out: f32):
      %3 = linalg.index 0 : index
      %4 = linalg.index 1 : index
      %5 = linalg.index 2 : index
      %6 = linalg.index 3 : index
      %7 = arith.subi %c1, %5 : index
      %8 = arith.subi %c1, %6 : index
      %9 = memref.load %0[%4, %3, %7, %8] : memref<2x3x2x2xf32>
      linalg.yield %9 : f32
    }
    %alloc_5 = memref.alloc() {alignment = 64 : i64} : memref<1x2x17x17xf32>
    linalg.fill ins(%cst_2 : f32) outs(%alloc_5 : memref<1x2x17x17xf32>)
    %subview_6 = memref.subview %alloc_5[0, 0, 1, 1] [1, 2, 8, 8] [1, 1, 2, 2] : memref<1x2x17x17xf32> to memref<1x2x8x8xf32, strided<[578, 289, 34, 2], offset: 18>>
    memref.copy %alloc_3, %subview_6 : memref<1x2x8x8xf32> to memref<1x2x8x8xf32, strided<[578, 289, 34, 2], offset: 18>>
    linalg.fill ins(%cst_2 : f32) outs(%arg1 : memref<1x3x16x16xf32>)
    linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%alloc_5, %alloc_4 : memref<1x2x17x17xf32>, memref<3x2x2x2xf32>) outs(%arg1 : memref<1x3x16x16xf32>)
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg1, %1 : memref<1x3x16x16xf32>, memref<f32>) outs(%arg1 : memref<1x3x16x16xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %3 = arith.cmpf ogt, %in, %in_7 : f32
      %4 = arith.select %3, %in, %in_7 : f32
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg1, %2 : memref<1x3x16x16xf32>, memref<f32>) outs(%arg1 : memref<1x3x16x16xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %3 = arith.cmpf olt, %in, %in_7 : f32
      %4 = arith.select %3, %in, %in_7 : f32
      linalg.yield %4 : f32
    }
    memref.dealloc %alloc : memref<1x2x4x4xf32>
    memref.dealloc %alloc_3 : memref<1x2x8x8xf32>
    memref.dealloc %alloc_4 : memref<3x2x2x2xf32>
    memref.dealloc %alloc_5 : memref<1x2x17x17xf32>
    return
  }
}

