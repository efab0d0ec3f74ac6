// A binary (XNOR-popcount) 3x3 convolution written on logical NCHW tensors of bits, as in
// the HeteroCL layout proposal. One line — the layout.assign — stores the input as NHW(C6):
// channels in blocks of 6, each block packed into one vector<6xi1> (the vector
// implementation): memref<4x6x8x8xi1> becomes memref<4x8x8x1xvector<6xi1>>. Loads become a
// load of the vector<6xi1> word and a vector.extract at c mod 6; the loops do not change.
// output = taps - 2 * popcount(x xor w) = the ±1 dot product, with 6 * 3 * 3 = 54 taps.
//   layout-run examples/binary_conv_nhwc6_vector.mlir --check
func.func @main(%input: memref<4x6x8x8xi1>, %weights: memref<2x6x3x3xi1>,
                %output: memref<4x2x6x6xi32>) {
  layout.assign %input to #layout.tag<"NCHW->NHWC6c", pack = vector<6xi1>> : memref<4x6x8x8xi1>
  %zero = arith.constant 0 : i32
  %taps = arith.constant 54 : i32
  %two = arith.constant 2 : i32
  affine.for %n = 0 to 4 {
    affine.for %k = 0 to 2 {
      affine.for %oh = 0 to 6 {
        affine.for %ow = 0 to 6 {
          affine.store %zero, %output[%n, %k, %oh, %ow] : memref<4x2x6x6xi32>
          affine.for %c = 0 to 6 {
            affine.for %kh = 0 to 3 {
              affine.for %kw = 0 to 3 {
                %x = affine.load %input[%n, %c, %oh + %kh, %ow + %kw] : memref<4x6x8x8xi1>
                %w = affine.load %weights[%k, %c, %kh, %kw] : memref<2x6x3x3xi1>
                %acc = affine.load %output[%n, %k, %oh, %ow] : memref<4x2x6x6xi32>
                %differ = arith.xori %x, %w : i1
                %count = arith.extui %differ : i1 to i32
                %sum = arith.addi %acc, %count : i32
                affine.store %sum, %output[%n, %k, %oh, %ow] : memref<4x2x6x6xi32>
              }
            }
          }
          %popcount = affine.load %output[%n, %k, %oh, %ow] : memref<4x2x6x6xi32>
          %twice = arith.muli %popcount, %two : i32
          %dot = arith.subi %taps, %twice : i32
          affine.store %dot, %output[%n, %k, %oh, %ow] : memref<4x2x6x6xi32>
        }
      }
    }
  }
  func.return
}
