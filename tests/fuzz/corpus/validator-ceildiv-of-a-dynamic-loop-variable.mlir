// fuzz case seed-2650 (seed 2650, element i2)
// seed 2650: unproven access [arith] layout-lower: translation validation: memref.load at <input>:51:7 is not proven: not proven symbolically (the layout gives d1, the code (d0 ceildiv 3)); no counterexample among 4096 sampled points  reproduce: python -m benchmarks.fuzz --replay 2650 --native
// site: @kernel assign memref<4x4x?xi2, #layout.partition<block, dims = [1], factor = 2>>
// site: @kernel type memref<4x4x?xi2, #layout.tag<"mdP -> 2m8mDmP">>
// site: @kernel type memref<3xi2, #layout.tag<"Z->  6z5z2zZ">>
// site: @main type memref<3xi2, strided<[2], offset: 1>>
// site: @main type memref<4x4x?xi2, #layout.tag<"mdP -> 2m8mDmP">>
// site: @main type memref<3xi2, #layout.tag<"Z->  6z5z2zZ">>
"memref.global"() <{sym_name = "g0", sym_visibility = "private", type = memref<3xi2, strided<[2], offset: 1>>, initial_value = dense<[-2, 1, 0]> : tensor<3xi2>}> : () -> ()
func.func @kernel(%A: memref<4x4x?xi2, #layout.tag<"mdP -> 2m8mDmP">>, %B: memref<3xi2, #layout.tag<"Z->  6z5z2zZ">>, %n: index) -> i2 {
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %km2_i2 = arith.constant -2 : i2
  %d1 = memref.dim %A, %c2 : memref<4x4x?xi2, #layout.tag<"mdP -> 2m8mDmP">>
  %alloc2 = memref.alloc(%d1) : memref<4x4x?xi2>
  layout.assign %alloc2 to #layout.partition<block, dims = [1], factor = 2> : memref<4x4x?xi2>
  scf.for %i3 = %c0 to %c4 step %c1 {
    scf.for %i4 = %c0 to %c4 step %c1 {
      scf.for %i5 = %c0 to %c4 step %c1 {
        %s6 = arith.muli %i3, %c16 : index
        %l7 = arith.addi %c0, %s6 : index
        %s8 = arith.muli %i4, %c4 : index
        %l9 = arith.addi %l7, %s8 : index
        %s10 = arith.muli %i5, %c1 : index
        %l11 = arith.addi %l9, %s10 : index
        %x13 = arith.muli %l11, %c3 : index
        %x12 = arith.addi %x13, %c5 : index
        %fv14 = arith.index_cast %x12 : index to i2
        memref.store %fv14, %alloc2[%i3, %i4, %i5] : memref<4x4x?xi2>
      }
    }
  }
  %acc = arith.constant 0 : i2
  %c3_15 = arith.constant 3 : index
  %c0_16 = arith.constant 0 : index
  %r18 = scf.for %i17 = %c0_16 to %c3_15 step %c3 iter_args(%a19 = %acc) -> (i2) {
    %c4_21 = arith.constant 4 : index
    %x20 = arith.ceildivui %i17, %c4_21 : index
    %x22 = arith.divui %i17, %c2 : index
    %c2_24 = arith.constant 2 : index
    %x23 = arith.muli %c2_24, %i17 : index
    memref.store %km2_i2, %alloc2[%x20, %x22, %x23] : memref<4x4x?xi2>
    scf.yield %a19 : i2
  }
  %c2_25 = arith.constant 2 : index
  %r27 = scf.for %i26 = %c1 to %d1 step %c2_25 iter_args(%a28 = %r18) -> (i2) {
    %v29 = affine.load %alloc2[1, %n mod 4, %n mod 4] : memref<4x4x?xi2>
    %s30 = arith.addi %a28, %v29 : i2
    %v31 = affine.load %alloc2[0, %n mod 3, 1] : memref<4x4x?xi2>
    %s32 = arith.addi %s30, %v31 : i2
    %r34 = affine.for %i33 = 2 to 3 step 3 iter_args(%a35 = %s32) -> (i2) {
      %x36 = arith.ceildivsi %i26, %c2_25 : index
      %x37 = arith.ceildivui %i26, %c3 : index
      %v38 = memref.load %A[%x36, %i26, %x37] : memref<4x4x?xi2, #layout.tag<"mdP -> 2m8mDmP">>
      %s39 = arith.addi %a35, %v38 : i2
      affine.yield %s39 : i2
    }
    scf.yield %r34 : i2
  }
  %c3_41 = arith.constant 3 : index
  %x40 = arith.remui %n, %c3_41 : index
  %v42 = memref.load %B[%x40] : memref<3xi2, #layout.tag<"Z->  6z5z2zZ">>
  %s43 = arith.addi %r27, %v42 : i2
  "memref.copy"(%alloc2, %A) : (memref<4x4x?xi2>, memref<4x4x?xi2, #layout.tag<"mdP -> 2m8mDmP">>) -> ()
  memref.dealloc %alloc2 : memref<4x4x?xi2>
  func.return %s43 : i2
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c3 = arith.constant 3 : index
  %c2 = arith.constant 2 : index
  %alloc1 = memref.alloc() : memref<4x4x4xi2>
  scf.for %i2 = %c0 to %c4 step %c1 {
    scf.for %i3 = %c0 to %c4 step %c1 {
      scf.for %i4 = %c0 to %c4 step %c1 {
        %s5 = arith.muli %i2, %c16 : index
        %l6 = arith.addi %c0, %s5 : index
        %s7 = arith.muli %i3, %c4 : index
        %l8 = arith.addi %l6, %s7 : index
        %s9 = arith.muli %i4, %c1 : index
        %l10 = arith.addi %l8, %s9 : index
        %x12 = arith.muli %l10, %c3 : index
        %x11 = arith.addi %x12, %c1 : index
        %fv13 = arith.index_cast %x11 : index to i2
        memref.store %fv13, %alloc1[%i2, %i3, %i4] : memref<4x4x4xi2>
      }
    }
  }
  %g = memref.get_global @g0 : memref<3xi2, strided<[2], offset: 1>>
  %cast14 = "memref.cast"(%alloc1) : (memref<4x4x4xi2>) -> memref<4x4x?xi2>
  %sz15 = memref.dim %cast14, %c2 : memref<4x4x?xi2>
  %alloc16 = memref.alloc(%sz15) : memref<4x4x?xi2, #layout.tag<"mdP -> 2m8mDmP">>
  "memref.copy"(%cast14, %alloc16) : (memref<4x4x?xi2>, memref<4x4x?xi2, #layout.tag<"mdP -> 2m8mDmP">>) -> ()
  %alloc17 = memref.alloc() : memref<3xi2, #layout.tag<"Z->  6z5z2zZ">>
  "memref.copy"(%g, %alloc17) : (memref<3xi2, strided<[2], offset: 1>>, memref<3xi2, #layout.tag<"Z->  6z5z2zZ">>) -> ()
  %r = func.call @kernel(%alloc16, %alloc17, %c2) : (memref<4x4x?xi2, #layout.tag<"mdP -> 2m8mDmP">>, memref<3xi2, #layout.tag<"Z->  6z5z2zZ">>, index) -> i2
  "memref.copy"(%alloc17, %g) : (memref<3xi2, #layout.tag<"Z->  6z5z2zZ">>, memref<3xi2, strided<[2], offset: 1>>) -> ()
  memref.dealloc %alloc17 : memref<3xi2, #layout.tag<"Z->  6z5z2zZ">>
  "memref.copy"(%alloc16, %cast14) : (memref<4x4x?xi2, #layout.tag<"mdP -> 2m8mDmP">>, memref<4x4x?xi2>) -> ()
  memref.dealloc %alloc16 : memref<4x4x?xi2, #layout.tag<"mdP -> 2m8mDmP">>
  "vector.print"(%r) : (i2) -> ()
  scf.for %i18 = %c0 to %c4 step %c1 {
    scf.for %i19 = %c0 to %c4 step %c1 {
      scf.for %i20 = %c0 to %c4 step %c1 {
        %s21 = arith.muli %i18, %c16 : index
        %l22 = arith.addi %c0, %s21 : index
        %s23 = arith.muli %i19, %c4 : index
        %l24 = arith.addi %l22, %s23 : index
        %s25 = arith.muli %i20, %c1 : index
        %l26 = arith.addi %l24, %s25 : index
        %p27 = memref.load %alloc1[%i18, %i19, %i20] : memref<4x4x4xi2>
        "vector.print"(%p27) : (i2) -> ()
      }
    }
  }
  scf.for %i28 = %c0 to %c3 step %c1 {
    %s29 = arith.muli %i28, %c1 : index
    %l30 = arith.addi %c0, %s29 : index
    %p31 = memref.load %g[%i28] : memref<3xi2, strided<[2], offset: 1>>
    "vector.print"(%p31) : (i2) -> ()
  }
  memref.dealloc %alloc1 : memref<4x4x4xi2>
  func.return
}
