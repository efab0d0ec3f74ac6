// fuzz case seed-5972 (seed 5972, element f32)
// seed 5972: unproven access [affine] layout-lower: translation validation: memref.store at <input>:74:5 is not proven: not proven symbolically (the layout gives d1, the code (d0 floordiv 2)); no counterexample among 4096 sampled points (1 more not proven)  reproduce: python -m benchmarks.fuzz --replay 5972
// site: @helper type memref<3x?x?xf32, #layout.chunked<[1, 0, 2, 0, 0, 0]>>
// site: @kernel type memref<3x?x?xf32, #layout.chunked<[1, 0, 2, 0, 0, 0]>>
// site: @kernel type memref<3x2x3xf32, #layout.tag<"nCw8c">>
// site: @main assign memref<3x2x3xf32, #layout.chunked<"ChunkedMemoryLayout<3, 1,0, 2,6, 0,6, 2,0, 0,0, 0,6>", pack = vector<6xf32>>>
// site: @main type memref<3x2x3xf32, #layout.tag<"nCw8c">>
func.func @kernel(%A: memref<3x?x?xf32>, %B: memref<3x2x3xf32, #layout.tag<"nCw8c">>, %n: index) -> f32 {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %k7p0_f32 = arith.constant 7.0 : f32
  %km0p75_f32 = arith.constant -0.75 : f32
  %k0p5_f32 = arith.constant 0.5 : f32
  %d1 = memref.dim %A, %c1 : memref<3x?x?xf32>
  %d2 = memref.dim %A, %c2 : memref<3x?x?xf32>
  %acc = arith.constant 0.0 : f32
  %p3 = arith.cmpi ne, %n, %c1 : index
  %r4 = scf.if %p3 -> (f32) {
    %x5 = arith.remsi %n, %c1 : index
    %x6 = affine.apply affine_map<(d0) -> (d0 mod 2)>(%n)
    %v7 = memref.load %B[%c0, %x5, %x6] : memref<3x2x3xf32, #layout.tag<"nCw8c">>
    %s8 = arith.addf %acc, %v7 : f32
    scf.yield %s8 : f32
  } else {
    affine.store %k7p0_f32, %B[2, %n mod 2, 0] : memref<3x2x3xf32, #layout.tag<"nCw8c">>
    scf.yield %acc : f32
  }
  %r10 = affine.for %i9 = 1 to 5 step 3 iter_args(%a11 = %r4) -> (f32) {
    %x12 = arith.remsi %n, %c1 : index
    %x13 = affine.apply affine_map<(d0) -> (d0 mod 2)>(%n)
    %v14 = memref.load %A[%c0, %x12, %x13] : memref<3x?x?xf32>
    %s15 = arith.addf %a11, %v14 : f32
    %c4_16 = arith.constant 4 : index
    scf.for %i17 = %c1 to %c4_16 step %c2 {
      %w18 = arith.mulf %v14, %km0p75_f32 : f32
      memref.store %w18, %A[%c0, %x12, %x13] : memref<3x?x?xf32>
      %v19 = affine.load %A[%i9 mod 3, 1 - %x13, %i9 ceildiv 2] : memref<3x?x?xf32>
    }
    %c1_21 = arith.constant 1 : index
    %sz20 = memref.dim %A, %c1_21 : memref<3x?x?xf32>
    %c2_23 = arith.constant 2 : index
    %sz22 = memref.dim %A, %c2_23 : memref<3x?x?xf32>
    %alloc24 = memref.alloc(%sz20, %sz22) : memref<3x?x?xf32, #layout.chunked<[1, 0, 2, 0, 0, 0]>>
    layout.convert %A to %alloc24 : memref<3x?x?xf32> to memref<3x?x?xf32, #layout.chunked<[1, 0, 2, 0, 0, 0]>>
    %h25 = func.call @helper(%alloc24, %i9) : (memref<3x?x?xf32, #layout.chunked<[1, 0, 2, 0, 0, 0]>>, index) -> f32
    layout.convert %alloc24 to %A : memref<3x?x?xf32, #layout.chunked<[1, 0, 2, 0, 0, 0]>> to memref<3x?x?xf32>
    memref.dealloc %alloc24 : memref<3x?x?xf32, #layout.chunked<[1, 0, 2, 0, 0, 0]>>
    %s26 = arith.addf %s15, %h25 : f32
    affine.yield %s26 : f32
  }
  %c2_28 = arith.constant 2 : index
  %x27 = arith.remui %n, %c2_28 : index
  %x29 = arith.remui %n, %c2_28 : index
  %k31 = arith.constant 2.0 : f32
  %vec30 = vector.broadcast %k31 : f32 to vector<3xf32>
  vector.store %vec30, %B[%x27, %x29, %c0] : memref<3x2x3xf32, #layout.tag<"nCw8c">>, vector<3xf32>
  %vec32 = vector.broadcast %k0p5_f32 : f32 to vector<2xf32>
  affine.vector_store %vec32, %B[%x29 floordiv 4 + 1, %n mod 2, %x29 floordiv 4 + 1] : memref<3x2x3xf32, #layout.tag<"nCw8c">>, vector<2xf32>
  func.return %r10 : f32
}
func.func private @helper(%X: memref<3x?x?xf32, #layout.chunked<[1, 0, 2, 0, 0, 0]>>, %n: index) -> f32 {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %k0p5_f32 = arith.constant 0.5 : f32
  %k2p0_f32 = arith.constant 2.0 : f32
  %c3 = arith.constant 3 : index
  %c0 = arith.constant 0 : index
  %d1 = memref.dim %X, %c1 : memref<3x?x?xf32, #layout.chunked<[1, 0, 2, 0, 0, 0]>>
  %d2 = memref.dim %X, %c2 : memref<3x?x?xf32, #layout.chunked<[1, 0, 2, 0, 0, 0]>>
  %acc = arith.constant 0.0 : f32
  %k4 = arith.constant -3.0 : f32
  %vec3 = vector.from_elements %k0p5_f32, %k4 : vector<2xf32>
  affine.vector_store %vec3, %X[1, %n mod 2, 0] : memref<3x?x?xf32, #layout.chunked<[1, 0, 2, 0, 0, 0]>>, vector<2xf32>
  %r6 = affine.for %i5 = 0 to %d1 step 2 iter_args(%a7 = %acc) -> (f32) {
    %x8 = arith.muli %i5, %c3 : index
    %c2_10 = arith.constant 2 : index
    %x9 = arith.divui %i5, %c2_10 : index
    %c3_12 = arith.constant 3 : index
    %x11 = arith.divsi %i5, %c3_12 : index
    memref.store %k2p0_f32, %X[%x8, %x9, %x11] : memref<3x?x?xf32, #layout.chunked<[1, 0, 2, 0, 0, 0]>>
    %c12_13 = arith.constant 12 : index
    %p14 = arith.cmpi sge, %n, %c12_13 : index
    scf.if %p14 {
      %k16 = arith.constant 2.0 : f32
      memref.store %k16, %X[%x8, %x9, %x11] : memref<3x?x?xf32, #layout.chunked<[1, 0, 2, 0, 0, 0]>>
    } else {
      %x17 = arith.addi %i5, %c2_10 : index
      %x18 = arith.subi %c0, %i5 : index
      %x19 = arith.floordivsi %x11, %c2 : index
      %v20 = memref.load %X[%x17, %x18, %x19] : memref<3x?x?xf32, #layout.chunked<[1, 0, 2, 0, 0, 0]>>
    }
    affine.yield %a7 : f32
  }
  func.return %r6 : f32
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %c37 = arith.constant 37 : index
  %k0p25_f32 = arith.constant 0.25 : f32
  %k2p0_f32 = arith.constant 2.0 : f32
  %alloc1 = memref.alloc() : memref<3x2x3xf32>
  scf.for %i2 = %c0 to %c3 step %c1 {
    scf.for %i3 = %c0 to %c2 step %c1 {
      scf.for %i4 = %c0 to %c3 step %c1 {
        %s5 = arith.muli %i2, %c6 : index
        %l6 = arith.addi %c0, %s5 : index
        %s7 = arith.muli %i3, %c3 : index
        %l8 = arith.addi %l6, %s7 : index
        %s9 = arith.muli %i4, %c1 : index
        %l10 = arith.addi %l8, %s9 : index
        %x12 = arith.muli %l10, %c3 : index
        %x11 = arith.addi %x12, %c1 : index
        %x14 = arith.remui %x11, %c37 : index
        %x15 = arith.index_cast %x14 : index to i32
        %x16 = arith.sitofp %x15 : i32 to f32
        %x17 = arith.mulf %x16, %k0p25_f32 : f32
        %fv13 = arith.subf %x17, %k2p0_f32 : f32
        memref.store %fv13, %alloc1[%i2, %i3, %i4] : memref<3x2x3xf32>
      }
    }
  }
  %alloca18 = memref.alloca() : memref<3x2x3xf32>
  scf.for %i19 = %c0 to %c3 step %c1 {
    scf.for %i20 = %c0 to %c2 step %c1 {
      scf.for %i21 = %c0 to %c3 step %c1 {
        %s22 = arith.muli %i19, %c6 : index
        %l23 = arith.addi %c0, %s22 : index
        %s24 = arith.muli %i20, %c3 : index
        %l25 = arith.addi %l23, %s24 : index
        %s26 = arith.muli %i21, %c1 : index
        %l27 = arith.addi %l25, %s26 : index
        %x29 = arith.muli %l27, %c3 : index
        %x28 = arith.addi %x29, %c2 : index
        %x31 = arith.remui %x28, %c37 : index
        %x32 = arith.index_cast %x31 : index to i32
        %x33 = arith.sitofp %x32 : i32 to f32
        %x34 = arith.mulf %x33, %k0p25_f32 : f32
        %fv30 = arith.subf %x34, %k2p0_f32 : f32
        memref.store %fv30, %alloca18[%i19, %i20, %i21] : memref<3x2x3xf32>
      }
    }
  }
  layout.assign %alloca18 to #layout.chunked<"ChunkedMemoryLayout<3, 1,0, 2,6, 0,6, 2,0, 0,0, 0,6>", pack = vector<6xf32>> : memref<3x2x3xf32>
  %cast35 = "memref.cast"(%alloc1) : (memref<3x2x3xf32>) -> memref<3x?x?xf32>
  %alloc36 = memref.alloc() : memref<3x2x3xf32, #layout.tag<"nCw8c">>
  "memref.copy"(%alloca18, %alloc36) : (memref<3x2x3xf32>, memref<3x2x3xf32, #layout.tag<"nCw8c">>) -> ()
  %r = func.call @kernel(%cast35, %alloc36, %c2) : (memref<3x?x?xf32>, memref<3x2x3xf32, #layout.tag<"nCw8c">>, index) -> f32
  layout.convert %alloc36 to %alloca18 : memref<3x2x3xf32, #layout.tag<"nCw8c">> to memref<3x2x3xf32>
  memref.dealloc %alloc36 : memref<3x2x3xf32, #layout.tag<"nCw8c">>
  "vector.print"(%r) : (f32) -> ()
  scf.for %i37 = %c0 to %c3 step %c1 {
    scf.for %i38 = %c0 to %c2 step %c1 {
      scf.for %i39 = %c0 to %c3 step %c1 {
        %s40 = arith.muli %i37, %c6 : index
        %l41 = arith.addi %c0, %s40 : index
        %s42 = arith.muli %i38, %c3 : index
        %l43 = arith.addi %l41, %s42 : index
        %s44 = arith.muli %i39, %c1 : index
        %l45 = arith.addi %l43, %s44 : index
        %p46 = memref.load %alloc1[%i37, %i38, %i39] : memref<3x2x3xf32>
        "vector.print"(%p46) : (f32) -> ()
      }
    }
  }
  scf.for %i47 = %c0 to %c3 step %c1 {
    scf.for %i48 = %c0 to %c2 step %c1 {
      scf.for %i49 = %c0 to %c3 step %c1 {
        %s50 = arith.muli %i47, %c6 : index
        %l51 = arith.addi %c0, %s50 : index
        %s52 = arith.muli %i48, %c3 : index
        %l53 = arith.addi %l51, %s52 : index
        %s54 = arith.muli %i49, %c1 : index
        %l55 = arith.addi %l53, %s54 : index
        %p56 = memref.load %alloca18[%i47, %i48, %i49] : memref<3x2x3xf32>
        "vector.print"(%p56) : (f32) -> ()
      }
    }
  }
  memref.dealloc %alloc1 : memref<3x2x3xf32>
  func.return
}
