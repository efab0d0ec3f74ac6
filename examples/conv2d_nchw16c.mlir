// A direct 3x3 convolution written on logical NCHW / OIHW tensors. One line —
// the layout.assign — stores the input in oneDNN's nChw16c; the loops do not change.
//   layout-run examples/conv2d_nchw16c.mlir --check
func.func @main(%input: memref<1x16x14x14xf32>, %weights: memref<16x16x3x3xf32>,
                %output: memref<1x16x12x12xf32>) {
  layout.assign %input to #layout.tag<"NCHW->nChw16c"> : memref<1x16x14x14xf32>
  %zero = arith.constant 0.0 : f32
  affine.for %k = 0 to 16 {
    affine.for %oh = 0 to 12 {
      affine.for %ow = 0 to 12 {
        affine.store %zero, %output[0, %k, %oh, %ow] : memref<1x16x12x12xf32>
        affine.for %c = 0 to 16 {
          affine.for %kh = 0 to 3 {
            affine.for %kw = 0 to 3 {
              %x = affine.load %input[0, %c, %oh + %kh, %ow + %kw] : memref<1x16x14x14xf32>
              %w = affine.load %weights[%k, %c, %kh, %kw] : memref<16x16x3x3xf32>
              %acc = affine.load %output[0, %k, %oh, %ow] : memref<1x16x12x12xf32>
              %p = arith.mulf %x, %w : f32
              %s = arith.addf %acc, %p : f32
              affine.store %s, %output[0, %k, %oh, %ow] : memref<1x16x12x12xf32>
            }
          }
        }
      }
    }
  }
  func.return
}
