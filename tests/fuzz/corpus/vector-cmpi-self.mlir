// fuzz case vector-cmpi-self (seed 501971, element i1)
// layout-schedule vectorized a plain i1 nest whose arith.cmpi eq compares a vector with itself; canonicalize folded it to a scalar i1 constant (xDSL 0.74 pattern), which layout-cleanup left feeding arith.extui on vectors
// native
// site: @helper assign memref<3x8xi1, #layout.tag<"CH->CH8c", pack = i32, bit_order = "msb">>
// site: @helper assign memref<3x8xi1, #layout.tag<"HD->HD16h", pack = i32>>
// site: @kernel assign memref<?x1x7xi1, #layout.chunked<[2, 0, 1, 0, 0, 0, 1, 1, 2, 8], pack = i11>>
// site: @kernel type memref<3x8xi1, #layout.tag<"BC->BC8c", pack = i16, bit_order = "msb">>
// site: @kernel type memref<3x8xi1, #layout.tag<"FG->FG9g", pack = i16>>
// site: @kernel type memref<3x8xi1, #layout.chunked<[1, 3, 0, 0, 1, 0, 0, 4, 0, 8], pack = i64, bit_order = "msb">>
// site: @main assign memref<3x8xi1, #layout.tag<"DU->  du8d", pack = i14, bit_order = "msb">>
// site: @main type memref<3x8xi1, #layout.chunked<[1, 3, 0, 0, 1, 0, 0, 4, 0, 8], pack = i64, bit_order = "msb">>
"memref.global"() <{sym_name = "g0", sym_visibility = "private", type = memref<9x1x7xi1>, initial_value = dense<[[[false, true, false, true, false, true, false]], [[true, false, true, false, true, false, true]], [[false, true, false, true, false, true, false]], [[true, false, true, false, true, false, true]], [[false, true, false, true, false, true, false]], [[true, false, true, false, true, false, true]], [[false, true, false, true, false, true, false]], [[true, false, true, false, true, false, true]], [[false, true, false, true, false, true, false]]]> : tensor<9x1x7xi1>}> : () -> ()
func.func @kernel(%A: memref<3x8xi1, #layout.chunked<[1, 3, 0, 0, 1, 0, 0, 4, 0, 8], pack = i64, bit_order = "msb">>, %B: memref<?x1x7xi1>, %n: index) -> i1 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %k1_i1 = arith.constant 1 : i1
  %k0_i32 = arith.constant 0 : i32
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %d1 = memref.dim %B, %c0 : memref<?x1x7xi1>
  layout.assign %B to #layout.chunked<[2, 0, 1, 0, 0, 0, 1, 1, 2, 8], pack = i11> : memref<?x1x7xi1>
  %alloc2 = memref.alloc() : memref<3x8xi1>
  layout.convert %A to %alloc2 : memref<3x8xi1, #layout.chunked<[1, 3, 0, 0, 1, 0, 0, 4, 0, 8], pack = i64, bit_order = "msb">> to memref<3x8xi1>
  %acc = arith.constant 0 : i1
  %x3 = arith.remui %n, %c2 : index
  %c2_5 = arith.constant 2 : index
  %x4 = arith.ceildivsi %x3, %c2_5 : index
  %x6 = arith.floordivsi %x3, %c2_5 : index
  memref.store %k1_i1, %alloc2[%x4, %x6] : memref<3x8xi1>
  %alloc7 = memref.alloc() : memref<3x8xi1, #layout.tag<"BC->BC8c", pack = i16, bit_order = "msb">>
  "memref.copy"(%A, %alloc7) : (memref<3x8xi1, #layout.chunked<[1, 3, 0, 0, 1, 0, 0, 4, 0, 8], pack = i64, bit_order = "msb">>, memref<3x8xi1, #layout.tag<"BC->BC8c", pack = i16, bit_order = "msb">>) -> ()
  %alloc8 = memref.alloc() : memref<3x8xi1, #layout.tag<"FG->FG9g", pack = i16>>
  "memref.copy"(%alloc2, %alloc8) : (memref<3x8xi1>, memref<3x8xi1, #layout.tag<"FG->FG9g", pack = i16>>) -> ()
  %alloca9 = memref.alloca() : memref<3xi32>
  scf.for %n10 = %c0 to %c3 step %c1 {
    memref.store %k0_i32, %alloca9[%n10] : memref<3xi32>
  }
  scf.for %n11 = %c0 to %c3 step %c1 {
    scf.for %n12 = %c0 to %c8 step %c1 {
      %nv13 = memref.load %alloc7[%n11, %n12] : memref<3x8xi1, #layout.tag<"BC->BC8c", pack = i16, bit_order = "msb">>
      %nv14 = memref.load %alloc8[%n11, %n12] : memref<3x8xi1, #layout.tag<"FG->FG9g", pack = i16>>
      %nc15 = arith.cmpi eq, %nv13, %nv14 : i1
      %nc16 = arith.extsi %nc15 : i1 to i32
      %nc17 = memref.load %alloca9[%n11] : memref<3xi32>
      %nc18 = arith.subi %nc17, %nc16 : i32
      memref.store %nc18, %alloca9[%n11] : memref<3xi32>
    }
  }
  scf.for %n19 = %c0 to %c3 step %c1 {
    %np20 = memref.load %alloca9[%n19] : memref<3xi32>
    "vector.print"(%np20) : (i32) -> ()
  }
  memref.dealloc %alloc7 : memref<3x8xi1, #layout.tag<"BC->BC8c", pack = i16, bit_order = "msb">>
  memref.dealloc %alloc8 : memref<3x8xi1, #layout.tag<"FG->FG9g", pack = i16>>
  %p21 = arith.cmpi ult, %n, %c2 : index
  %r22 = scf.if %p21 -> (i1) {
    %v23 = affine.load %A[%x6 floordiv 2, 2 - %x3] : memref<3x8xi1, #layout.chunked<[1, 3, 0, 0, 1, 0, 0, 4, 0, 8], pack = i64, bit_order = "msb">>
    %s24 = arith.addi %acc, %v23 : i1
    scf.yield %s24 : i1
  } else {
    %k25 = arith.constant 0 : i1
    affine.store %k25, %alloc2[%x6 floordiv 3, 1 - %x6] : memref<3x8xi1>
    scf.yield %acc : i1
  }
  %h26 = func.call @helper(%alloc2, %x3) : (memref<3x8xi1>, index) -> i1
  %s27 = arith.addi %r22, %h26 : i1
  %x28 = arith.divui %x3, %c2 : index
  %x29 = affine.apply affine_map<(d0) -> (d0 floordiv 4)>(%x6)
  %x30 = affine.apply affine_map<(d0) -> (d0 ceildiv 2)>(%x4)
  %v31 = memref.load %B[%x28, %x29, %x30] : memref<?x1x7xi1>
  %s32 = arith.addi %s27, %v31 : i1
  "memref.copy"(%alloc2, %A) : (memref<3x8xi1>, memref<3x8xi1, #layout.chunked<[1, 3, 0, 0, 1, 0, 0, 4, 0, 8], pack = i64, bit_order = "msb">>) -> ()
  memref.dealloc %alloc2 : memref<3x8xi1>
  func.return %s32 : i1
}
func.func private @helper(%X: memref<3x8xi1>, %n: index) -> i1 {
  %c8 = arith.constant 8 : index
  %c3 = arith.constant 3 : index
  %k0_i32 = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k1_i1 = arith.constant 1 : i1
  %acc = arith.constant 0 : i1
  %x1 = arith.remui %n, %c8 : index
  %x2 = arith.remui %n, %c3 : index
  %alloca3 = memref.alloca() : memref<8xi32>
  affine.for %n4 = 0 to 8 {
    affine.store %k0_i32, %alloca3[%n4] : memref<8xi32>
  }
  affine.for %n5 = 0 to 3 {
    affine.for %n6 = 0 to 8 {
      %nv7 = affine.load %X[%n5, %n6] : memref<3x8xi1>
      %nv8 = affine.load %X[%n5, %n6] : memref<3x8xi1>
      %nc9 = arith.cmpi eq, %nv7, %nv8 : i1
      %nc10 = arith.extui %nc9 : i1 to i32
      %nc11 = affine.load %alloca3[%n6] : memref<8xi32>
      %nc12 = arith.addi %nc11, %nc10 : i32
      affine.store %nc12, %alloca3[%n6] : memref<8xi32>
    }
  }
  scf.for %n13 = %c0 to %c8 step %c1 {
    %np14 = memref.load %alloca3[%n13] : memref<8xi32>
    "vector.print"(%np14) : (i32) -> ()
  }
  %v15 = affine.load %X[%x2 ceildiv 3, %x2 floordiv 2 + 1] : memref<3x8xi1>
  %s16 = arith.addi %acc, %v15 : i1
  %w17 = arith.muli %v15, %k1_i1 : i1
  %c7_19 = arith.constant 7 : index
  %x18 = arith.subi %c7_19, %x2 : index
  memref.store %w17, %X[%x2, %x18] : memref<3x8xi1>
  %alloc20 = memref.alloc() : memref<3x8xi1>
  layout.assign %alloc20 to #layout.tag<"CH->CH8c", pack = i32, bit_order = "msb"> : memref<3x8xi1>
  "memref.copy"(%X, %alloc20) : (memref<3x8xi1>, memref<3x8xi1>) -> ()
  %alloc21 = memref.alloc() : memref<3x8xi1>
  layout.assign %alloc21 to #layout.tag<"HD->HD16h", pack = i32> : memref<3x8xi1>
  "memref.copy"(%X, %alloc21) : (memref<3x8xi1>, memref<3x8xi1>) -> ()
  %alloca22 = memref.alloca() : memref<8xi32>
  scf.for %n23 = %c0 to %c8 step %c1 {
    memref.store %k0_i32, %alloca22[%n23] : memref<8xi32>
  }
  scf.for %n25 = %c0 to %c8 step %c1 {
    scf.for %n24 = %c0 to %c3 step %c1 {
      %nv26 = memref.load %alloc20[%n24, %n25] : memref<3x8xi1>
      %nv27 = memref.load %alloc21[%n24, %n25] : memref<3x8xi1>
      %nc28 = arith.xori %nv26, %nv27 : i1
      %nc29 = arith.extsi %nc28 : i1 to i32
      %nc30 = memref.load %alloca22[%n25] : memref<8xi32>
      %nc31 = arith.subi %nc30, %nc29 : i32
      memref.store %nc31, %alloca22[%n25] : memref<8xi32>
    }
  }
  scf.for %n32 = %c0 to %c8 step %c1 {
    %np33 = memref.load %alloca22[%n32] : memref<8xi32>
    "vector.print"(%np33) : (i32) -> ()
  }
  memref.dealloc %alloc20 : memref<3x8xi1>
  memref.dealloc %alloc21 : memref<3x8xi1>
  func.return %s16 : i1
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c6 = arith.constant 6 : index
  %c9 = arith.constant 9 : index
  %c7 = arith.constant 7 : index
  %alloc1 = memref.alloc() : memref<3x8xi1>
  scf.for %i2 = %c0 to %c3 step %c1 {
    scf.for %i3 = %c0 to %c8 step %c1 {
      %s4 = arith.muli %i2, %c8 : index
      %l5 = arith.addi %c0, %s4 : index
      %s6 = arith.muli %i3, %c1 : index
      %l7 = arith.addi %l5, %s6 : index
      %x9 = arith.muli %l7, %c3 : index
      %x8 = arith.addi %x9, %c1 : index
      %fv10 = arith.index_cast %x8 : index to i1
      memref.store %fv10, %alloc1[%i2, %i3] : memref<3x8xi1>
    }
  }
  layout.assign %alloc1 to #layout.tag<"DU->  du8d", pack = i14, bit_order = "msb"> : memref<3x8xi1>
  %g = memref.get_global @g0 : memref<9x1x7xi1>
  %alloc11 = memref.alloc() : memref<3x8xi1, #layout.chunked<[1, 3, 0, 0, 1, 0, 0, 4, 0, 8], pack = i64, bit_order = "msb">>
  layout.convert %alloc1 to %alloc11 : memref<3x8xi1> to memref<3x8xi1, #layout.chunked<[1, 3, 0, 0, 1, 0, 0, 4, 0, 8], pack = i64, bit_order = "msb">>
  %cast12 = "memref.cast"(%g) : (memref<9x1x7xi1>) -> memref<?x1x7xi1>
  %r = func.call @kernel(%alloc11, %cast12, %c6) : (memref<3x8xi1, #layout.chunked<[1, 3, 0, 0, 1, 0, 0, 4, 0, 8], pack = i64, bit_order = "msb">>, memref<?x1x7xi1>, index) -> i1
  "memref.copy"(%alloc11, %alloc1) : (memref<3x8xi1, #layout.chunked<[1, 3, 0, 0, 1, 0, 0, 4, 0, 8], pack = i64, bit_order = "msb">>, memref<3x8xi1>) -> ()
  memref.dealloc %alloc11 : memref<3x8xi1, #layout.chunked<[1, 3, 0, 0, 1, 0, 0, 4, 0, 8], pack = i64, bit_order = "msb">>
  "vector.print"(%r) : (i1) -> ()
  scf.for %i13 = %c0 to %c3 step %c1 {
    scf.for %i14 = %c0 to %c8 step %c1 {
      %s15 = arith.muli %i13, %c8 : index
      %l16 = arith.addi %c0, %s15 : index
      %s17 = arith.muli %i14, %c1 : index
      %l18 = arith.addi %l16, %s17 : index
      %p19 = memref.load %alloc1[%i13, %i14] : memref<3x8xi1>
      "vector.print"(%p19) : (i1) -> ()
    }
  }
  scf.for %i20 = %c0 to %c9 step %c1 {
    scf.for %i21 = %c0 to %c1 step %c1 {
      scf.for %i22 = %c0 to %c7 step %c1 {
        %s23 = arith.muli %i20, %c7 : index
        %l24 = arith.addi %c0, %s23 : index
        %s25 = arith.muli %i21, %c7 : index
        %l26 = arith.addi %l24, %s25 : index
        %s27 = arith.muli %i22, %c1 : index
        %l28 = arith.addi %l26, %s27 : index
        %p29 = memref.load %g[%i20, %i21, %i22] : memref<9x1x7xi1>
        "vector.print"(%p29) : (i1) -> ()
      }
    }
  }
  memref.dealloc %alloc1 : memref<3x8xi1>
  func.return
}
