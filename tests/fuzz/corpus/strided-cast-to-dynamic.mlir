// fuzz case seed-105071 (seed 105071, element i32)
// seed 105071: invalid output [affine-flat] layouts left after lowering: ['memref<6x?x?xi32, strided<[3, 66, 16], offset: 4>>']  reproduce: python -m benchmarks.fuzz --replay 105071
// site: @kernel assign memref<6x3x4xi32, strided<[3, 66, 16], offset: 4>>
func.func @kernel(%A: memref<6x3x4xi32>, %B: memref<6x?x?xi32>, %n: index) -> i32 {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %d1 = memref.dim %B, %c1 : memref<6x?x?xi32>
  %d2 = memref.dim %B, %c2 : memref<6x?x?xi32>
  %acc = arith.constant 0 : i32
  %r4 = affine.for %i3 = 1 to 6 step 3 iter_args(%a5 = %acc) -> (i32) {
    %c4_7 = arith.constant 4 : index
    %x6 = arith.floordivsi %i3, %c4_7 : index
    %x8 = affine.apply affine_map<(d0) -> (4 - d0)>(%i3)
    %v9 = memref.load %A[%x6, %c1, %x8] : memref<6x3x4xi32>
    %s10 = arith.addi %a5, %v9 : i32
    %c0_11 = arith.constant 0 : index
    %p12 = arith.cmpi uge, %x8, %c0_11 : index
    %r13 = scf.if %p12 -> (i32) {
      %x14 = arith.floordivsi %i3, %c4_7 : index
      %c1_15 = arith.constant 1 : index
      %x16 = affine.apply affine_map<(d0) -> (4 - d0)>(%i3)
      %v17 = memref.load %B[%x14, %c1_15, %x16] : memref<6x?x?xi32>
      %s18 = arith.addi %s10, %v17 : i32
      %cast19 = "memref.cast"(%A) : (memref<6x3x4xi32>) -> memref<6x?x?xi32>
      "memref.copy"(%cast19, %B) : (memref<6x?x?xi32>, memref<6x?x?xi32>) -> ()
      %p20 = arith.cmpi uge, %x14, %c0 : index
      %r21 = scf.if %p20 -> (i32) {
        %k22 = arith.constant 7 : i32
        memref.store %k22, %B[%x6, %c1, %x8] : memref<6x?x?xi32>
        scf.yield %s18 : i32
      } else {
        %k23 = arith.constant 2 : i32
        %w24 = arith.addi %v9, %k23 : i32
        affine.store %w24, %B[%x16 mod 3, %x16 mod 2, %i3 floordiv 2 + 1] : memref<6x?x?xi32>
        scf.yield %s18 : i32
      }
      scf.yield %r21 : i32
    } else {
      %c4_26 = arith.constant 4 : index
      %x25 = arith.floordivsi %i3, %c4_26 : index
      %c1_27 = arith.constant 1 : index
      %x28 = affine.apply affine_map<(d0) -> (4 - d0)>(%i3)
      %v29 = memref.load %B[%x25, %c1_27, %x28] : memref<6x?x?xi32>
      %s30 = arith.addi %s10, %v29 : i32
      %cast31 = "memref.cast"(%A) : (memref<6x3x4xi32>) -> memref<6x?x?xi32>
      "memref.copy"(%cast31, %B) : (memref<6x?x?xi32>, memref<6x?x?xi32>) -> ()
      scf.yield %s30 : i32
    }
    %c0_32 = arith.constant 0 : index
    %p33 = arith.cmpi slt, %x6, %c0_32 : index
    %r34 = scf.if %p33 -> (i32) {
      %k35 = arith.constant 3 : i32
      %w36 = arith.addi %v9, %k35 : i32
      affine.store %w36, %B[5 - %i3, %x8 mod 3, %i3 mod 3] : memref<6x?x?xi32>
      scf.yield %r13 : i32
    } else {
      %k37 = arith.constant 5 : i32
      %w38 = arith.muli %v9, %k37 : i32
      affine.store %w38, %B[%i3 mod 6, 0, %x8 floordiv 4 + 1] : memref<6x?x?xi32>
      scf.yield %r13 : i32
    }
    affine.yield %r34 : i32
  }
  layout.assign %A to strided<[3, 66, 16], offset: 4> : memref<6x3x4xi32>
  func.return %r4 : i32
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c6 = arith.constant 6 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c12 = arith.constant 12 : index
  %c2 = arith.constant 2 : index
  %alloc1 = memref.alloc() : memref<6x3x4xi32>
  scf.for %i2 = %c0 to %c6 step %c1 {
    scf.for %i3 = %c0 to %c3 step %c1 {
      scf.for %i4 = %c0 to %c4 step %c1 {
        %s5 = arith.muli %i2, %c12 : index
        %l6 = arith.addi %c0, %s5 : index
        %s7 = arith.muli %i3, %c4 : index
        %l8 = arith.addi %l6, %s7 : index
        %s9 = arith.muli %i4, %c1 : index
        %l10 = arith.addi %l8, %s9 : index
        %x12 = arith.muli %l10, %c3 : index
        %x11 = arith.addi %x12, %c1 : index
        %fv13 = arith.index_cast %x11 : index to i32
        memref.store %fv13, %alloc1[%i2, %i3, %i4] : memref<6x3x4xi32>
      }
    }
  }
  %alloc14 = memref.alloc() : memref<6x3x4xi32>
  scf.for %i15 = %c0 to %c6 step %c1 {
    scf.for %i16 = %c0 to %c3 step %c1 {
      scf.for %i17 = %c0 to %c4 step %c1 {
        %s18 = arith.muli %i15, %c12 : index
        %l19 = arith.addi %c0, %s18 : index
        %s20 = arith.muli %i16, %c4 : index
        %l21 = arith.addi %l19, %s20 : index
        %s22 = arith.muli %i17, %c1 : index
        %l23 = arith.addi %l21, %s22 : index
        %x25 = arith.muli %l23, %c3 : index
        %x24 = arith.addi %x25, %c2 : index
        %fv26 = arith.index_cast %x24 : index to i32
        memref.store %fv26, %alloc14[%i15, %i16, %i17] : memref<6x3x4xi32>
      }
    }
  }
  %cast27 = "memref.cast"(%alloc14) : (memref<6x3x4xi32>) -> memref<6x?x?xi32>
  %r = func.call @kernel(%alloc1, %cast27, %c0) : (memref<6x3x4xi32>, memref<6x?x?xi32>, index) -> i32
  "vector.print"(%r) : (i32) -> ()
  scf.for %i28 = %c0 to %c6 step %c1 {
    scf.for %i29 = %c0 to %c3 step %c1 {
      scf.for %i30 = %c0 to %c4 step %c1 {
        %s31 = arith.muli %i28, %c12 : index
        %l32 = arith.addi %c0, %s31 : index
        %s33 = arith.muli %i29, %c4 : index
        %l34 = arith.addi %l32, %s33 : index
        %s35 = arith.muli %i30, %c1 : index
        %l36 = arith.addi %l34, %s35 : index
        %p37 = memref.load %alloc1[%i28, %i29, %i30] : memref<6x3x4xi32>
        "vector.print"(%p37) : (i32) -> ()
      }
    }
  }
  scf.for %i38 = %c0 to %c6 step %c1 {
    scf.for %i39 = %c0 to %c3 step %c1 {
      scf.for %i40 = %c0 to %c4 step %c1 {
        %s41 = arith.muli %i38, %c12 : index
        %l42 = arith.addi %c0, %s41 : index
        %s43 = arith.muli %i39, %c4 : index
        %l44 = arith.addi %l42, %s43 : index
        %s45 = arith.muli %i40, %c1 : index
        %l46 = arith.addi %l44, %s45 : index
        %p47 = memref.load %alloc14[%i38, %i39, %i40] : memref<6x3x4xi32>
        "vector.print"(%p47) : (i32) -> ()
      }
    }
  }
  memref.dealloc %alloc1 : memref<6x3x4xi32>
  memref.dealloc %alloc14 : memref<6x3x4xi32>
  func.return
}
