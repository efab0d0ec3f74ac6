// fuzz case seed-7759 (seed 7759, element f64)
// seed 7759: unproven access [schedule] layout-lower: translation validation: memref.store at <input>:35:5 is not proven: at %i6 = 4, remui(%n, 2) = 0: logical index (4611686018427387904, 0, 0) is physical (4611686018427387904, 0, 0, 0) in the layout, but the code computes (0, 0, 0, 0)  reproduce: python -m benchmarks.fuzz --replay 7759
// site: @helper assign memref<2x5x?xf64, #layout.partition<[block, cyclic], dims = [0, 1], factor = [2, 4]>>
// site: @kernel type memref<2x5x?xf64, #layout.tag<"QZo->  Q1qZ2Zo">>
// site: @kernel type memref<?x5x6xf64, #layout.tag<"nCw8c">>
// site: @main type memref<2x5x6xf64, #layout.tag<"QZo->  Q1qZ2Zo">>
// site: @main type memref<2x5x?xf64, #layout.tag<"QZo->  Q1qZ2Zo">>
// site: @main type memref<?x5x6xf64, #layout.tag<"nCw8c">>
func.func @kernel(%A: memref<2x5x?xf64, #layout.tag<"QZo->  Q1qZ2Zo">>, %B: memref<?x5x6xf64, #layout.tag<"nCw8c">>, %n: index) -> f64 {
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c3 = arith.constant 3 : index
  %k0p5_f64 = arith.constant 0.5 : f64
  %km3p0_f64 = arith.constant -3.0 : f64
  %d1 = memref.dim %A, %c2 : memref<2x5x?xf64, #layout.tag<"QZo->  Q1qZ2Zo">>
  %d2 = memref.dim %B, %c0 : memref<?x5x6xf64, #layout.tag<"nCw8c">>
  %acc = arith.constant 0.0 : f64
  %x3 = arith.remui %n, %c4 : index
  %c2_5 = arith.constant 2 : index
  %x4 = arith.remui %n, %c2_5 : index
  %r7 = affine.for %i6 = 4 to 7 step 3 iter_args(%a8 = %acc) -> (f64) {
    %x9 = arith.remui %n, %c2_5 : index
    %x10 = arith.ceildivui %i6, %c4 : index
    %v11 = memref.load %B[%x9, %x10, %c0] : memref<?x5x6xf64, #layout.tag<"nCw8c">>
    %s12 = arith.addf %a8, %v11 : f64
    %c4_14 = arith.constant 4 : index
    %x13 = arith.divui %x9, %c4_14 : index
    %x15 = arith.ceildivui %x10, %c3 : index
    %c2_17 = arith.constant 2 : index
    %x16 = arith.remsi %x3, %c2_17 : index
    %k19 = arith.constant -3.0 : f64
    %k20 = arith.constant 1.0 : f64
    %w21 = arith.mulf %v11, %k20 : f64
    %vec18 = vector.from_elements %k0p5_f64, %k19, %km3p0_f64, %v11, %w21 : vector<5xf64>
    vector.store %vec18, %B[%x13, %x15, %x16] : memref<?x5x6xf64, #layout.tag<"nCw8c">>, vector<5xf64>
    %k22 = arith.constant -3.0 : f64
    %c1_24 = arith.constant 1 : index
    %x23 = arith.subi %c1_24, %x10 : index
    %c2_26 = arith.constant 2 : index
    %x25 = arith.divui %x9, %c2_26 : index
    %x27 = arith.muli %c3, %x13 : index
    memref.store %k22, %B[%x23, %x25, %x27] : memref<?x5x6xf64, #layout.tag<"nCw8c">>
    affine.yield %s12 : f64
  }
  %r29 = affine.for %i28 = 0 to 3 iter_args(%a30 = %r7) -> (f64) {
    %x31 = arith.divsi %i28, %c3 : index
    %x32 = affine.apply affine_map<(d0) -> (d0 floordiv 3)>(%i28)
    memref.store %km3p0_f64, %A[%x31, %x4, %x32] : memref<2x5x?xf64, #layout.tag<"QZo->  Q1qZ2Zo">>
    affine.yield %a30 : f64
  }
  %sz33 = memref.dim %A, %c2_5 : memref<2x5x?xf64, #layout.tag<"QZo->  Q1qZ2Zo">>
  %alloc34 = memref.alloc(%sz33) : memref<2x5x?xf64>
  "memref.copy"(%A, %alloc34) : (memref<2x5x?xf64, #layout.tag<"QZo->  Q1qZ2Zo">>, memref<2x5x?xf64>) -> ()
  %h35 = func.call @helper(%alloc34, %x3) : (memref<2x5x?xf64>, index) -> f64
  "memref.copy"(%alloc34, %A) : (memref<2x5x?xf64>, memref<2x5x?xf64, #layout.tag<"QZo->  Q1qZ2Zo">>) -> ()
  memref.dealloc %alloc34 : memref<2x5x?xf64>
  %s36 = arith.addf %r29, %h35 : f64
  func.return %s36 : f64
}
func.func private @helper(%X: memref<2x5x?xf64>, %n: index) -> f64 {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d1 = memref.dim %X, %c2 : memref<2x5x?xf64>
  layout.assign %X to #layout.partition<[block, cyclic], dims = [0, 1], factor = [2, 4]> : memref<2x5x?xf64>
  %acc = arith.constant 0.0 : f64
  %x2 = arith.remui %n, %c2 : index
  %c15_3 = arith.constant 15 : index
  %p4 = arith.cmpi sgt, %n, %c15_3 : index
  %r5 = scf.if %p4 -> (f64) {
    %v6 = affine.load %X[%x2 ceildiv 3, 2 - %x2, %x2 mod 6] : memref<2x5x?xf64>
    %s7 = arith.addf %acc, %v6 : f64
    scf.yield %s7 : f64
  } else {
    %c2_9 = arith.constant 2 : index
    %x8 = arith.divsi %x2, %c2_9 : index
    %x10 = arith.divsi %x2, %c3 : index
    %v11 = memref.load %X[%x8, %x2, %x10] : memref<2x5x?xf64>
    %s12 = arith.addf %acc, %v11 : f64
    scf.yield %s12 : f64
  }
  %v13 = affine.load %X[%x2 ceildiv 2, 3 - %x2, %x2 floordiv 3] : memref<2x5x?xf64>
  %s14 = arith.addf %r5, %v13 : f64
  func.return %s14 : f64
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c30 = arith.constant 30 : index
  %c3 = arith.constant 3 : index
  %c37 = arith.constant 37 : index
  %k0p25_f64 = arith.constant 0.25 : f64
  %k2p0_f64 = arith.constant 2.0 : f64
  %alloc1 = memref.alloc() : memref<2x5x6xf64, #layout.tag<"QZo->  Q1qZ2Zo">>
  scf.for %i2 = %c0 to %c2 step %c1 {
    scf.for %i3 = %c0 to %c5 step %c1 {
      scf.for %i4 = %c0 to %c6 step %c1 {
        %s5 = arith.muli %i2, %c30 : index
        %l6 = arith.addi %c0, %s5 : index
        %s7 = arith.muli %i3, %c6 : index
        %l8 = arith.addi %l6, %s7 : index
        %s9 = arith.muli %i4, %c1 : index
        %l10 = arith.addi %l8, %s9 : index
        %x12 = arith.muli %l10, %c3 : index
        %x11 = arith.addi %x12, %c1 : index
        %x14 = arith.remui %x11, %c37 : index
        %x15 = arith.index_cast %x14 : index to i32
        %x16 = arith.sitofp %x15 : i32 to f64
        %x17 = arith.mulf %x16, %k0p25_f64 : f64
        %fv13 = arith.subf %x17, %k2p0_f64 : f64
        memref.store %fv13, %alloc1[%i2, %i3, %i4] : memref<2x5x6xf64, #layout.tag<"QZo->  Q1qZ2Zo">>
      }
    }
  }
  %alloc18 = memref.alloc() : memref<2x5x6xf64>
  scf.for %i19 = %c0 to %c2 step %c1 {
    scf.for %i20 = %c0 to %c5 step %c1 {
      scf.for %i21 = %c0 to %c6 step %c1 {
        %s22 = arith.muli %i19, %c30 : index
        %l23 = arith.addi %c0, %s22 : index
        %s24 = arith.muli %i20, %c6 : index
        %l25 = arith.addi %l23, %s24 : index
        %s26 = arith.muli %i21, %c1 : index
        %l27 = arith.addi %l25, %s26 : index
        %x29 = arith.muli %l27, %c3 : index
        %x28 = arith.addi %x29, %c2 : index
        %x31 = arith.remui %x28, %c37 : index
        %x32 = arith.index_cast %x31 : index to i32
        %x33 = arith.sitofp %x32 : i32 to f64
        %x34 = arith.mulf %x33, %k0p25_f64 : f64
        %fv30 = arith.subf %x34, %k2p0_f64 : f64
        memref.store %fv30, %alloc18[%i19, %i20, %i21] : memref<2x5x6xf64>
      }
    }
  }
  %cast35 = "memref.cast"(%alloc1) : (memref<2x5x6xf64, #layout.tag<"QZo->  Q1qZ2Zo">>) -> memref<2x5x?xf64, #layout.tag<"QZo->  Q1qZ2Zo">>
  %cast36 = "memref.cast"(%alloc18) : (memref<2x5x6xf64>) -> memref<?x5x6xf64>
  %sz37 = memref.dim %cast36, %c0 : memref<?x5x6xf64>
  %alloc38 = memref.alloc(%sz37) : memref<?x5x6xf64, #layout.tag<"nCw8c">>
  layout.convert %cast36 to %alloc38 : memref<?x5x6xf64> to memref<?x5x6xf64, #layout.tag<"nCw8c">>
  %r = func.call @kernel(%cast35, %alloc38, %c2) : (memref<2x5x?xf64, #layout.tag<"QZo->  Q1qZ2Zo">>, memref<?x5x6xf64, #layout.tag<"nCw8c">>, index) -> f64
  "memref.copy"(%alloc38, %cast36) : (memref<?x5x6xf64, #layout.tag<"nCw8c">>, memref<?x5x6xf64>) -> ()
  memref.dealloc %alloc38 : memref<?x5x6xf64, #layout.tag<"nCw8c">>
  "vector.print"(%r) : (f64) -> ()
  scf.for %i39 = %c0 to %c2 step %c1 {
    scf.for %i40 = %c0 to %c5 step %c1 {
      scf.for %i41 = %c0 to %c6 step %c1 {
        %s42 = arith.muli %i39, %c30 : index
        %l43 = arith.addi %c0, %s42 : index
        %s44 = arith.muli %i40, %c6 : index
        %l45 = arith.addi %l43, %s44 : index
        %s46 = arith.muli %i41, %c1 : index
        %l47 = arith.addi %l45, %s46 : index
        %p48 = memref.load %alloc1[%i39, %i40, %i41] : memref<2x5x6xf64, #layout.tag<"QZo->  Q1qZ2Zo">>
        "vector.print"(%p48) : (f64) -> ()
      }
    }
  }
  scf.for %i49 = %c0 to %c2 step %c1 {
    scf.for %i50 = %c0 to %c5 step %c1 {
      scf.for %i51 = %c0 to %c6 step %c1 {
        %s52 = arith.muli %i49, %c30 : index
        %l53 = arith.addi %c0, %s52 : index
        %s54 = arith.muli %i50, %c6 : index
        %l55 = arith.addi %l53, %s54 : index
        %s56 = arith.muli %i51, %c1 : index
        %l57 = arith.addi %l55, %s56 : index
        %p58 = memref.load %alloc18[%i49, %i50, %i51] : memref<2x5x6xf64>
        "vector.print"(%p58) : (f64) -> ()
      }
    }
  }
  memref.dealloc %alloc1 : memref<2x5x6xf64, #layout.tag<"QZo->  Q1qZ2Zo">>
  memref.dealloc %alloc18 : memref<2x5x6xf64>
  func.return
}
