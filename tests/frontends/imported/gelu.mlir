// Model 'gelu' of tests/frontend_models.py: Erf (GELU as Div, Erf, Add, Mul), Gelu (approximate=tanh).
// Imported with issue 27's commands; do not edit:
// regenerate with `python tests/frontend_models.py`.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> ()>
module {
  memref.global "private" constant @__constant_xf32_1 : memref<f32> = dense<5.000000e-01> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32_0 : memref<f32> = dense<1.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_xf32 : memref<f32> = dense<1.41421354> {alignment = 64 : i64}
  func.func @gelu(%arg0: memref<2x5xf32>, %arg1: memref<2x5xf32>) {
    %c3_i64 = arith.constant 3 : i64
    %cst = arith.constant 4.471500e-02 : f32
    %cst_0 = arith.constant 7.977240e-01 : f32
    %cst_1 = arith.constant 1.000000e+00 : f32
    %cst_2 = arith.constant 5.000000e-01 : f32
    %0 = memref.get_global @__constant_xf32 : memref<f32>
    %1 = memref.get_global @__constant_xf32_0 : memref<f32>
    %2 = memref.get_global @__constant_xf32_1 : memref<f32>
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %0 : memref<2x5xf32>, memref<f32>) outs(%arg1 : memref<2x5xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %3 = arith.divf %in, %in_3 : f32
      linalg.yield %3 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1 : memref<2x5xf32>) outs(%arg1 : memref<2x5xf32>) {
    ^bb0(%in: f32, %out: f32):
      %3 = math.erf %in : f32
      linalg.yield %3 : f32
    }
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1, %1 : memref<2x5xf32>, memref<f32>) outs(%arg1 : memref<2x5xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %3 = arith.addf %in, %in_3 : f32
      linalg.yield %3 : f32
    }
    linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : memref<2x5xf32>, memref<2x5xf32>) outs(%arg1 : memref<2x5xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %3 = arith.mulf %in, %in_3 : f32
      linalg.yield %3 : f32
    }
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<2x5xf32>
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1, %2 : memref<2x5xf32>, memref<f32>) outs(%alloc : memref<2x5xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %3 = arith.mulf %in, %in_3 : f32
      linalg.yield %3 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : memref<2x5xf32>) outs(%arg1 : memref<2x5xf32>) {
    ^bb0(%in: f32, %out: f32):
      %3 = math.fpowi %in, %c3_i64 : f32, i64
      %4 = arith.mulf %3, %cst : f32
      %5 = arith.addf %in, %4 : f32
      %6 = arith.mulf %5, %cst_0 : f32
      %7 = math.tanh %6 : f32
      %8 = arith.addf %7, %cst_1 : f32
      %9 = arith.mulf %8, %cst_2 : f32
      %10 = arith.mulf %in, %9 : f32
      linalg.yield %10 : f32
    }
    linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%alloc, %arg1 : memref<2x5xf32>, memref<2x5xf32>) outs(%arg1 : memref<2x5xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %3 = arith.addf %in, %in_3 : f32
      linalg.yield %3 : f32
    }
    memref.dealloc %alloc : memref<2x5xf32>
    return
  }
}

