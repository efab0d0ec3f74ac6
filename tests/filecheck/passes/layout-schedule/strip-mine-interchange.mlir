// layout-schedule's first two steps alone (vectorize=false, tile=0: no vectors, no register
// tile): each loop that walks a blocked dim of the leading buffer is strip-mined by the
// block, and the loops follow the buffer's memory order, the loops it does not walk (the
// reductions) inside in their own order.
// RUN: layout-opt %s -p 'layout-schedule{vectorize=false tile=0}' | filecheck %s

// The output is nChw16c: its memory order is (k floordiv 16, oh, ow, k mod 16), so the
// channel loop splits into a block loop outside and a lane loop inside the pixel loops.
// The reduction loops keep their order; the input channel loop is strip-mined in place by
// the 16-blocks of the input and weights (c = 16 cb + ci: the same order of additions).
// CHECK-LABEL: func.func @conv(
// CHECK-NEXT:    affine.for %[[KB:.*]] = 0 to 2 {
// CHECK-NEXT:      affine.for %[[OH:.*]] = 0 to 4 {
// CHECK-NEXT:        affine.for %[[OW:.*]] = 0 to 4 {
// CHECK-NEXT:          affine.for %[[KI:.*]] = 0 to 16 {
// CHECK-NEXT:            affine.for %[[CB:.*]] = 0 to 2 {
// CHECK-NEXT:              affine.for %[[CI:.*]] = 0 to 16 {
// CHECK-NEXT:                affine.for %[[KH:.*]] = 0 to 3 {
// CHECK-NEXT:                  affine.for %[[KW:.*]] = 0 to 3 {
// CHECK-NEXT:                    affine.load %x[0, %[[CB]] * 16 + %[[CI]], %[[OH]] + %[[KH]], %[[OW]] + %[[KW]]]
// CHECK-NEXT:                    affine.load %w[%[[KB]] * 16 + %[[KI]], %[[CB]] * 16 + %[[CI]], %[[KH]], %[[KW]]]
// CHECK-NEXT:                    %[[ACC:.*]] = affine.load %y[0, %[[KB]] * 16 + %[[KI]], %[[OH]], %[[OW]]]
// CHECK-NEXT:                    %[[P:.*]] = arith.mulf
// CHECK-NEXT:                    %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT:                    affine.store %[[S]], %y[0, %[[KB]] * 16 + %[[KI]], %[[OH]], %[[OW]]]
func.func @conv(%x: memref<1x32x6x6xf32, #layout.tag<"NCHW->nChw16c">>,
                %w: memref<32x32x3x3xf32, #layout.tag<"OIHW->OIhw16i16o">>,
                %y: memref<1x32x4x4xf32, #layout.tag<"NCHW->nChw16c">>) {
  affine.for %k = 0 to 32 {
    affine.for %oh = 0 to 4 {
      affine.for %ow = 0 to 4 {
        affine.for %c = 0 to 32 {
          affine.for %kh = 0 to 3 {
            affine.for %kw = 0 to 3 {
              %a = affine.load %x[0, %c, %oh + %kh, %ow + %kw] : memref<1x32x6x6xf32, #layout.tag<"NCHW->nChw16c">>
              %b = affine.load %w[%k, %c, %kh, %kw] : memref<32x32x3x3xf32, #layout.tag<"OIHW->OIhw16i16o">>
              %s = affine.load %y[0, %k, %oh, %ow] : memref<1x32x4x4xf32, #layout.tag<"NCHW->nChw16c">>
              %p = arith.mulf %a, %b : f32
              %t = arith.addf %s, %p : f32
              affine.store %t, %y[0, %k, %oh, %ow] : memref<1x32x4x4xf32, #layout.tag<"NCHW->nChw16c">>
            }
          }
        }
      }
    }
  }
  func.return
}

// i-k-j order: the reduction loop k moves inside j (dependence analysis proves it: the only
// dependences are on %c[i, j], carried by k alone).
// CHECK-LABEL: func.func @matmul_ikj(
// CHECK-NEXT:    affine.for %[[I:.*]] = 0 to 8 {
// CHECK-NEXT:      affine.for %[[J:.*]] = 0 to 32 {
// CHECK-NEXT:        affine.for %[[K:.*]] = 0 to 16 {
// CHECK-NEXT:          affine.load %a[%[[I]], %[[K]]]
// CHECK-NEXT:          affine.load %b[%[[K]], %[[J]]]
// CHECK-NEXT:          affine.load %c[%[[I]], %[[J]]]
func.func @matmul_ikj(%a: memref<8x16xf32>, %b: memref<16x32xf32, #layout.tag<"KN->Nk16n">>, %c: memref<8x32xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 16 {
      affine.for %j = 0 to 32 {
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

// A blocked dim that the block does not divide (C = 20 in 16-blocks): the full block, then
// the 4 channels left, each walked in memory order (rows, then the lanes of the block).
// CHECK-LABEL: func.func @ragged(
// CHECK-NEXT:    affine.for %[[H:.*]] = 0 to 3 {
// CHECK-NEXT:      affine.for %[[C:.*]] = 0 to 16 {
// CHECK-NEXT:        affine.store %v, %y[0, %[[C]], %[[H]], 0]
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    affine.for %[[H2:.*]] = 0 to 3 {
// CHECK-NEXT:      affine.for %[[R:.*]] = 0 to 4 {
// CHECK-NEXT:        affine.store %v, %y[0, %[[R]] + 16, %[[H2]], 0]
func.func @ragged(%y: memref<1x20x3x1xf32, #layout.tag<"NCHW->nChw16c">>, %v: f32) {
  affine.for %c = 0 to 20 {
    affine.for %h = 0 to 3 {
      affine.store %v, %y[0, %c, %h, 0] : memref<1x20x3x1xf32, #layout.tag<"NCHW->nChw16c">>
    }
  }
  func.return
}

// A nest that already walks memory order is left as it is.
// CHECK-LABEL: func.func @in_order(
// CHECK-NEXT:    affine.for %{{.*}} = 0 to 4 {
// CHECK-NEXT:      affine.for %{{.*}} = 0 to 8 {
// CHECK-NEXT:        affine.store
func.func @in_order(%y: memref<4x8xf32, #layout.tag<"MN->MN">>, %v: f32) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 8 {
      affine.store %v, %y[%i, %j] : memref<4x8xf32, #layout.tag<"MN->MN">>
    }
  }
  func.return
}
