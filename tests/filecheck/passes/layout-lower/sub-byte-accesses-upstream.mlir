// What layout-lower prints for sub-byte vector accesses runs right under stock upstream MLIR
// 22 (the README's LLVM pipeline, then mlir-runner), and prints what the program prints
// before lowering (interp engine): a vector<64xi1> of an i1 buffer is its 64 elements, not
// the packed bits of its first 8 bytes; i12 lanes keep their 12 bits; pack = i64 words
// built from 64 lanes and pack = vector<6xi1> containers hold the lanes they were given.
// RUN: layout-run %s --engine interp | filecheck %s
// RUN: layout-opt %s -p layout-lower | %mlir_opt --convert-linalg-to-loops --convert-vector-to-scf --lower-affine --convert-scf-to-cf --expand-strided-metadata --lower-affine --arith-expand --convert-math-to-llvm --convert-math-to-libm --convert-vector-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts | %mlir_runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs | filecheck %s
// REQUIRES: mlir-runner

// Bits w mod 3 == 0 of row 1, as one i64 word (LSB first): 2^0 + 2^3 + … + 2^63.
// CHECK:      -7905747460161236407
// The same lanes through a pack = i64 layout (built whole from one vector of 64 lanes).
// CHECK-NEXT: -7905747460161236407
// CHECK-NEXT: ( -2048, 2047, -1, 5 )
// CHECK-NEXT: ( 1, 0, 0, 1, 0, 0 )
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %a = memref.alloc() : memref<2x64xi1>
  scf.for %r = %c0 to %c2 step %c1 {
    scf.for %w = %c0 to %c64 step %c1 {
      %m = arith.remui %w, %c3 : index
      %bit = arith.cmpi eq, %m, %c0 : index
      memref.store %bit, %a[%r, %w] : memref<2x64xi1>
    }
  }
  %v = vector.load %a[%c1, %c0] : memref<2x64xi1>, vector<64xi1>
  %word = vector.bitcast %v : vector<64xi1> to vector<1xi64>
  %x = vector.extract %word[0] : i64 from vector<1xi64>
  vector.print %x : i64

  %p = memref.alloc() : memref<2x64xi1, #layout.tag<"RW->RW64w", pack = i64>>
  layout.convert %a to %p : memref<2x64xi1> to memref<2x64xi1, #layout.tag<"RW->RW64w", pack = i64>>
  %pv = vector.load %p[%c1, %c0] : memref<2x64xi1, #layout.tag<"RW->RW64w", pack = i64>>, vector<64xi1>
  %pword = vector.bitcast %pv : vector<64xi1> to vector<1xi64>
  %px = vector.extract %pword[0] : i64 from vector<1xi64>
  vector.print %px : i64

  %n = memref.alloc() : memref<2x8xi12, #layout.tag<"RW->RW4w">>
  %values = arith.constant dense<[-2048, 2047, -1, 5]> : vector<4xi12>
  vector.store %values, %n[%c1, %c3] : memref<2x8xi12, #layout.tag<"RW->RW4w">>, vector<4xi12>
  %back = vector.load %n[%c1, %c3] : memref<2x8xi12, #layout.tag<"RW->RW4w">>, vector<4xi12>
  vector.print %back : vector<4xi12>

  %b = memref.alloc() : memref<1x2x2x12xi1, #layout.tag<"NHWC->NHWC6c", pack = vector<6xi1>>>
  %lanes = vector.load %a[%c0, %c0] : memref<2x64xi1>, vector<6xi1>
  vector.store %lanes, %b[%c0, %c1, %c0, %c3] : memref<1x2x2x12xi1, #layout.tag<"NHWC->NHWC6c", pack = vector<6xi1>>>, vector<6xi1>
  %got = vector.load %b[%c0, %c1, %c0, %c3] : memref<1x2x2x12xi1, #layout.tag<"NHWC->NHWC6c", pack = vector<6xi1>>>, vector<6xi1>
  vector.print %got : vector<6xi1>

  memref.dealloc %a : memref<2x64xi1>
  memref.dealloc %p : memref<2x64xi1, #layout.tag<"RW->RW64w", pack = i64>>
  memref.dealloc %n : memref<2x8xi12, #layout.tag<"RW->RW4w">>
  memref.dealloc %b : memref<1x2x2x12xi1, #layout.tag<"NHWC->NHWC6c", pack = vector<6xi1>>>
  return
}
