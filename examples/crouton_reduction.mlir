// A global max pool over an int8 NHWC tensor stored in Hexagon HTP's crouton layout (8x8x32
// chunks, pad 31): pool[c] = the maximum over h, w of x[0, h, w, c].
// layout-schedule vectorizes over the channels (32 of them are contiguous inside a crouton,
// the 8 left over make a shorter vector) and keeps the running maxima in registers across
// the h and w loops.
//   layout-run examples/crouton_reduction.mlir --check -p layout-schedule,layout-lower
func.func @main(%x: memref<1x9x10x40xi8>, %pool: memref<40xi8>) {
  layout.assign %x to #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32], pad = 31> : memref<1x9x10x40xi8>
  %lowest = arith.constant -128 : i8
  affine.for %c = 0 to 40 {
    affine.store %lowest, %pool[%c] : memref<40xi8>
    affine.for %h = 0 to 9 {
      affine.for %w = 0 to 10 {
        %v = affine.load %x[0, %h, %w, %c] : memref<1x9x10x40xi8>
        %m = affine.load %pool[%c] : memref<40xi8>
        %n = arith.maxsi %m, %v : i8
        affine.store %n, %pool[%c] : memref<40xi8>
      }
    }
  }
  func.return
}
