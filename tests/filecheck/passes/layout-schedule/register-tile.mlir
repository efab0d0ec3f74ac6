// Register tiling: parallel loops are unrolled and jammed so that several accumulators stay
// in registers across the reduction loop, which carries them (iter_args) instead of loading
// and storing the output every iteration. Copies share loads: the B vectors across rows,
// the broadcast A scalars across columns. The zero stored before the reduction seeds the
// accumulators and is not stored.
// RUN: layout-opt %s -p 'layout-schedule{target=avx2}' | filecheck %s
// RUN: layout-opt %s -p 'layout-schedule{target=avx2 tile=3,8}' | filecheck %s --check-prefix=TILE
// RUN: layout-opt %s -p 'layout-schedule{target=avx2 fma=true}' | filecheck %s --check-prefix=FMA
// RUN: layout-opt -v %s -p 'layout-schedule{target=avx512}' 2>&1 >/dev/null | filecheck %s --check-prefix=CHAINS

// Default for AVX2 (16 registers, multiply and add separate): the tile with the fewest
// operand loads per multiply-add that fits, here all 4 vectors of 8 columns x 2 rows =
// 8 accumulators (2 x 4 loads as many; ties go to more vectors). The row copies, fewer,
// go innermost: the 2 broadcast A scalars stay live while each B vector is used twice.
// CHECK-LABEL: func.func @matmul(
// CHECK:         %[[Z:.*]] = vector.broadcast %zero : f32 to vector<8xf32>
// CHECK-NEXT:    affine.for %[[I:.*]] = 0 to 4 {
// CHECK-NEXT:      %[[R0:[0-9]+]], %[[R1:[0-9]+]], %[[R2:[0-9]+]], %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} = affine.for %[[K:.*]] = 0 to 16 iter_args(%[[A0:[0-9]+]] = %[[Z]], %[[A1:[0-9]+]] = %[[Z]], %{{[0-9]+}} = %[[Z]], %{{[0-9]+}} = %[[Z]], %{{[0-9]+}} = %[[Z]], %{{[0-9]+}} = %[[Z]], %{{[0-9]+}} = %[[Z]], %{{[0-9]+}} = %[[Z]]) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
// CHECK-NEXT:        %[[X0:.*]] = affine.load %a[%[[I]] * 2, %[[K]]]
// CHECK-NEXT:        %[[B0:.*]] = affine.vector_load %b[%[[K]], 0] : {{.*}} vector<8xf32>
// CHECK-NEXT:        %[[S0:.*]] = vector.broadcast %[[X0]] : f32 to vector<8xf32>
// CHECK-NEXT:        %[[P0:.*]] = arith.mulf %[[S0]], %[[B0]] : vector<8xf32>
// CHECK-NEXT:        %[[N0:.*]] = arith.addf %[[A0]], %[[P0]] : vector<8xf32>
// CHECK-NEXT:        %[[X1:.*]] = affine.load %a[%[[I]] * 2 + 1, %[[K]]]
// CHECK-NEXT:        %[[S1:.*]] = vector.broadcast %[[X1]] : f32 to vector<8xf32>
// CHECK-NEXT:        %[[P1:.*]] = arith.mulf %[[S1]], %[[B0]] : vector<8xf32>
// CHECK-NEXT:        %[[N1:.*]] = arith.addf %[[A1]], %[[P1]] : vector<8xf32>
// CHECK-NEXT:        %[[B1:.*]] = affine.vector_load %b[%[[K]], 8] : {{.*}} vector<8xf32>
// CHECK-NEXT:        arith.mulf %[[S0]], %[[B1]] : vector<8xf32>
// CHECK:             affine.yield %[[N0]], %[[N1]], {{.*}} : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      affine.vector_store %[[R0]], %c[%[[I]] * 2, 0] : memref<8x32xf32>, vector<8xf32>
// CHECK-NEXT:      affine.vector_store %[[R1]], %c[%[[I]] * 2 + 1, 0] : memref<8x32xf32>, vector<8xf32>
// CHECK-NEXT:      affine.vector_store %[[R2]], %c[%[[I]] * 2, 8] : memref<8x32xf32>, vector<8xf32>
// CHECK-NOT:     affine.store
// CHECK:         func.return

// tile=3,8 (3 rows, 8 columns): 8 rows are 2 full tiles and a tile of the 2 rows left.
// TILE-LABEL: func.func @matmul(
// TILE:         affine.for %[[J:.*]] = 0 to 4 {
// TILE-NEXT:      affine.for %[[I:.*]] = 0 to 2 {
// TILE-NEXT:        %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} = affine.for
// TILE:             }
// TILE:           }
// TILE-NEXT:      %{{[0-9]+}}, %{{[0-9]+}} = affine.for
// TILE:             affine.load %a[6, %{{.*}}]
// TILE:             affine.load %a[7, %{{.*}}]

// fma=true: one vector.fma per multiply-add (one rounding, so not bitwise identical).
// FMA-LABEL: func.func @matmul(
// FMA:           %[[B0:.*]] = affine.vector_load %b
// FMA-NEXT:      %[[S0:.*]] = vector.broadcast
// FMA-NEXT:      vector.fma %[[S0]], %[[B0]], %{{.*}} : vector<8xf32>
// FMA-NOT:       arith.mulf
func.func @matmul(%a: memref<8x16xf32>, %b: memref<16x32xf32, #layout.tag<"KN->Nk16n">>, %c: memref<8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 32 {
      affine.store %zero, %c[%i, %j] : memref<8x32xf32>
      affine.for %k = 0 to 16 {
        %x = affine.load %a[%i, %k] : memref<8x16xf32>
        %y = affine.load %b[%k, %j] : memref<16x32xf32, #layout.tag<"KN->Nk16n">>
        %z = affine.load %c[%i, %j] : memref<8x32xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %z, %p : f32
        affine.store %s, %c[%i, %j] : memref<8x32xf32>
      }
    }
  }
  func.return
}

// Without an initial store the accumulators start from the output (loaded once per tile),
// and the reductions go through three loops: each carries the accumulators.
// The tile is all 32 output channels (4 vectors, 2 blocks) x 2 columns: the column
// copies, fewer, go innermost, so 2 broadcast input pixels stay live. The columns' input
// reads overlap along kw: in the exact mode on AVX2 that loop stays rolled, an scf.for
// (rolled-loop.mlir) whose reads are memref.load.
// CHECK-LABEL: func.func @conv(
// CHECK:         affine.for %[[OH:.*]] = 0 to 4 {
// CHECK-NEXT:      affine.for %[[OWT:.*]] = 0 to 4 {
// CHECK:             %[[Y0:.*]] = vector.transfer_read %y[{{.*}}], {{.*}} vector<8xf32>
// CHECK:             = affine.for %[[C:.*]] = 0 to 16 iter_args(%{{[0-9]+}} = %[[Y0]],
// CHECK-NEXT:          = affine.for %[[KH:.*]] = 0 to 3 iter_args(
// CHECK-NEXT:            = scf.for %[[KW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(
// CHECK-NEXT:              %[[ROW:.*]] = affine.apply affine_map<(d0, d1) -> ((d0 + d1))> (%[[OH]], %[[KH]])
// CHECK-NEXT:              %[[COL:.*]] = affine.apply affine_map<(d0, d1) -> (((d0 * 2) + d1))> (%[[OWT]], %[[KW]])
// CHECK-NEXT:              memref.load %x[%{{.*}}, %[[C]], %[[ROW]], %[[COL]]]
// CHECK-NEXT:              vector.transfer_read %w[
// CHECK:                   %[[NEXT:.*]] = affine.apply affine_map<(d0, d1) -> ((((d0 * 2) + 1) + d1))> (%[[OWT]], %[[KW]])
// CHECK-NEXT:              memref.load %x[%{{.*}}, %[[C]], %[[ROW]], %[[NEXT]]]
// CHECK-NOT:               memref.load %x
// CHECK:                   scf.yield
// CHECK-NEXT:            } {loop_annotation
// CHECK-NEXT:            affine.yield
// CHECK-NEXT:          }
// CHECK-NEXT:          affine.yield
// CHECK-NEXT:        }
// CHECK-NEXT:        vector.transfer_write %{{.*}}, %y[
func.func @conv(%x: memref<1x16x6x10xf32, #layout.tag<"NCHW->nChw16c">>,
                %w: memref<32x16x3x3xf32, #layout.tag<"OIHW->OIhw16i16o">>,
                %y: memref<1x32x4x8xf32, #layout.tag<"NCHW->nChw16c">>) {
  affine.for %k = 0 to 32 {
    affine.for %oh = 0 to 4 {
      affine.for %ow = 0 to 8 {
        affine.for %c = 0 to 16 {
          affine.for %kh = 0 to 3 {
            affine.for %kw = 0 to 3 {
              %a = affine.load %x[0, %c, %oh + %kh, %ow + %kw] : memref<1x16x6x10xf32, #layout.tag<"NCHW->nChw16c">>
              %b = affine.load %w[%k, %c, %kh, %kw] : memref<32x16x3x3xf32, #layout.tag<"OIHW->OIhw16i16o">>
              %s = affine.load %y[0, %k, %oh, %ow] : memref<1x32x4x8xf32, #layout.tag<"NCHW->nChw16c">>
              %p = arith.mulf %a, %b : f32
              %t = arith.addf %s, %p : f32
              affine.store %t, %y[0, %k, %oh, %ow] : memref<1x32x4x8xf32, #layout.tag<"NCHW->nChw16c">>
            }
          }
        }
      }
    }
  }
  func.return
}

// A pooling window's reductions share no read across output columns (no weights), so no
// loop has copies that save loads; each accumulator is one dependent chain of `maximumf`,
// latency-bound with a tile of one or two. Output columns are unrolled until 8 chains run
// side by side (CHAINS): here 1 vector of 16 channels x 8 columns, on AVX-512.
// CHAINS: remark: layout-schedule: @pool: nest %pooling_nchw_max: scheduled: loops (%pooling_nchw_max/1, %d1/16, %d2/1, %d3/8) around the tile, vector<16xf32> along %d1, 1 unrolled digit(s); inner loops (%d4, %d5) carry 1 accumulator(s) per copy
func.func @pool(%x: memref<1x16x10x18xf32, #layout.tag<"NCHW->nChw16c">>,
                %y: memref<1x16x8x16xf32, #layout.tag<"NCHW->nChw16c">>) {
  %window = memref.alloc() : memref<3x3xf32>
  linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %window : memref<1x16x10x18xf32, #layout.tag<"NCHW->nChw16c">>, memref<3x3xf32>) outs(%y : memref<1x16x8x16xf32, #layout.tag<"NCHW->nChw16c">>)
  memref.dealloc %window : memref<3x3xf32>
  func.return
}
