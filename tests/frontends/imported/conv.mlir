// Model 'conv' of tests/frontend_models.py: Conv (asymmetric pads, strides, dilations, bias), Relu.
// Imported with issue 27's commands; do not edit:
// regenerate with `python tests/frontend_models.py`.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  memref.global "private" constant @__constant_3xf32 : memref<3xf32> = dense<[-0.32670483, -0.177961037, 0.415778756]> {alignment = 64 : i64}
  memref.global "private" constant @__constant_3x2x3x3xf32 : memref<3x2x3x3xf32> = dense<[[[[-0.135670424, 1.73599219, -1.14483428], [0.0574465878, -0.211438522, 0.225041017], [-0.615695476, 2.07140493, -0.647921562]], [[9.137440e-01, 1.57956195, -1.267010e+00], [2.12155557, 2.19874477, 0.735095977], [0.527672291, 0.558806539, 0.543354094]]], [[[1.06923735, 1.14877355, -0.301167488], [-0.762622237, 1.78872836, -1.02364111], [1.35879147, -0.912627995, 5.143120e-01]], [[0.154358566, 2.30622649, -0.00345795276], [0.651749312, 0.894296646, -0.609442234], [-0.0835215821, 0.734247684, -0.447580785]]], [[[0.508976102, -1.64724672, -0.686045944], [1.25609279, -0.927250921, -0.787965714], [0.343758255, 1.12241745, 1.07701576]], [[1.61042607, 0.0389833972, 1.77208388], [-2.39084983, -0.129972517, 0.59965694], [0.925527453, 1.05885386, 0.313117296]]]]> {alignment = 64 : i64}
  func.func @conv(%arg0: memref<1x2x7x8xf32>, %arg1: memref<1x3x4x6xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = memref.get_global @__constant_3x2x3x3xf32 : memref<3x2x3x3xf32>
    %1 = memref.get_global @__constant_3xf32 : memref<3xf32>
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<1x2x9x10xf32>
    linalg.fill ins(%cst : f32) outs(%alloc : memref<1x2x9x10xf32>)
    %subview = memref.subview %alloc[0, 0, 1, 2] [1, 2, 7, 8] [1, 1, 1, 1] : memref<1x2x9x10xf32> to memref<1x2x7x8xf32, strided<[180, 90, 10, 1], offset: 12>>
    memref.copy %arg0, %subview : memref<1x2x7x8xf32> to memref<1x2x7x8xf32, strided<[180, 90, 10, 1], offset: 12>>
    linalg.broadcast ins(%1 : memref<3xf32>) outs(%arg1 : memref<1x3x4x6xf32>) dimensions = [0, 2, 3] 
    linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : vector<2xi64>, strides = dense<[2, 1]> : vector<2xi64>} ins(%alloc, %0 : memref<1x2x9x10xf32>, memref<3x2x3x3xf32>) outs(%arg1 : memref<1x3x4x6xf32>)
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg1 : memref<1x3x4x6xf32>) outs(%arg1 : memref<1x3x4x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %2 = arith.cmpf ugt, %in, %cst : f32
      %3 = arith.select %2, %in, %cst : f32
      linalg.yield %3 : f32
    }
    memref.dealloc %alloc : memref<1x2x9x10xf32>
    return
  }
}

