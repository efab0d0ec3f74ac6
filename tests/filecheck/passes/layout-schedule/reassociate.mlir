// reassociate=true lets the reduction loops follow the memory order of the operand they
// walk: for OIhw16i16o weights that is (c floordiv 16, kh, kw, c mod 16), so the input
// channel loop is strip-mined and its lanes go innermost. The additions into each output
// element then happen in another order (results may differ in rounding); without the
// option the loops keep the nest's order (c, kh, kw), c strip-mined in place (kw an scf.for
// kept rolled: rolled-loop.mlir).
// RUN: layout-opt %s -p 'layout-schedule{target=avx2 reassociate=true}' | filecheck %s
// RUN: layout-opt %s -p 'layout-schedule{target=avx2}' | filecheck %s --check-prefix=EXACT

// CHECK-LABEL: func.func @conv(
// CHECK:         {{(%[0-9]+, ){7}%[0-9]+}} = affine.for %[[CB:.*]] = 0 to 2 iter_args(
// CHECK-NEXT:      {{(%[0-9]+, ){7}%[0-9]+}} = affine.for %[[KH:.*]] = 0 to 3 iter_args(
// CHECK-NEXT:        {{(%[0-9]+, ){7}%[0-9]+}} = affine.for %[[KW:.*]] = 0 to 3 iter_args(
// CHECK-NEXT:          {{(%[0-9]+, ){7}%[0-9]+}} = affine.for %[[CI:.*]] = 0 to 16 iter_args(
// CHECK-NEXT:            affine.load %x[0, %[[CB]] * 16 + %[[CI]], %{{.*}} + %[[KH]], %{{.*}} + %[[KW]]]
// EXACT-LABEL: func.func @conv(
// EXACT:         {{(%[0-9]+, ){7}%[0-9]+}} = affine.for %[[CB:.*]] = 0 to 2 iter_args(
// EXACT-NEXT:      {{(%[0-9]+, ){7}%[0-9]+}} = affine.for %[[CI:.*]] = 0 to 16 iter_args(
// EXACT-NEXT:        {{(%[0-9]+, ){7}%[0-9]+}} = affine.for %[[KH:.*]] = 0 to 3 iter_args(
// EXACT-NEXT:          {{(%[0-9]+, ){7}%[0-9]+}} = scf.for %[[KW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(
// EXACT-NEXT:            %[[C:.*]] = affine.apply affine_map<(d0, d1) -> (((d0 * 16) + d1))> (%[[CB]], %[[CI]])
// EXACT-NEXT:            %[[ROW:.*]] = affine.apply affine_map<(d0, d1) -> ((d0 + d1))> (%{{.*}}, %[[KH]])
// EXACT-NEXT:            %[[COL:.*]] = affine.apply affine_map<(d0, d1) -> (((d0 * 4) + d1))> (%{{.*}}, %[[KW]])
// EXACT-NEXT:            memref.load %x[%{{.*}}, %[[C]], %[[ROW]], %[[COL]]]
func.func @conv(%x: memref<1x32x6x10xf32, #layout.tag<"NCHW->nChw16c">>,
                %w: memref<16x32x3x3xf32, #layout.tag<"OIHW->OIhw16i16o">>,
                %y: memref<1x16x4x8xf32, #layout.tag<"NCHW->nChw16c">>) {
  %zero = arith.constant 0.0 : f32
  affine.for %k = 0 to 16 {
    affine.for %oh = 0 to 4 {
      affine.for %ow = 0 to 8 {
        affine.store %zero, %y[0, %k, %oh, %ow] : memref<1x16x4x8xf32, #layout.tag<"NCHW->nChw16c">>
        affine.for %c = 0 to 32 {
          affine.for %kh = 0 to 3 {
            affine.for %kw = 0 to 3 {
              %a = affine.load %x[0, %c, %oh + %kh, %ow + %kw] : memref<1x32x6x10xf32, #layout.tag<"NCHW->nChw16c">>
              %b = affine.load %w[%k, %c, %kh, %kw] : memref<16x32x3x3xf32, #layout.tag<"OIHW->OIhw16i16o">>
              %s = affine.load %y[0, %k, %oh, %ow] : memref<1x16x4x8xf32, #layout.tag<"NCHW->nChw16c">>
              %p = arith.mulf %a, %b : f32
              %t = arith.addf %s, %p : f32
              affine.store %t, %y[0, %k, %oh, %ow] : memref<1x16x4x8xf32, #layout.tag<"NCHW->nChw16c">>
            }
          }
        }
      }
    }
  }
  func.return
}
