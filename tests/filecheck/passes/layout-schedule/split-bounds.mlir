// Index-set splitting: a padded convolution written with max/min kernel bounds (the README's
// conv2d example, at 8x8) becomes nine nests, the interior rows and columns (1 to 7) with the
// whole 3x3 kernel and each border row and column with its part of it; every one has
// constant bounds and is scheduled. A nest whose rows all add into one output element is
// not split (running it range by range would reorder the sums), and says so.
// RUN: layout-opt -v %s -p 'layout-schedule{target=avx2}' -o %t 2>&1 | filecheck %s
// RUN: filecheck %s --input-file %t --check-prefix=IR

// CHECK: remark: layout-schedule: @conv: nest %k: split into 9 nest(s) by the max/min bounds of %oh, %ow
// CHECK-COUNT-9: remark: layout-schedule: @conv: nest %k: scheduled: loops
// CHECK: remark: layout-schedule: @shared: nest %i: not split by the max/min bounds of %i: different iterations of %i and the loops around it may touch one element of a buffer the nest writes
// CHECK-NEXT: remark: layout-schedule: @shared: nest %i: not scheduled: affine.for: the loop bounds are not constants

// IR-LABEL: func.func @conv(
// IR-NOT:     max
// IR-NOT:     min
// IR:         vector<8xf32>
// IR-LABEL: func.func @shared(
// IR:         affine.for %{{.*}} = max affine_map<{{.*}}>(%{{.*}}) to min affine_map<{{.*}}>(%{{.*}}) {
func.func @conv(%input: memref<1x16x8x8xf32>, %weights: memref<16x16x3x3xf32>,
                %output: memref<1x16x8x8xf32>) {
  layout.assign %input to #layout.tag<"nChw8c"> : memref<1x16x8x8xf32>
  layout.assign %weights to #layout.tag<"OIhw8i8o"> : memref<16x16x3x3xf32>
  layout.assign %output to #layout.tag<"nChw8c"> : memref<1x16x8x8xf32>
  %zero = arith.constant 0.0 : f32
  affine.for %k = 0 to 16 {
    affine.for %oh = 0 to 8 {
      affine.for %ow = 0 to 8 {
        affine.store %zero, %output[0, %k, %oh, %ow] : memref<1x16x8x8xf32>
        affine.for %c = 0 to 16 {
          affine.for %kh = max affine_map<(d0) -> (0, 1 - d0)>(%oh) to min affine_map<(d0) -> (3, 9 - d0)>(%oh) {
            affine.for %kw = max affine_map<(d0) -> (0, 1 - d0)>(%ow) to min affine_map<(d0) -> (3, 9 - d0)>(%ow) {
              %x = affine.load %input[0, %c, %oh + %kh - 1, %ow + %kw - 1] : memref<1x16x8x8xf32>
              %w = affine.load %weights[%k, %c, %kh, %kw] : memref<16x16x3x3xf32>
              %acc = affine.load %output[0, %k, %oh, %ow] : memref<1x16x8x8xf32>
              %p = arith.mulf %x, %w : f32
              %s = arith.addf %acc, %p : f32
              affine.store %s, %output[0, %k, %oh, %ow] : memref<1x16x8x8xf32>
            }
          }
        }
      }
    }
  }
  func.return
}

func.func @shared(%x: memref<8x8xf32>, %y: memref<8xf32>) {
  layout.assign %y to #layout.tag<"A->A"> : memref<8xf32>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      affine.for %p = max affine_map<(d0) -> (0, 1 - d0)>(%i) to min affine_map<(d0) -> (3, 9 - d0)>(%i) {
        %a = affine.load %x[%i, %j] : memref<8x8xf32>
        %acc = affine.load %y[%j] : memref<8xf32>
        %t = arith.addf %acc, %a : f32
        affine.store %t, %y[%j] : memref<8xf32>
      }
    }
  }
  func.return
}
