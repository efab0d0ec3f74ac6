// A direct 3x3 convolution written on logical NCHW / OIHW tensors, with the data layouts a
// oneDNN convolution uses: input and output nChw16c, weights OIhw16i16o. layout-schedule
// turns the naive loop nest into a register-tiled, vectorized one over those layouts
// (16 output channels per vector, several output pixels per tile, the reduction loops
// carrying the accumulators); the results stay bitwise identical.
//   layout-opt examples/conv2d_blocked_schedule.mlir -p layout-schedule,layout-lower
//   layout-run examples/conv2d_blocked_schedule.mlir --check -p layout-schedule,layout-lower
func.func @main(%input: memref<1x32x6x9xf32>, %weights: memref<32x32x3x3xf32>,
                %output: memref<1x32x4x7xf32>) {
  layout.assign %input to #layout.tag<"NCHW->nChw16c"> : memref<1x32x6x9xf32>
  layout.assign %weights to #layout.tag<"OIHW->OIhw16i16o"> : memref<32x32x3x3xf32>
  layout.assign %output to #layout.tag<"NCHW->nChw16c"> : memref<1x32x4x7xf32>
  %zero = arith.constant 0.0 : f32
  affine.for %k = 0 to 32 {
    affine.for %oh = 0 to 4 {
      affine.for %ow = 0 to 7 {
        affine.store %zero, %output[0, %k, %oh, %ow] : memref<1x32x4x7xf32>
        affine.for %c = 0 to 32 {
          affine.for %kh = 0 to 3 {
            affine.for %kw = 0 to 3 {
              %x = affine.load %input[0, %c, %oh + %kh, %ow + %kw] : memref<1x32x6x9xf32>
              %w = affine.load %weights[%k, %c, %kh, %kw] : memref<32x32x3x3xf32>
              %acc = affine.load %output[0, %k, %oh, %ow] : memref<1x32x4x7xf32>
              %p = arith.mulf %x, %w : f32
              %s = arith.addf %acc, %p : f32
              affine.store %s, %output[0, %k, %oh, %ow] : memref<1x32x4x7xf32>
            }
          }
        }
      }
    }
  }
  func.return
}
