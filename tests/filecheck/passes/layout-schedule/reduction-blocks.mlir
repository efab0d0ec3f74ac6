// A long sum walked block by block around the tiles (passes/schedule/reduction_blocks.py).
// One tile of @conv (32 output channels by 2 columns on AVX2) reads 64 input channels' worth
// of weights, 75 KB, more than L1; the input-channel block %c/16 moves out among the loops
// around the tile, just inside the output-channel blocks the weights depend on, and each
// block's 9 KB serve every tile. The additions keep their order: the first block starts
// from the zeroed pixel (the statement before the reduction loops), the two between load
// and store the accumulators, the last runs the bias and ReLU after them. @small's tiles read
// 18 KB, and with reassociate=true @conv sums in blocks of its own: both keep the block
// inside the tile.
// RUN: layout-opt %s -p 'layout-schedule{target=avx2 remarks=true}' 2>&1 | filecheck %s
// RUN: layout-opt %s -p 'layout-schedule{target=avx2 fma=true reassociate=true remarks=true}' 2>&1 | filecheck %s --check-prefix=REASSOCIATE

// CHECK: remark: layout-schedule: @conv: nest %k: %c/16 runs around the tile: one tile's reads (75 KB) exceed L1 (32 KB)
// CHECK-NEXT: remark: layout-schedule: @conv: nest %k: scheduled: loops (%k/32, %c/16, %oh/1, %ow/2) around the tile, vector<8xf32> along %k, 3 unrolled digit(s); inner loops (%c, %kh, %kw) carry 1 accumulator(s) per copy
// CHECK-NOT: runs around the tile
// CHECK: remark: layout-schedule: @small: nest %k: scheduled: loops (%k/16, %oh/1, %ow/{{[0-9]+}}) around the tile
// CHECK-NOT: runs around the tile

// CHECK-LABEL: func.func @conv(
// CHECK:         %[[ZERO:.*]] = vector.broadcast %zero : f32 to vector<8xf32>
// CHECK:         affine.for %oh = 0 to 2 {
// CHECK-NEXT:      affine.for %ow = 0 to 2 {
// CHECK-NEXT:        {{.*}} = affine.for %c = 0 to 16 iter_args(%{{.*}} = %[[ZERO]],
// CHECK:               memref.load %x[%{{.*}}, %c, %{{.*}}, %{{.*}}]
// CHECK:             vector.transfer_write
// CHECK-NOT:         arith.maximumf
// CHECK:         affine.for %[[BLOCK:.*]] = 0 to 2 {
// CHECK-NEXT:      affine.for %[[OH:.*]] = 0 to 2 {
// CHECK-NEXT:        affine.for %[[OW:.*]] = 0 to 2 {
// CHECK:               %[[Y:.*]] = vector.transfer_read %y[{{.*}}, %[[OH]], {{.*}}]
// CHECK:               {{.*}} = affine.for %[[C:.*]] = 0 to 16 iter_args(%{{.*}} = %[[Y]],
// CHECK:                   %[[CH:.*]] = affine.apply affine_map<(d0, d1) -> ((((d0 * 16) + 16) + d1))> (%[[BLOCK]], %[[C]])
// CHECK:                   memref.load %x[%{{.*}}, %[[CH]], %{{.*}}, %{{.*}}]
// CHECK-NOT:         arith.maximumf
// CHECK:         affine.for %[[OH:.*]] = 0 to 2 {
// CHECK-NEXT:      affine.for %[[OW:.*]] = 0 to 2 {
// CHECK:               %[[LAST:.*]] = affine.apply affine_map<(d0) -> ((d0 + 48))> (%{{.*}})
// CHECK:               memref.load %x[%{{.*}}, %[[LAST]], %{{.*}}, %{{.*}}]
// CHECK:             %[[B:.*]] = affine.vector_load %bias[0]
// CHECK-NEXT:        %[[S:.*]] = arith.addf %{{.*}}, %[[B]] : vector<8xf32>
// CHECK-NEXT:        %[[R:.*]] = arith.maximumf %[[S]], %[[ZERO]] : vector<8xf32>
// CHECK-NEXT:        vector.transfer_write %[[R]], %y
// CHECK-COUNT-7:     arith.maximumf
// CHECK-NOT:     arith.maximumf
// CHECK-LABEL: func.func @small(

// REASSOCIATE-NOT: runs around the tile
// REASSOCIATE: @conv: nest %k: scheduled: loops (%k/32, %oh/1, %ow/2) around the tile, vector<8xf32> along %k, 3 unrolled digit(s); inner loops (%c/16, %kh, %kw, %c) carry 1 accumulator(s) per copy, summed in blocks of 144
// REASSOCIATE-NOT: runs around the tile

func.func @conv(%x: memref<1x64x4x6xf32, #layout.tag<"NCHW->nChw16c">>,
                %w: memref<32x64x3x3xf32, #layout.tag<"OIHW->OIhw16i16o">>,
                %bias: memref<32xf32>,
                %y: memref<1x32x2x4xf32, #layout.tag<"NCHW->nChw16c">>) {
  %zero = arith.constant 0.0 : f32
  affine.for %k = 0 to 32 {
    affine.for %oh = 0 to 2 {
      affine.for %ow = 0 to 4 {
        affine.store %zero, %y[0, %k, %oh, %ow] : memref<1x32x2x4xf32, #layout.tag<"NCHW->nChw16c">>
        affine.for %c = 0 to 64 {
          affine.for %kh = 0 to 3 {
            affine.for %kw = 0 to 3 {
              %a = affine.load %x[0, %c, %oh + %kh, %ow + %kw] : memref<1x64x4x6xf32, #layout.tag<"NCHW->nChw16c">>
              %b = affine.load %w[%k, %c, %kh, %kw] : memref<32x64x3x3xf32, #layout.tag<"OIHW->OIhw16i16o">>
              %s = affine.load %y[0, %k, %oh, %ow] : memref<1x32x2x4xf32, #layout.tag<"NCHW->nChw16c">>
              %p = arith.mulf %a, %b : f32
              %t = arith.addf %s, %p : f32
              affine.store %t, %y[0, %k, %oh, %ow] : memref<1x32x2x4xf32, #layout.tag<"NCHW->nChw16c">>
            }
          }
        }
        %v = affine.load %y[0, %k, %oh, %ow] : memref<1x32x2x4xf32, #layout.tag<"NCHW->nChw16c">>
        %bk = affine.load %bias[%k] : memref<32xf32>
        %u = arith.addf %v, %bk : f32
        %r = arith.maximumf %u, %zero : f32
        affine.store %r, %y[0, %k, %oh, %ow] : memref<1x32x2x4xf32, #layout.tag<"NCHW->nChw16c">>
      }
    }
  }
  func.return
}

func.func @small(%x: memref<1x32x4x6xf32, #layout.tag<"NCHW->nChw16c">>,
                 %w: memref<16x32x3x3xf32, #layout.tag<"OIHW->OIhw16i16o">>,
                 %y: memref<1x16x2x4xf32, #layout.tag<"NCHW->nChw16c">>) {
  affine.for %k = 0 to 16 {
    affine.for %oh = 0 to 2 {
      affine.for %ow = 0 to 4 {
        affine.for %c = 0 to 32 {
          affine.for %kh = 0 to 3 {
            affine.for %kw = 0 to 3 {
              %a = affine.load %x[0, %c, %oh + %kh, %ow + %kw] : memref<1x32x4x6xf32, #layout.tag<"NCHW->nChw16c">>
              %b = affine.load %w[%k, %c, %kh, %kw] : memref<16x32x3x3xf32, #layout.tag<"OIHW->OIhw16i16o">>
              %s = affine.load %y[0, %k, %oh, %ow] : memref<1x16x2x4xf32, #layout.tag<"NCHW->nChw16c">>
              %p = arith.mulf %a, %b : f32
              %t = arith.addf %s, %p : f32
              affine.store %t, %y[0, %k, %oh, %ow] : memref<1x16x2x4xf32, #layout.tag<"NCHW->nChw16c">>
            }
          }
        }
      }
    }
  }
  func.return
}
