// Zero-size dims are valid everywhere: an empty logical box, physical extents as each
// notation computes them (blocks keep their size, the rest of an empty dim is 0).
// RUN: layout-run --check
// RUN: layout-run --check --engine interp
// OUTPUT: OK: 2 elements compared
func.func @main(%a: memref<2x0x5x4xf32, #layout.tag<"NCHW->nChw8c">>, %b: memref<0x4xi8, #layout.map<affine_map<(d0, d1) -> (d1, d0)>>>, %n: index) -> (index, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.alloc(%n) : memref<?x8xf32, #layout.tag<"RW->WR">>
  %t = memref.alloc() : memref<0x6xi1, #layout.tag<"RW->RW6w", pack = i6>>
  %d = memref.dim %a, %c1 : memref<2x0x5x4xf32, #layout.tag<"NCHW->nChw8c">>
  %s = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %d step %c1 iter_args(%acc = %s) -> (f32) {
    %v = memref.load %a[%c0, %i, %c0, %c0] : memref<2x0x5x4xf32, #layout.tag<"NCHW->nChw8c">>
    %w = arith.addf %acc, %v : f32
    scf.yield %w : f32
  }
  %z = memref.alloc() : memref<0x4xi8>
  layout.convert %b to %z : memref<0x4xi8, #layout.map<affine_map<(d0, d1) -> (d1, d0)>>> to memref<0x4xi8>
  memref.dealloc %z : memref<0x4xi8>
  memref.dealloc %m : memref<?x8xf32, #layout.tag<"RW->WR">>
  memref.dealloc %t : memref<0x6xi1, #layout.tag<"RW->RW6w", pack = i6>>
  func.return %d, %r : index, f32
}
