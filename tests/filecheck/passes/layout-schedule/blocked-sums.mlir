// With reassociate=true a float sum of more than 256 terms adds them in blocks into fresh
// partial results (started at -0.0, the identity of addf), each block's result then added
// to the accumulator (passes/schedule/blocked_sums.py): the rounding error grows with the
// block's length and the number of blocks instead of with the whole sum's. A matmul's k
// loop is split into blocks of 64 (300 = 4 x 64 + 44); a convolution's blocks are whole
// input-channel blocks (16 channels x 3 x 3 = 144 terms). A sum of 256 terms, a max (whose
// order does not change its result), and the exact mode are left as they were.
// RUN: layout-opt %s -p 'layout-schedule{target=avx512 reassociate=true}' | filecheck %s
// RUN: layout-opt %s -p 'layout-schedule{target=avx512}' | filecheck %s --check-prefix=EXACT
// RUN: layout-opt -v %s -p 'layout-schedule{target=avx512 reassociate=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// REMARK: @matmul: {{.*}} inner loops (%k/64, %k) carry 1 accumulator(s) per copy, summed in blocks of 64
// REMARK: @conv: {{.*}} inner loops (%c/16, %kh, %kw, %c) carry 1 accumulator(s) per copy, summed in blocks of 144
// REMARK: @short: {{.*}} inner loops (%k) carry 1 accumulator(s) per copy{{$}}
// REMARK: @maximum: {{.*}} inner loops (%k) carry 1 accumulator(s) per copy{{$}}

// CHECK-LABEL: func.func @matmul(
// CHECK:         %[[ID:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-NEXT:    %[[IDV:.*]] = vector.broadcast %[[ID]] : f32 to vector<16xf32>
// CHECK-NEXT:    %[[T0:[0-9]+]], {{(%[0-9]+, ){6}%[0-9]+}} = affine.for %[[KB:.*]] = 0 to 4 iter_args(%[[S0:[0-9]+]] = %[[ZERO:[0-9]+]],
// CHECK-NEXT:      %[[P0:[0-9]+]], {{(%[0-9]+, ){6}%[0-9]+}} = affine.for %[[K:.*]] = 0 to 64 iter_args(%{{[0-9]+}} = %[[IDV]],
// CHECK-NEXT:        affine.load %a[0, %[[KB]] * 64 + %[[K]]]
// CHECK:           }
// CHECK-NEXT:      arith.addf %[[S0]], %[[P0]] : vector<16xf32>
// CHECK:         %[[R0:[0-9]+]], {{(%[0-9]+, ){6}%[0-9]+}} = affine.for %[[KR:.*]] = 0 to 44 iter_args(%{{[0-9]+}} = %[[IDV]],
// CHECK-NEXT:      affine.load %a[0, %[[KR]] + 256]
// CHECK:         }
// CHECK-NEXT:    %[[C0:.*]] = arith.addf %[[T0]], %[[R0]] : vector<16xf32>
// CHECK:         affine.vector_store %[[C0]], %c[0, 0]
// EXACT-LABEL: func.func @matmul(
// EXACT-NOT:     -0.000000e+00
// EXACT:         affine.for %{{.*}} = 0 to 300 iter_args(
// EXACT:           affine.yield
// EXACT-NEXT:    }
// EXACT-NEXT:    affine.vector_store

// CHECK-LABEL: func.func @conv(
// CHECK:         %[[ID:.*]] = arith.constant -0.000000e+00 : f32
// CHECK:         %[[IDV:.*]] = vector.broadcast %[[ID]] : f32 to vector<16xf32>
// CHECK:         %[[T0:[0-9]+]], {{(%[0-9]+, ){6}%[0-9]+}} = affine.for %[[CB:.*]] = 0 to 2 iter_args(%[[S0:[0-9]+]] = %{{[0-9]+}},
// CHECK-NEXT:      %[[P0:[0-9]+]], {{(%[0-9]+, ){6}%[0-9]+}} = affine.for %[[KH:.*]] = 0 to 3 iter_args(%{{[0-9]+}} = %[[IDV]],
// CHECK-NEXT:        affine.for %[[KW:.*]] = 0 to 3 iter_args(
// CHECK-NEXT:          affine.for %[[CI:.*]] = 0 to 16 iter_args(
// CHECK:           arith.addf %[[S0]], %[[P0]] : vector<16xf32>
// CHECK:         vector.transfer_write %[[T0]], %y

// CHECK-LABEL: func.func @short(
// CHECK-NOT:     -0.000000e+00
// CHECK:         affine.for %{{.*}} = 0 to 256 iter_args(
// CHECK-LABEL: func.func @maximum(
// CHECK-NOT:     -0.000000e+00
// CHECK:         affine.for %{{.*}} = 0 to 300 iter_args(
// CHECK-NEXT:      affine.vector_load
// CHECK-NEXT:      arith.maximumf

func.func @matmul(%a: memref<8x300xf32>, %b: memref<300x16xf32>, %c: memref<8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 16 {
      affine.store %zero, %c[%i, %j] : memref<8x16xf32>
      affine.for %k = 0 to 300 {
        %x = affine.load %a[%i, %k] : memref<8x300xf32>
        %y = affine.load %b[%k, %j] : memref<300x16xf32>
        %s = affine.load %c[%i, %j] : memref<8x16xf32>
        %p = arith.mulf %x, %y : f32
        %t = arith.addf %s, %p : f32
        affine.store %t, %c[%i, %j] : memref<8x16xf32>
      }
    }
  }
  func.return
}
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
func.func @short(%a: memref<8x256xf32>, %b: memref<256x16xf32>, %c: memref<8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 16 {
      affine.store %zero, %c[%i, %j] : memref<8x16xf32>
      affine.for %k = 0 to 256 {
        %x = affine.load %a[%i, %k] : memref<8x256xf32>
        %y = affine.load %b[%k, %j] : memref<256x16xf32>
        %s = affine.load %c[%i, %j] : memref<8x16xf32>
        %p = arith.mulf %x, %y : f32
        %t = arith.addf %s, %p : f32
        affine.store %t, %c[%i, %j] : memref<8x16xf32>
      }
    }
  }
  func.return
}
func.func @maximum(%a: memref<300x16xf32>, %m: memref<16xf32>) {
  affine.for %j = 0 to 16 {
    affine.for %k = 0 to 300 {
      %x = affine.load %a[%k, %j] : memref<300x16xf32>
      %s = affine.load %m[%j] : memref<16xf32>
      %t = arith.maximumf %s, %x : f32
      affine.store %t, %m[%j] : memref<16xf32>
    }
  }
  func.return
}
