// fuzz case packed-vector-lanes-short-last-block (seed 560192, element i1)
// fuzz seed 560192: Layout.pack into a pack = vector<5xi1> layout whose last block of rows is short (103 = 20*5 + 3), natively on an AVX-512 host: LLVM 22 -O3 (SimplifyCFG) gave lane 1 lane 0 bit in the lane-by-lane read-modify-write of the partial containers; they are built whole now (passes/convert/packed.py)
// native
// site: @kernel type memref<103x73xi1, #layout.tag<"AI->IA8i", pad = -1, pack = i8, bit_order = "msb">>
// site: @kernel assign memref<103x73xi1, #layout.tpu<lanes = 2, matrix = 12, stride = compact, pad = 1>>
// site: @kernel type memref<103x73xi1, #layout.chunked<"ChunkedMemoryLayout<2, 1,0, 0,0, 1,6, 1,6, 0,5>", pad = -1, pack = vector<5xi1>>>
// site: @main type memref<103x73xi1, #layout.chunked<"ChunkedMemoryLayout<2, 1,0, 0,0, 1,6, 1,6, 0,5>", pad = -1, pack = vector<5xi1>>>
// site: @main assign memref<103x73xi1, #layout.strided<[-1, 104], offset = 104>>
func.func @kernel(%A: memref<103x73xi1, #layout.chunked<"ChunkedMemoryLayout<2, 1,0, 0,0, 1,6, 1,6, 0,5>", pad = -1, pack = vector<5xi1>>>, %B: memref<103x73xi1>, %n: index) -> i1 {
  %k0_i32 = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c73 = arith.constant 73 : index
  %c1 = arith.constant 1 : index
  %c103 = arith.constant 103 : index
  %c48 = arith.constant 48 : index
  %alloc1 = memref.alloc() : memref<103x73xi1, #layout.tag<"AI->IA8i", pad = -1, pack = i8, bit_order = "msb">>
  layout.convert %A to %alloc1 : memref<103x73xi1, #layout.chunked<"ChunkedMemoryLayout<2, 1,0, 0,0, 1,6, 1,6, 0,5>", pad = -1, pack = vector<5xi1>>> to memref<103x73xi1, #layout.tag<"AI->IA8i", pad = -1, pack = i8, bit_order = "msb">>
  %acc = arith.constant 0 : i1
  "memref.copy"(%B, %alloc1) : (memref<103x73xi1>, memref<103x73xi1, #layout.tag<"AI->IA8i", pad = -1, pack = i8, bit_order = "msb">>) -> ()
  %v2 = affine.load %alloc1[%n mod 103, %n mod 2] : memref<103x73xi1, #layout.tag<"AI->IA8i", pad = -1, pack = i8, bit_order = "msb">>
  %s3 = arith.addi %acc, %v2 : i1
  layout.convert %alloc1 to %B : memref<103x73xi1, #layout.tag<"AI->IA8i", pad = -1, pack = i8, bit_order = "msb">> to memref<103x73xi1>
  %alloca4 = memref.alloca() : memref<73xi32>
  scf.for %n5 = %c0 to %c73 step %c1 {
    memref.store %k0_i32, %alloca4[%n5] : memref<73xi32>
  }
  scf.for %n7 = %c0 to %c73 step %c1 {
    scf.for %n6 = %c0 to %c103 step %c1 {
      %nv8 = memref.load %A[%n6, %n7] : memref<103x73xi1, #layout.chunked<"ChunkedMemoryLayout<2, 1,0, 0,0, 1,6, 1,6, 0,5>", pad = -1, pack = vector<5xi1>>>
      %nv9 = memref.load %B[%n6, %n7] : memref<103x73xi1>
      %nc10 = arith.cmpi eq, %nv8, %nv9 : i1
      %nc11 = arith.extui %nc10 : i1 to i32
      %nc12 = memref.load %alloca4[%n7] : memref<73xi32>
      %nc13 = arith.addi %nc12, %nc11 : i32
      memref.store %nc13, %alloca4[%n7] : memref<73xi32>
    }
  }
  scf.for %n14 = %c0 to %c73 step %c1 {
    %np15 = memref.load %alloca4[%n14] : memref<73xi32>
    "vector.print"(%np15) : (i32) -> ()
  }
  %c31_16 = arith.constant 31 : index
  %c28_17 = arith.constant 28 : index
  %c1_18 = arith.constant 1 : index
  %r20 = scf.for %i19 = %c28_17 to %c31_16 step %c1_18 iter_args(%a21 = %s3) -> (i1) {
    %x22 = affine.apply affine_map<(d0) -> (d0 ceildiv 4)>(%i19)
    %v23 = memref.load %alloc1[%c48, %x22] : memref<103x73xi1, #layout.tag<"AI->IA8i", pad = -1, pack = i8, bit_order = "msb">>
    %s24 = arith.addi %a21, %v23 : i1
    %k25 = arith.constant 0 : i1
    memref.store %k25, %B[%c48, %x22] : memref<103x73xi1>
    %k26 = arith.constant 0 : i1
    %w27 = arith.addi %v23, %k26 : i1
    %x28 = affine.apply affine_map<(d0) -> (d0 ceildiv 4)>(%i19)
    memref.store %w27, %A[%c48, %x28] : memref<103x73xi1, #layout.chunked<"ChunkedMemoryLayout<2, 1,0, 0,0, 1,6, 1,6, 0,5>", pad = -1, pack = vector<5xi1>>>
    scf.yield %s24 : i1
  }
  %vec29 = affine.vector_load %alloc1[%n mod 2, %n mod 65] : memref<103x73xi1, #layout.tag<"AI->IA8i", pad = -1, pack = i8, bit_order = "msb">>, vector<9xi1>
  %e30 = vector.extract %vec29[2] : i1 from vector<9xi1>
  %s31 = arith.addi %r20, %e30 : i1
  layout.assign %B to #layout.tpu<lanes = 2, matrix = 12, stride = compact, pad = 1> : memref<103x73xi1>
  "memref.copy"(%alloc1, %A) : (memref<103x73xi1, #layout.tag<"AI->IA8i", pad = -1, pack = i8, bit_order = "msb">>, memref<103x73xi1, #layout.chunked<"ChunkedMemoryLayout<2, 1,0, 0,0, 1,6, 1,6, 0,5>", pad = -1, pack = vector<5xi1>>>) -> ()
  memref.dealloc %alloc1 : memref<103x73xi1, #layout.tag<"AI->IA8i", pad = -1, pack = i8, bit_order = "msb">>
  func.return %s31 : i1
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c103 = arith.constant 103 : index
  %c1 = arith.constant 1 : index
  %c73 = arith.constant 73 : index
  %c3 = arith.constant 3 : index
  %c2 = arith.constant 2 : index
  %alloc1 = memref.alloc() : memref<103x73xi1, #layout.chunked<"ChunkedMemoryLayout<2, 1,0, 0,0, 1,6, 1,6, 0,5>", pad = -1, pack = vector<5xi1>>>
  scf.for %i2 = %c0 to %c103 step %c1 {
    scf.for %i3 = %c0 to %c73 step %c1 {
      %s4 = arith.muli %i2, %c73 : index
      %l5 = arith.addi %c0, %s4 : index
      %s6 = arith.muli %i3, %c1 : index
      %l7 = arith.addi %l5, %s6 : index
      %x9 = arith.muli %l7, %c3 : index
      %x8 = arith.addi %x9, %c1 : index
      %fv10 = arith.index_cast %x8 : index to i1
      memref.store %fv10, %alloc1[%i2, %i3] : memref<103x73xi1, #layout.chunked<"ChunkedMemoryLayout<2, 1,0, 0,0, 1,6, 1,6, 0,5>", pad = -1, pack = vector<5xi1>>>
    }
  }
  %alloc11 = memref.alloc() : memref<103x73xi1>
  scf.for %i12 = %c0 to %c103 step %c1 {
    scf.for %i13 = %c0 to %c73 step %c1 {
      %s14 = arith.muli %i12, %c73 : index
      %l15 = arith.addi %c0, %s14 : index
      %s16 = arith.muli %i13, %c1 : index
      %l17 = arith.addi %l15, %s16 : index
      %x19 = arith.muli %l17, %c3 : index
      %x18 = arith.addi %x19, %c2 : index
      %fv20 = arith.index_cast %x18 : index to i1
      memref.store %fv20, %alloc11[%i12, %i13] : memref<103x73xi1>
    }
  }
  layout.assign %alloc11 to #layout.strided<[-1, 104], offset = 104> : memref<103x73xi1>
  %r = func.call @kernel(%alloc1, %alloc11, %c1) : (memref<103x73xi1, #layout.chunked<"ChunkedMemoryLayout<2, 1,0, 0,0, 1,6, 1,6, 0,5>", pad = -1, pack = vector<5xi1>>>, memref<103x73xi1>, index) -> i1
  "vector.print"(%r) : (i1) -> ()
  scf.for %i21 = %c0 to %c103 step %c1 {
    scf.for %i22 = %c0 to %c73 step %c1 {
      %s23 = arith.muli %i21, %c73 : index
      %l24 = arith.addi %c0, %s23 : index
      %s25 = arith.muli %i22, %c1 : index
      %l26 = arith.addi %l24, %s25 : index
      %p27 = memref.load %alloc1[%i21, %i22] : memref<103x73xi1, #layout.chunked<"ChunkedMemoryLayout<2, 1,0, 0,0, 1,6, 1,6, 0,5>", pad = -1, pack = vector<5xi1>>>
      "vector.print"(%p27) : (i1) -> ()
    }
  }
  scf.for %i28 = %c0 to %c103 step %c1 {
    scf.for %i29 = %c0 to %c73 step %c1 {
      %s30 = arith.muli %i28, %c73 : index
      %l31 = arith.addi %c0, %s30 : index
      %s32 = arith.muli %i29, %c1 : index
      %l33 = arith.addi %l31, %s32 : index
      %p34 = memref.load %alloc11[%i28, %i29] : memref<103x73xi1>
      "vector.print"(%p34) : (i1) -> ()
    }
  }
  memref.dealloc %alloc1 : memref<103x73xi1, #layout.chunked<"ChunkedMemoryLayout<2, 1,0, 0,0, 1,6, 1,6, 0,5>", pad = -1, pack = vector<5xi1>>>
  memref.dealloc %alloc11 : memref<103x73xi1>
  func.return
}
