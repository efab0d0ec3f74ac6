func.func private @kernel(%A: memref<2x5xi32>, %B: memref<2x5xi32>, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c3 = arith.constant 3 : index
  %k3_i32 = arith.constant 3 : i32
  %alloca1 = memref.alloca() : memref<2x5xi32>
  scf.for %i2 = %c0 to %c2 step %c1 {
    scf.for %i3 = %c0 to %c5 step %c1 {
      %s4 = arith.muli %i2, %c5 : index
      %l5 = arith.addi %c0, %s4 : index
      %s6 = arith.muli %i3, %c1 : index
      %l7 = arith.addi %l5, %s6 : index
      %x9 = arith.muli %l7, %c3 : index
      %x8 = arith.addi %x9, %c5 : index
      %fv10 = arith.index_cast %x8 : index to i32
      memref.store %fv10, %alloca1[%i2, %i3] : memref<2x5xi32>
    }
  }
  %acc = arith.constant 0 : i32
  scf.for %n11 = %c0 to %c2 step %c1 {
    scf.for %n12 = %c0 to %c5 step %c1 {
      %nv13 = memref.load %alloca1[%n11, %n12] : memref<2x5xi32>
      %nr14 = arith.addi %nv13, %k3_i32 : i32
      memref.store %nr14, %B[%n11, %n12] : memref<2x5xi32>
    }
  }
  affine.for %i15 = 1 to 2 step 3 {
    %k16 = arith.constant -3 : i32
    affine.store %k16, %B[%i15, %i15 floordiv 2 + 1] : memref<2x5xi32>
    %c6_17 = arith.constant 6 : index
    %c4_18 = arith.constant 4 : index
    scf.for %i19 = %c4_18 to %c6_17 step %c3 {
      %x20 = affine.apply affine_map<(d0) -> (d0 floordiv 3)>(%i15)
      %c4_22 = arith.constant 4 : index
      %x21 = arith.remsi %i19, %c4_22 : index
      %v23 = memref.load %alloca1[%x20, %x21] : memref<2x5xi32>
      %c3_25 = arith.constant 3 : index
      %x24 = arith.muli %c3_25, %x20 : index
      %x26 = arith.floordivsi %x20, %c3_25 : index
      %vec27 = vector.load %B[%x24, %x26] : memref<2x5xi32>, vector<3xi32>
      %e28 = vector.extract %vec27[1] : i32 from vector<3xi32>
    }
  }
  %c1_30 = arith.constant 1 : index
  %x29 = arith.remui %n, %c1_30 : index
  %c3_31 = arith.constant 3 : index
  %v32 = memref.load %A[%x29, %c3_31] : memref<2x5xi32>
  %s33 = arith.addi %acc, %v32 : i32
  func.return %s33 : i32
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %alloca1 = memref.alloca() : memref<2x5xi32>
  scf.for %i2 = %c0 to %c2 step %c1 {
    scf.for %i3 = %c0 to %c5 step %c1 {
      %s4 = arith.muli %i2, %c5 : index
      %l5 = arith.addi %c0, %s4 : index
      %s6 = arith.muli %i3, %c1 : index
      %l7 = arith.addi %l5, %s6 : index
      %x9 = arith.muli %l7, %c3 : index
      %x8 = arith.addi %x9, %c1 : index
      %fv10 = arith.index_cast %x8 : index to i32
      memref.store %fv10, %alloca1[%i2, %i3] : memref<2x5xi32>
    }
  }
  %alloc11 = memref.alloc() : memref<2x5xi32>
  scf.for %i12 = %c0 to %c2 step %c1 {
    scf.for %i13 = %c0 to %c5 step %c1 {
      %s14 = arith.muli %i12, %c5 : index
      %l15 = arith.addi %c0, %s14 : index
      %s16 = arith.muli %i13, %c1 : index
      %l17 = arith.addi %l15, %s16 : index
      %x19 = arith.muli %l17, %c3 : index
      %x18 = arith.addi %x19, %c2 : index
      %fv20 = arith.index_cast %x18 : index to i32
      memref.store %fv20, %alloc11[%i12, %i13] : memref<2x5xi32>
    }
  }
  %alloc21 = memref.alloc() : memref<2x5xi32>
  "memref.copy"(%alloca1, %alloc21) : (memref<2x5xi32>, memref<2x5xi32>) -> ()
  %alloc22 = memref.alloc() : memref<2x5xi32>
  "memref.copy"(%alloc11, %alloc22) : (memref<2x5xi32>, memref<2x5xi32>) -> ()
  %r = func.call @kernel(%alloc21, %alloc22, %c6) : (memref<2x5xi32>, memref<2x5xi32>, index) -> i32
  "memref.copy"(%alloc22, %alloc11) : (memref<2x5xi32>, memref<2x5xi32>) -> ()
  memref.dealloc %alloc22 : memref<2x5xi32>
  "memref.copy"(%alloc21, %alloca1) : (memref<2x5xi32>, memref<2x5xi32>) -> ()
  memref.dealloc %alloc21 : memref<2x5xi32>
  "vector.print"(%r) : (i32) -> ()
  scf.for %i23 = %c0 to %c2 step %c1 {
    scf.for %i24 = %c0 to %c5 step %c1 {
      %s25 = arith.muli %i23, %c5 : index
      %l26 = arith.addi %c0, %s25 : index
      %s27 = arith.muli %i24, %c1 : index
      %l28 = arith.addi %l26, %s27 : index
      %p29 = memref.load %alloca1[%i23, %i24] : memref<2x5xi32>
      "vector.print"(%p29) : (i32) -> ()
    }
  }
  scf.for %i30 = %c0 to %c2 step %c1 {
    scf.for %i31 = %c0 to %c5 step %c1 {
      %s32 = arith.muli %i30, %c5 : index
      %l33 = arith.addi %c0, %s32 : index
      %s34 = arith.muli %i31, %c1 : index
      %l35 = arith.addi %l33, %s34 : index
      %p36 = memref.load %alloc11[%i30, %i31] : memref<2x5xi32>
      "vector.print"(%p36) : (i32) -> ()
    }
  }
  memref.dealloc %alloc11 : memref<2x5xi32>
  func.return
}
