// fuzz case issue26-2-packed-i1-large (seed 261, element i1)
// issue 26, finding 2: 5700 i1 with pack = i32 and sub-byte vector accesses, wrong under upstream (python -m benchmarks.fuzz --replay 261)
// native
// site: @kernel type memref<38x150xi1, #layout.chunked<"ChunkedMemoryLayout<2, 0,2, 0,0, 1,3, 1,0, 1,28>", pack = i64, bit_order = "msb">>
// site: @kernel type memref<3xi1, #layout.tag<"e->  3Ee3E">>
// site: @main type memref<3xi1, #layout.tag<"e->  3Ee3E">>
func.func private @kernel(%A: memref<38x150xi1>, %B: memref<3xi1, #layout.tag<"e->  3Ee3E">>, %n: index) -> i1 {
  %c23 = arith.constant 23 : index
  %c29 = arith.constant 29 : index
  %c38 = arith.constant 38 : index
  %c3 = arith.constant 3 : index
  %alloc1 = memref.alloc() : memref<38x150xi1, #layout.chunked<"ChunkedMemoryLayout<2, 0,2, 0,0, 1,3, 1,0, 1,28>", pack = i64, bit_order = "msb">>
  layout.convert %A to %alloc1 : memref<38x150xi1> to memref<38x150xi1, #layout.chunked<"ChunkedMemoryLayout<2, 0,2, 0,0, 1,3, 1,0, 1,28>", pack = i64, bit_order = "msb">>
  %acc = arith.constant 0 : i1
  %x2 = arith.remui %n, %c23 : index
  %x3 = arith.remui %n, %c29 : index
  %k4 = arith.constant 0 : i1
  affine.store %k4, %B[%x2 mod 3] : memref<3xi1, #layout.tag<"e->  3Ee3E">>
  %c2_5 = arith.constant 2 : index
  scf.for %i6 = %c23 to %c38 step %c2_5 {
    %k7 = arith.constant 1 : i1
    affine.store %k7, %B[%x2 mod 3] : memref<3xi1, #layout.tag<"e->  3Ee3E">>
    %c28_8 = arith.constant 28 : index
    %p9 = arith.cmpi eq, %x3, %c28_8 : index
    scf.if %p9 {
      %v11 = affine.load %alloc1[%x3 mod 38, 23 - %x2] : memref<38x150xi1, #layout.chunked<"ChunkedMemoryLayout<2, 0,2, 0,0, 1,3, 1,0, 1,28>", pack = i64, bit_order = "msb">>
      %x12 = arith.ceildivsi %x2, %c3 : index
      %c3_14 = arith.constant 3 : index
      %x13 = arith.muli %x2, %c3_14 : index
      %k16 = arith.constant 0 : i1
      %w17 = arith.addi %v11, %k16 : i1
      %vec15 = vector.broadcast %w17 : i1 to vector<1xi1>
      vector.store %vec15, %alloc1[%x12, %x13] : memref<38x150xi1, #layout.chunked<"ChunkedMemoryLayout<2, 0,2, 0,0, 1,3, 1,0, 1,28>", pack = i64, bit_order = "msb">>, vector<1xi1>
      %vec18 = affine.vector_load %B[%n mod 2] : memref<3xi1, #layout.tag<"e->  3Ee3E">>, vector<1xi1>
      %e19 = vector.extract %vec18[0] : i1 from vector<1xi1>
    } else {
      %k20 = arith.constant 1 : i1
      %c1_21 = arith.constant 1 : index
      memref.store %k20, %B[%c1_21] : memref<3xi1, #layout.tag<"e->  3Ee3E">>
    }
  }
  %c3_23 = arith.constant 3 : index
  %x22 = arith.ceildivsi %x2, %c3_23 : index
  %x24 = arith.muli %c3, %x2 : index
  %v25 = memref.load %A[%x22, %x24] : memref<38x150xi1>
  %s26 = arith.addi %acc, %v25 : i1
  layout.convert %alloc1 to %A : memref<38x150xi1, #layout.chunked<"ChunkedMemoryLayout<2, 0,2, 0,0, 1,3, 1,0, 1,28>", pack = i64, bit_order = "msb">> to memref<38x150xi1>
  memref.dealloc %alloc1 : memref<38x150xi1, #layout.chunked<"ChunkedMemoryLayout<2, 0,2, 0,0, 1,3, 1,0, 1,28>", pack = i64, bit_order = "msb">>
  func.return %s26 : i1
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c38 = arith.constant 38 : index
  %c1 = arith.constant 1 : index
  %c150 = arith.constant 150 : index
  %c3 = arith.constant 3 : index
  %c2 = arith.constant 2 : index
  %c10 = arith.constant 10 : index
  %alloc1 = memref.alloc() : memref<38x150xi1>
  scf.for %i2 = %c0 to %c38 step %c1 {
    scf.for %i3 = %c0 to %c150 step %c1 {
      %s4 = arith.muli %i2, %c150 : index
      %l5 = arith.addi %c0, %s4 : index
      %s6 = arith.muli %i3, %c1 : index
      %l7 = arith.addi %l5, %s6 : index
      %x9 = arith.muli %l7, %c3 : index
      %x8 = arith.addi %x9, %c1 : index
      %fv10 = arith.index_cast %x8 : index to i1
      memref.store %fv10, %alloc1[%i2, %i3] : memref<38x150xi1>
    }
  }
  %alloc11 = memref.alloc() : memref<3xi1, #layout.tag<"e->  3Ee3E">>
  scf.for %i12 = %c0 to %c3 step %c1 {
    %s13 = arith.muli %i12, %c1 : index
    %l14 = arith.addi %c0, %s13 : index
    %x16 = arith.muli %l14, %c3 : index
    %x15 = arith.addi %x16, %c2 : index
    %fv17 = arith.index_cast %x15 : index to i1
    memref.store %fv17, %alloc11[%i12] : memref<3xi1, #layout.tag<"e->  3Ee3E">>
  }
  %r = func.call @kernel(%alloc1, %alloc11, %c10) : (memref<38x150xi1>, memref<3xi1, #layout.tag<"e->  3Ee3E">>, index) -> i1
  "vector.print"(%r) : (i1) -> ()
  scf.for %i18 = %c0 to %c38 step %c1 {
    scf.for %i19 = %c0 to %c150 step %c1 {
      %s20 = arith.muli %i18, %c150 : index
      %l21 = arith.addi %c0, %s20 : index
      %s22 = arith.muli %i19, %c1 : index
      %l23 = arith.addi %l21, %s22 : index
      %p24 = memref.load %alloc1[%i18, %i19] : memref<38x150xi1>
      "vector.print"(%p24) : (i1) -> ()
    }
  }
  scf.for %i25 = %c0 to %c3 step %c1 {
    %s26 = arith.muli %i25, %c1 : index
    %l27 = arith.addi %c0, %s26 : index
    %p28 = memref.load %alloc11[%i25] : memref<3xi1, #layout.tag<"e->  3Ee3E">>
    "vector.print"(%p28) : (i1) -> ()
  }
  memref.dealloc %alloc1 : memref<38x150xi1>
  memref.dealloc %alloc11 : memref<3xi1, #layout.tag<"e->  3Ee3E">>
  func.return
}
