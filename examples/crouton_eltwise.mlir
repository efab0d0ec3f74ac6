// An elementwise op on a logical NHWC int8 tensor stored in Hexagon HTP's crouton layout
// (8x8x32 chunks, padded with 31). The result comes back to a plain buffer through a
// layout.convert, like an HTP graph's output.
//   layout-run examples/crouton_eltwise.mlir --check
func.func @main(%x: memref<1x9x10x40xi8>, %out: memref<1x9x10x40xi8>) {
  %t = memref.alloc() : memref<1x9x10x40xi8, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32], pad = 31>>
  %three = arith.constant 3 : i8
  affine.for %h = 0 to 9 {
    affine.for %w = 0 to 10 {
      affine.for %c = 0 to 40 {
        %v = affine.load %x[0, %h, %w, %c] : memref<1x9x10x40xi8>
        %m = arith.muli %v, %three : i8
        %s = arith.addi %m, %v : i8
        affine.store %s, %t[0, %h, %w, %c] : memref<1x9x10x40xi8, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32], pad = 31>>
      }
    }
  }
  layout.convert %t to %out : memref<1x9x10x40xi8, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32], pad = 31>> to memref<1x9x10x40xi8>
  memref.dealloc %t : memref<1x9x10x40xi8, #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32], pad = 31>>
  func.return
}
