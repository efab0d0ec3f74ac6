// Index values computed through float ops from linalg.index, as torch-mlir lowers a nearest
// Resize (tests/frontends/test_affine_indices.py): `upsample` doubles H and W
// (half_pixel, round_prefer_floor, clamped to the input), `squares` reads row h*h (no affine
// function), `from_data` reads the row a buffer names, `diagonal` reads row h + w.
func.func @upsample(%x: memref<1x16x4x5xf32>, %y: memref<1x16x8x10xf32>) {
  %c0 = arith.constant 0 : index
  %half = arith.constant 5.000000e-01 : f32
  %two = arith.constant 2.000000e+00 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %last_h = arith.constant 3.000000e+00 : f32
  %last_w = arith.constant 4.000000e+00 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%y : memref<1x16x8x10xf32>) {
  ^bb0(%out: f32):
    %c = linalg.index 1 : index
    %h = linalg.index 2 : index
    %w = linalg.index 3 : index
    %h64 = arith.index_cast %h : index to i64
    %hf = arith.sitofp %h64 : i64 to f32
    %h1 = arith.addf %hf, %half : f32
    %h2 = arith.divf %h1, %two : f32
    %h3 = arith.subf %h2, %half : f32
    %h4 = math.floor %h3 : f32
    %h5 = math.ceil %h3 : f32
    %h6 = arith.subf %h3, %h4 : f32
    %h7 = arith.cmpf ule, %h6, %half : f32
    %h8 = arith.select %h7, %h4, %h5 : f32
    %h9 = arith.maximumf %h8, %zero : f32
    %h10 = arith.minimumf %h9, %last_h : f32
    %h11 = arith.fptosi %h10 : f32 to i64
    %ih = arith.index_cast %h11 : i64 to index
    %w64 = arith.index_cast %w : index to i64
    %wf = arith.sitofp %w64 : i64 to f32
    %w1 = arith.addf %wf, %half : f32
    %w2 = arith.divf %w1, %two : f32
    %w3 = arith.subf %w2, %half : f32
    %w4 = math.floor %w3 : f32
    %w5 = math.ceil %w3 : f32
    %w6 = arith.subf %w3, %w4 : f32
    %w7 = arith.cmpf ule, %w6, %half : f32
    %w8 = arith.select %w7, %w4, %w5 : f32
    %w9 = arith.maximumf %w8, %zero : f32
    %w10 = arith.minimumf %w9, %last_w : f32
    %w11 = arith.fptosi %w10 : f32 to i64
    %iw = arith.index_cast %w11 : i64 to index
    %v = memref.load %x[%c0, %c, %ih, %iw] : memref<1x16x4x5xf32>
    linalg.yield %v : f32
  }
  func.return
}

func.func @squares(%x: memref<16x10xf32>, %y: memref<4x10xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%y : memref<4x10xf32>) {
  ^bb0(%out: f32):
    %h = linalg.index 0 : index
    %w = linalg.index 1 : index
    %h64 = arith.index_cast %h : index to i64
    %hf = arith.sitofp %h64 : i64 to f32
    %sq = arith.mulf %hf, %hf : f32
    %s64 = arith.fptosi %sq : f32 to i64
    %row = arith.index_cast %s64 : i64 to index
    %v = memref.load %x[%row, %w] : memref<16x10xf32>
    linalg.yield %v : f32
  }
  func.return
}

func.func @from_data(%x: memref<16x10xf32>, %rows: memref<4xf32>, %y: memref<4x10xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%rows : memref<4xf32>) outs(%y : memref<4x10xf32>) {
  ^bb0(%r: f32, %out: f32):
    %w = linalg.index 1 : index
    %r64 = arith.fptosi %r : f32 to i64
    %row = arith.index_cast %r64 : i64 to index
    %v = memref.load %x[%row, %w] : memref<16x10xf32>
    linalg.yield %v : f32
  }
  func.return
}

func.func @diagonal(%x: memref<16x10xf32>, %y: memref<4x10xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%y : memref<4x10xf32>) {
  ^bb0(%out: f32):
    %h = linalg.index 0 : index
    %w = linalg.index 1 : index
    %h64 = arith.index_cast %h : index to i64
    %w64 = arith.index_cast %w : index to i64
    %hf = arith.sitofp %h64 : i64 to f32
    %wf = arith.sitofp %w64 : i64 to f32
    %s = arith.addf %hf, %wf : f32
    %s64 = arith.fptosi %s : f32 to i64
    %row = arith.index_cast %s64 : i64 to index
    %v = memref.load %x[%row, %w] : memref<16x10xf32>
    linalg.yield %v : f32
  }
  func.return
}
