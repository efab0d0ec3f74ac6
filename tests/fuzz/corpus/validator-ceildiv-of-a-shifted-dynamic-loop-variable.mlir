// fuzz case seed-4664 (seed 4664, element i1)
// seed 4664: unproven access [affine] layout-lower: translation validation: memref.store at <input>:76:7 is not proven: not proven symbolically (the layout gives d2, the code ((d1 + 1) ceildiv 3)); no counterexample among 4096 sampled points  reproduce: python -m benchmarks.fuzz --replay 4664
// site: @kernel assign memref<?x5x3x2xi1, #layout.tag<"fgri->  4rIgfR">>
// site: @kernel assign memref<9xi1, #layout.partition<cyclic, dims = [0], factor = 4, pad = -1>>
// site: @main assign memref<4x5x3x2xi1, #layout.tag<"EBCu->  Ub3C5CCE1C", pack = i2>>
// site: @main assign memref<9xi1, #layout.tag<"z->Z6z8z">>
func.func private @kernel(%A: memref<?x5x3x2xi1>, %B: memref<9xi1>, %n: index) -> i1 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c3 = arith.constant 3 : index
  %c2 = arith.constant 2 : index
  %c30 = arith.constant 30 : index
  %c6 = arith.constant 6 : index
  %k0_i1 = arith.constant 0 : i1
  %d1 = memref.dim %A, %c0 : memref<?x5x3x2xi1>
  layout.assign %A to #layout.tag<"fgri->  4rIgfR"> : memref<?x5x3x2xi1>
  %alloc2 = memref.alloc(%d1) : memref<?x5x3x2xi1>
  scf.for %i3 = %c0 to %c4 step %c1 {
    scf.for %i4 = %c0 to %c5 step %c1 {
      scf.for %i5 = %c0 to %c3 step %c1 {
        scf.for %i6 = %c0 to %c2 step %c1 {
          %s7 = arith.muli %i3, %c30 : index
          %l8 = arith.addi %c0, %s7 : index
          %s9 = arith.muli %i4, %c6 : index
          %l10 = arith.addi %l8, %s9 : index
          %s11 = arith.muli %i5, %c2 : index
          %l12 = arith.addi %l10, %s11 : index
          %s13 = arith.muli %i6, %c1 : index
          %l14 = arith.addi %l12, %s13 : index
          %x16 = arith.muli %l14, %c3 : index
          %x15 = arith.addi %x16, %c5 : index
          %fv17 = arith.index_cast %x15 : index to i1
          memref.store %fv17, %alloc2[%i3, %i4, %i5, %i6] : memref<?x5x3x2xi1>
        }
      }
    }
  }
  %acc = arith.constant 0 : i1
  %x18 = arith.remsi %n, %c3 : index
  %v19 = memref.load %B[%x18] : memref<9xi1>
  %s20 = arith.addi %acc, %v19 : i1
  %c1_22 = arith.constant 1 : index
  %x21 = arith.remsi %x18, %c1_22 : index
  %x23 = arith.addi %x18, %c1_22 : index
  %x24 = arith.subi %c2, %x18 : index
  %x25 = arith.ceildivui %x18, %c4 : index
  %v26 = memref.load %alloc2[%x21, %x23, %x24, %x25] : memref<?x5x3x2xi1>
  %s27 = arith.addi %s20, %v26 : i1
  %p28 = arith.cmpi ne, %x25, %c0 : index
  %r29 = scf.if %p28 -> (i1) {
    %c1_31 = arith.constant 1 : index
    %x30 = arith.remsi %x18, %c1_31 : index
    %x32 = arith.addi %c1, %x18 : index
    %c2_34 = arith.constant 2 : index
    %x33 = arith.subi %c2_34, %x18 : index
    %c4_36 = arith.constant 4 : index
    %x35 = arith.ceildivui %x18, %c4_36 : index
    %v37 = memref.load %alloc2[%x30, %x32, %x33, %x35] : memref<?x5x3x2xi1>
    %s38 = arith.addi %s27, %v37 : i1
    %p39 = arith.cmpi eq, %x32, %c1_31 : index
    %r40 = scf.if %p39 -> (i1) {
      %x41 = arith.remsi %x18, %c1_31 : index
      %x42 = arith.addi %x18, %c1 : index
      %x43 = arith.subi %c2_34, %x18 : index
      %x44 = arith.ceildivui %x18, %c4_36 : index
      %v45 = memref.load %A[%x41, %x42, %x43, %x44] : memref<?x5x3x2xi1>
      %s46 = arith.addi %s38, %v45 : i1
      scf.yield %s46 : i1
    } else {
      %v47 = affine.load %B[2 * %x21] : memref<9xi1>
      %s48 = arith.addi %s38, %v47 : i1
      %k49 = arith.constant 0 : i1
      %w50 = arith.addi %v47, %k49 : i1
      %c3_52 = arith.constant 3 : index
      %x51 = arith.ceildivui %x23, %c3_52 : index
      %x53 = arith.remsi %n, %c1_31 : index
      %x54 = arith.subi %x32, %c1_31 : index
      %c1_56 = arith.constant 1 : index
      %x55 = arith.addi %c1_56, %x30 : index
      memref.store %w50, %A[%x51, %x53, %x54, %x55] : memref<?x5x3x2xi1>
      scf.yield %s48 : i1
    }
    scf.yield %r40 : i1
  } else {
    %w57 = arith.muli %v26, %k0_i1 : i1
    affine.store %w57, %B[%x24 mod 9] : memref<9xi1>
    scf.yield %s27 : i1
  }
  layout.assign %B to #layout.partition<cyclic, dims = [0], factor = 4, pad = -1> : memref<9xi1>
  memref.dealloc %alloc2 : memref<?x5x3x2xi1>
  func.return %r29 : i1
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c3 = arith.constant 3 : index
  %c2 = arith.constant 2 : index
  %c30 = arith.constant 30 : index
  %c6 = arith.constant 6 : index
  %c9 = arith.constant 9 : index
  %c15 = arith.constant 15 : index
  %alloc1 = memref.alloc() : memref<4x5x3x2xi1>
  scf.for %i2 = %c0 to %c4 step %c1 {
    scf.for %i3 = %c0 to %c5 step %c1 {
      scf.for %i4 = %c0 to %c3 step %c1 {
        scf.for %i5 = %c0 to %c2 step %c1 {
          %s6 = arith.muli %i2, %c30 : index
          %l7 = arith.addi %c0, %s6 : index
          %s8 = arith.muli %i3, %c6 : index
          %l9 = arith.addi %l7, %s8 : index
          %s10 = arith.muli %i4, %c2 : index
          %l11 = arith.addi %l9, %s10 : index
          %s12 = arith.muli %i5, %c1 : index
          %l13 = arith.addi %l11, %s12 : index
          %x15 = arith.muli %l13, %c3 : index
          %x14 = arith.addi %x15, %c1 : index
          %fv16 = arith.index_cast %x14 : index to i1
          memref.store %fv16, %alloc1[%i2, %i3, %i4, %i5] : memref<4x5x3x2xi1>
        }
      }
    }
  }
  layout.assign %alloc1 to #layout.tag<"EBCu->  Ub3C5CCE1C", pack = i2> : memref<4x5x3x2xi1>
  %alloc17 = memref.alloc() : memref<9xi1>
  scf.for %i18 = %c0 to %c9 step %c1 {
    %s19 = arith.muli %i18, %c1 : index
    %l20 = arith.addi %c0, %s19 : index
    %x22 = arith.muli %l20, %c3 : index
    %x21 = arith.addi %x22, %c2 : index
    %fv23 = arith.index_cast %x21 : index to i1
    memref.store %fv23, %alloc17[%i18] : memref<9xi1>
  }
  layout.assign %alloc17 to #layout.tag<"z->Z6z8z"> : memref<9xi1>
  %cast24 = "memref.cast"(%alloc1) : (memref<4x5x3x2xi1>) -> memref<?x5x3x2xi1>
  %r = func.call @kernel(%cast24, %alloc17, %c15) : (memref<?x5x3x2xi1>, memref<9xi1>, index) -> i1
  "vector.print"(%r) : (i1) -> ()
  scf.for %i25 = %c0 to %c4 step %c1 {
    scf.for %i26 = %c0 to %c5 step %c1 {
      scf.for %i27 = %c0 to %c3 step %c1 {
        scf.for %i28 = %c0 to %c2 step %c1 {
          %s29 = arith.muli %i25, %c30 : index
          %l30 = arith.addi %c0, %s29 : index
          %s31 = arith.muli %i26, %c6 : index
          %l32 = arith.addi %l30, %s31 : index
          %s33 = arith.muli %i27, %c2 : index
          %l34 = arith.addi %l32, %s33 : index
          %s35 = arith.muli %i28, %c1 : index
          %l36 = arith.addi %l34, %s35 : index
          %p37 = memref.load %alloc1[%i25, %i26, %i27, %i28] : memref<4x5x3x2xi1>
          "vector.print"(%p37) : (i1) -> ()
        }
      }
    }
  }
  scf.for %i38 = %c0 to %c9 step %c1 {
    %s39 = arith.muli %i38, %c1 : index
    %l40 = arith.addi %c0, %s39 : index
    %p41 = memref.load %alloc17[%i38] : memref<9xi1>
    "vector.print"(%p41) : (i1) -> ()
  }
  memref.dealloc %alloc1 : memref<4x5x3x2xi1>
  memref.dealloc %alloc17 : memref<9xi1>
  func.return
}
