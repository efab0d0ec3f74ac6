// layout-schedule then layout-lower: the logical vector accesses walk contiguous physical
// runs, so they stay whole vector loads and stores of the physical buffers (no lane-by-lane
// split), and the multiply-adds stay on vectors.
// RUN: layout-opt %s -p 'layout-schedule{target=avx2},layout-lower' | filecheck %s
// RUN: layout-opt %s -p 'layout-schedule{target=avx2},layout-lower' | filecheck %s --check-prefix=NONE
// NONE-NOT: {{vector.from_elements|vector.extract|vector.transfer|layout\.}}

// CHECK-LABEL: func.func @conv(%x: memref<1x2x6x10x16xf32>, %w: memref<2x2x3x3x16x16xf32>, %y: memref<1x2x4x8x16xf32>) {
// CHECK:         %{{.*}} = vector.load %y[{{.*}}] : memref<1x2x4x8x16xf32>, vector<8xf32>
// CHECK:         affine.for %{{.*}} = 0 to 16 iter_args(
// CHECK:           %[[X:.*]] = memref.load %x[{{.*}}] : memref<1x2x6x10x16xf32>
// CHECK:           %[[W:.*]] = vector.load %w[{{.*}}] : memref<2x2x3x3x16x16xf32>, vector<8xf32>
// CHECK-NEXT:      %[[S:.*]] = vector.broadcast %[[X]] : f32 to vector<8xf32>
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[S]], %[[W]] : vector<8xf32>
// CHECK-NEXT:      arith.addf %{{.*}}, %[[P]] : vector<8xf32>
// CHECK:         vector.store %{{.*}}, %y[{{.*}}] : memref<1x2x4x8x16xf32>, vector<8xf32>
func.func @conv(%x: memref<1x32x6x10xf32, #layout.tag<"NCHW->nChw16c">>,
                %w: memref<32x32x3x3xf32, #layout.tag<"OIHW->OIhw16i16o">>,
                %y: memref<1x32x4x8xf32, #layout.tag<"NCHW->nChw16c">>) {
  affine.for %k = 0 to 32 {
    affine.for %oh = 0 to 4 {
      affine.for %ow = 0 to 8 {
        affine.for %c = 0 to 32 {
          affine.for %kh = 0 to 3 {
            affine.for %kw = 0 to 3 {
              %a = affine.load %x[0, %c, %oh + %kh, %ow + %kw] : memref<1x32x6x10xf32, #layout.tag<"NCHW->nChw16c">>
              %b = affine.load %w[%k, %c, %kh, %kw] : memref<32x32x3x3xf32, #layout.tag<"OIHW->OIhw16i16o">>
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

// CHECK-LABEL: func.func @matmul(%a: memref<8x16xf32>, %b: memref<2x16x16xf32>, %c: memref<8x32xf32>) {
// CHECK:         affine.for %{{.*}} = 0 to 16 iter_args(
// CHECK:           vector.load %b[{{.*}}] : memref<2x16x16xf32>, vector<8xf32>
// CHECK:         affine.vector_store %{{.*}}, %c[{{.*}}] : memref<8x32xf32>, vector<8xf32>
func.func @matmul(%a: memref<8x16xf32>, %b: memref<16x32xf32, #layout.tag<"KN->Nk16n">>, %c: memref<8x32xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 32 {
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
