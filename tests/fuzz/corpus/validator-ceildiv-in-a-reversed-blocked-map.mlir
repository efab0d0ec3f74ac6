// fuzz case seed-6297 (seed 6297, element i8)
// seed 6297: unproven access [flat] layout-lower: translation validation: memref.store at <input>:39:5 is not proven: not proven symbolically (the layout gives (((((((d1 * -1) + 5) floordiv 4) * 480) + ((((d1 * -1) + 5) mod 4) * 80)) + (((d0 mod 4) * 10) + 30)) + ((d0 mod 4) + d2)), the code (((((d1 ceildiv 2) + ((d0 mod 4) * 11)) + (  reproduce: python -m benchmarks.fuzz --replay 6297
// site: @kernel assign memref<5x5x4xi8, #layout.map<affine_map<(d0, d1, d2) -> ((d2 + 2) floordiv 4, (d2 + 2) mod 4, d1 + 3, d1 + d0)>, shape = [2, 6, 8, 10]>>
// site: @kernel type memref<5x5x4xi8, #layout.chunked<[0, 0, 2, 0, 1, 0], pad = -105>>
// site: @main type memref<5x5x4xi8, #layout.chunked<[0, 0, 2, 0, 1, 0], pad = -105>>
func.func private @kernel(%A: memref<5x5x4xi8>, %B: memref<5x5x4xi8, #layout.chunked<[0, 0, 2, 0, 1, 0], pad = -105>>, %n: index) -> i8 {
  %c14 = arith.constant 14 : index
  %k2_i8 = arith.constant 2 : i8
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  layout.assign %A to #layout.map<affine_map<(d0, d1, d2) -> ((d2 + 2) floordiv 4, (d2 + 2) mod 4, d1 + 3, d1 + d0)>, shape = [2, 6, 8, 10]> : memref<5x5x4xi8>
  %alloca1 = memref.alloca() : memref<5x5x4xi8>
  "memref.copy"(%A, %alloca1) : (memref<5x5x4xi8>, memref<5x5x4xi8>) -> ()
  %acc = arith.constant 0 : i8
  %v2 = affine.load %B[0, %n mod 5, %n mod 3] : memref<5x5x4xi8, #layout.chunked<[0, 0, 2, 0, 1, 0], pad = -105>>
  %s3 = arith.addi %acc, %v2 : i8
  %p4 = arith.cmpi uge, %n, %c14 : index
  %r5 = scf.if %p4 -> (i8) {
    %w6 = arith.addi %v2, %k2_i8 : i8
    %x7 = arith.remsi %n, %c4 : index
    %x8 = arith.remui %n, %c1 : index
    memref.store %w6, %B[%x7, %x8, %c1] : memref<5x5x4xi8, #layout.chunked<[0, 0, 2, 0, 1, 0], pad = -105>>
    affine.for %i9 = 4 to 6 step 1 {
      %k10 = arith.constant 2 : i8
      %w11 = arith.addi %v2, %k10 : i8
      affine.store %w11, %A[%i9 floordiv 2 + 1, %i9 ceildiv 2, %i9 - 2] : memref<5x5x4xi8>
      %vec12 = affine.vector_load %A[%i9 floordiv 3, %i9 - 1, 0] : memref<5x5x4xi8>, vector<4xi8>
      %e13 = vector.extract %vec12[3] : i8 from vector<4xi8>
      %h14 = func.call @helper(%alloca1, %x8) : (memref<5x5x4xi8>, index) -> i8
    }
    scf.yield %s3 : i8
  } else {
    %c4_16 = arith.constant 4 : index
    %x15 = arith.remsi %n, %c4_16 : index
    %x17 = arith.remui %n, %c1 : index
    %v18 = memref.load %alloca1[%x15, %x17, %c1] : memref<5x5x4xi8>
    %s19 = arith.addi %s3, %v18 : i8
    %k20 = arith.constant 5 : i8
    %w21 = arith.addi %v2, %k20 : i8
    %c2_23 = arith.constant 2 : index
    %x22 = arith.ceildivui %x15, %c2_23 : index
    %x24 = affine.apply affine_map<(d0) -> (d0 mod 4)>(%n)
    %x25 = affine.apply affine_map<(d0) -> (3 - d0)>(%x15)
    memref.store %w21, %A[%x22, %x24, %x25] : memref<5x5x4xi8>
    scf.yield %s19 : i8
  }
  %c2_26 = arith.constant 2 : index
  %c1_27 = arith.constant 1 : index
  %r29 = scf.for %i28 = %c1 to %c2_26 step %c1_27 iter_args(%a30 = %r5) -> (i8) {
    %x31 = arith.remsi %n, %c4 : index
    %x32 = arith.remui %n, %c1_27 : index
    %v33 = memref.load %B[%x31, %x32, %c1_27] : memref<5x5x4xi8, #layout.chunked<[0, 0, 2, 0, 1, 0], pad = -105>>
    %s34 = arith.addi %a30, %v33 : i8
    scf.yield %s34 : i8
  }
  %c0_35 = arith.constant 0 : index
  %c3_36 = arith.constant 3 : index
  scf.for %i37 = %c0_35 to %c2_26 step %c3_36 {
    %k38 = arith.constant 2 : i8
    %w39 = arith.muli %v2, %k38 : i8
    affine.store %w39, %B[%n mod 2, %n mod 5, %n mod 3] : memref<5x5x4xi8, #layout.chunked<[0, 0, 2, 0, 1, 0], pad = -105>>
  }
  func.return %r29 : i8
}
func.func private @helper(%X: memref<5x5x4xi8>, %n: index) -> i8 {
  %c1 = arith.constant 1 : index
  %k0_i8 = arith.constant 0 : i8
  %k2_i8 = arith.constant 2 : i8
  %c3 = arith.constant 3 : index
  %acc = arith.constant 0 : i8
  %x1 = arith.remui %n, %c1 : index
  %c4_3 = arith.constant 4 : index
  %x2 = arith.floordivsi %x1, %c4_3 : index
  %c2_5 = arith.constant 2 : index
  %x4 = arith.muli %x1, %c2_5 : index
  %x6 = arith.divui %x1, %c4_3 : index
  %v7 = memref.load %X[%x2, %x4, %x6] : memref<5x5x4xi8>
  %s8 = arith.addi %acc, %v7 : i8
  %vec9 = vector.from_elements %v7, %k0_i8, %k2_i8 : vector<3xi8>
  affine.vector_store %vec9, %X[%x4 mod 2, 2 * %x1, %x6 + %x1] : memref<5x5x4xi8>, vector<3xi8>
  %c9_10 = arith.constant 9 : index
  %p11 = arith.cmpi ult, %n, %c9_10 : index
  %r12 = scf.if %p11 -> (i8) {
    %c3_14 = arith.constant 3 : index
    %x13 = arith.ceildivui %x6, %c3_14 : index
    %c2_16 = arith.constant 2 : index
    %x15 = arith.subi %c2_16, %x1 : index
    %v17 = memref.load %X[%x13, %x15, %c1] : memref<5x5x4xi8>
    %s18 = arith.addi %s8, %v17 : i8
    %r20 = scf.for %i19 = %c2_16 to %c4_3 step %c3_14 iter_args(%a21 = %s18) -> (i8) {
      %v22 = memref.load %X[%x2, %x4, %x6] : memref<5x5x4xi8>
      %s23 = arith.addi %a21, %v22 : i8
      %c1_24 = arith.constant 1 : index
      %p25 = arith.cmpi ult, %n, %c1_24 : index
      %r26 = scf.if %p25 -> (i8) {
        %k27 = arith.constant 5 : i8
        %w28 = arith.addi %v22, %k27 : i8
        %x29 = arith.ceildivui %x6, %c3 : index
        %x30 = arith.subi %c2_16, %x1 : index
        memref.store %w28, %X[%x29, %x30, %c1] : memref<5x5x4xi8>
        scf.yield %s23 : i8
      } else {
        %v31 = memref.load %X[%x13, %x15, %c1] : memref<5x5x4xi8>
        %s32 = arith.addi %s23, %v31 : i8
        scf.yield %s32 : i8
      }
      scf.yield %r26 : i8
    }
    scf.yield %r20 : i8
  } else {
    %k33 = arith.constant 5 : i8
    %w34 = arith.addi %v7, %k33 : i8
    affine.store %w34, %X[2 - %x2, 0 - %x6, 1 - %x2] : memref<5x5x4xi8>
    scf.yield %s8 : i8
  }
  func.return %r12 : i8
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c20 = arith.constant 20 : index
  %c3 = arith.constant 3 : index
  %c2 = arith.constant 2 : index
  %alloc1 = memref.alloc() : memref<5x5x4xi8>
  scf.for %i2 = %c0 to %c5 step %c1 {
    scf.for %i3 = %c0 to %c5 step %c1 {
      scf.for %i4 = %c0 to %c4 step %c1 {
        %s5 = arith.muli %i2, %c20 : index
        %l6 = arith.addi %c0, %s5 : index
        %s7 = arith.muli %i3, %c4 : index
        %l8 = arith.addi %l6, %s7 : index
        %s9 = arith.muli %i4, %c1 : index
        %l10 = arith.addi %l8, %s9 : index
        %x12 = arith.muli %l10, %c3 : index
        %x11 = arith.addi %x12, %c1 : index
        %fv13 = arith.index_cast %x11 : index to i8
        memref.store %fv13, %alloc1[%i2, %i3, %i4] : memref<5x5x4xi8>
      }
    }
  }
  %alloca14 = memref.alloca() : memref<5x5x4xi8>
  scf.for %i15 = %c0 to %c5 step %c1 {
    scf.for %i16 = %c0 to %c5 step %c1 {
      scf.for %i17 = %c0 to %c4 step %c1 {
        %s18 = arith.muli %i15, %c20 : index
        %l19 = arith.addi %c0, %s18 : index
        %s20 = arith.muli %i16, %c4 : index
        %l21 = arith.addi %l19, %s20 : index
        %s22 = arith.muli %i17, %c1 : index
        %l23 = arith.addi %l21, %s22 : index
        %x25 = arith.muli %l23, %c3 : index
        %x24 = arith.addi %x25, %c2 : index
        %fv26 = arith.index_cast %x24 : index to i8
        memref.store %fv26, %alloca14[%i15, %i16, %i17] : memref<5x5x4xi8>
      }
    }
  }
  %alloc27 = memref.alloc() : memref<5x5x4xi8, #layout.chunked<[0, 0, 2, 0, 1, 0], pad = -105>>
  "memref.copy"(%alloca14, %alloc27) : (memref<5x5x4xi8>, memref<5x5x4xi8, #layout.chunked<[0, 0, 2, 0, 1, 0], pad = -105>>) -> ()
  %r = func.call @kernel(%alloc1, %alloc27, %c4) : (memref<5x5x4xi8>, memref<5x5x4xi8, #layout.chunked<[0, 0, 2, 0, 1, 0], pad = -105>>, index) -> i8
  "memref.copy"(%alloc27, %alloca14) : (memref<5x5x4xi8, #layout.chunked<[0, 0, 2, 0, 1, 0], pad = -105>>, memref<5x5x4xi8>) -> ()
  memref.dealloc %alloc27 : memref<5x5x4xi8, #layout.chunked<[0, 0, 2, 0, 1, 0], pad = -105>>
  "vector.print"(%r) : (i8) -> ()
  scf.for %i28 = %c0 to %c5 step %c1 {
    scf.for %i29 = %c0 to %c5 step %c1 {
      scf.for %i30 = %c0 to %c4 step %c1 {
        %s31 = arith.muli %i28, %c20 : index
        %l32 = arith.addi %c0, %s31 : index
        %s33 = arith.muli %i29, %c4 : index
        %l34 = arith.addi %l32, %s33 : index
        %s35 = arith.muli %i30, %c1 : index
        %l36 = arith.addi %l34, %s35 : index
        %p37 = memref.load %alloc1[%i28, %i29, %i30] : memref<5x5x4xi8>
        "vector.print"(%p37) : (i8) -> ()
      }
    }
  }
  scf.for %i38 = %c0 to %c5 step %c1 {
    scf.for %i39 = %c0 to %c5 step %c1 {
      scf.for %i40 = %c0 to %c4 step %c1 {
        %s41 = arith.muli %i38, %c20 : index
        %l42 = arith.addi %c0, %s41 : index
        %s43 = arith.muli %i39, %c4 : index
        %l44 = arith.addi %l42, %s43 : index
        %s45 = arith.muli %i40, %c1 : index
        %l46 = arith.addi %l44, %s45 : index
        %p47 = memref.load %alloca14[%i38, %i39, %i40] : memref<5x5x4xi8>
        "vector.print"(%p47) : (i8) -> ()
      }
    }
  }
  memref.dealloc %alloc1 : memref<5x5x4xi8>
  func.return
}
