// A real convolution layer (ResNet-50 conv2_x: 1x64x56x56 input, 3x3 kernel, 64 -> 64
// channels, stride 1, padding 1), written as a direct convolution
// on logical NCHW / OIHW tensors. Three layout.assign lines store the input and output in
// oneDNN's nChw16c and the weights in OIhw16i16o; the loops do not change.
// layout.flops is the conventional count 2·N·K·C·OH·OW·3·3 (115.6 M multiply-adds, the
// padding border included), which layout-bench turns into GFLOP/s.
//   layout-run examples/conv2d_resnet_layer.mlir --check --engine native
//   layout-bench examples/conv2d_resnet_layer.mlir -p layout-schedule,layout-lower
func.func @main(%input: memref<1x64x56x56xf32>, %weights: memref<64x64x3x3xf32>,
                %output: memref<1x64x56x56xf32>) attributes {layout.flops = 231211008 : i64} {
  layout.assign %input to #layout.tag<"nChw16c"> : memref<1x64x56x56xf32>
  layout.assign %weights to #layout.tag<"OIhw16i16o"> : memref<64x64x3x3xf32>
  layout.assign %output to #layout.tag<"nChw16c"> : memref<1x64x56x56xf32>
  %zero = arith.constant 0.0 : f32
  affine.for %k = 0 to 64 {
    affine.for %oh = 0 to 56 {
      affine.for %ow = 0 to 56 {
        affine.store %zero, %output[0, %k, %oh, %ow] : memref<1x64x56x56xf32>
        affine.for %c = 0 to 64 {
          affine.for %kh = max affine_map<(d0) -> (0, 1 - d0)>(%oh) to min affine_map<(d0) -> (3, 57 - d0)>(%oh) {
            affine.for %kw = max affine_map<(d0) -> (0, 1 - d0)>(%ow) to min affine_map<(d0) -> (3, 57 - d0)>(%ow) {
              %x = affine.load %input[0, %c, %oh + %kh - 1, %ow + %kw - 1] : memref<1x64x56x56xf32>
              %w = affine.load %weights[%k, %c, %kh, %kw] : memref<64x64x3x3xf32>
              %acc = affine.load %output[0, %k, %oh, %ow] : memref<1x64x56x56xf32>
              %p = arith.mulf %x, %w : f32
              %s = arith.addf %acc, %p : f32
              affine.store %s, %output[0, %k, %oh, %ow] : memref<1x64x56x56xf32>
            }
          }
        }
      }
    }
  }
  func.return
}
