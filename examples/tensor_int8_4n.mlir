// A bias-add and ReLU on a logical NCHW int8 tensor whose result lives in Sophgo TPU local
// memory in the 4N storage mode: four consecutive batch elements share one 32-bit word
// (pack = i32, byte n mod 4), channel c sits on lane c mod 4 of the 4 lanes, and the
// 6x5x4x5 tensor takes a 4x128 buffer of i32 words (N stride 64, C stride 32 words: the
// H·W = 20 words of a channel rounded up to 128 bytes). Each store is a masked
// read-modify-write of one byte of a word; the result comes back through a layout.convert.
//   layout-run examples/tensor_int8_4n.mlir --check
func.func @main(%x: memref<6x5x4x5xi8>, %bias: memref<5xi8>, %out: memref<6x5x4x5xi8>) {
  %t = memref.alloc() : memref<6x5x4x5xi8, #layout.tpu<lanes = 4, mode = "4N", pack = i32>>
  %zero = arith.constant 0 : i8
  affine.for %n = 0 to 6 {
    affine.for %c = 0 to 5 {
      affine.for %h = 0 to 4 {
        affine.for %w = 0 to 5 {
          %v = affine.load %x[%n, %c, %h, %w] : memref<6x5x4x5xi8>
          %b = affine.load %bias[%c] : memref<5xi8>
          %s = arith.addi %v, %b : i8
          %r = arith.maxsi %s, %zero : i8
          affine.store %r, %t[%n, %c, %h, %w] : memref<6x5x4x5xi8, #layout.tpu<lanes = 4, mode = "4N", pack = i32>>
        }
      }
    }
  }
  layout.convert %t to %out : memref<6x5x4x5xi8, #layout.tpu<lanes = 4, mode = "4N", pack = i32>> to memref<6x5x4x5xi8>
  memref.dealloc %t : memref<6x5x4x5xi8, #layout.tpu<lanes = 4, mode = "4N", pack = i32>>
  func.return
}
