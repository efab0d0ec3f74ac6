// fuzz case packed-f64-dynamic-lane-stores (seed 520614, element f64)
// seed 520614: five f64 lanes stored at a run-time lane into a vector<8xf64> container; LLVM 22 merged the dynamic inserts into one vmovaps at a misaligned address and mlir-runner faulted; the lanes are selected (passes/packed/lane_update.py)
// native
// site: @kernel type memref<5087xf64, #layout.map<affine_map<(d0) -> (d0)>>>
// site: @kernel assign memref<6xf64, #layout.map<affine_map<(d0) -> (d0 mod 6, d0 floordiv 6)>>>
// site: @kernel type memref<5087xf64, #layout.tag<"z -> z8z", pack = vector<8xf64>>>
// site: @main type memref<5087xf64, #layout.tag<"z -> z8z", pack = vector<8xf64>>>
func.func @kernel(%A: memref<5087xf64, #layout.tag<"z -> z8z", pack = vector<8xf64>>>, %B: memref<6xf64>, %n: index) -> f64 {
  %k2p0_f64 = arith.constant 2.0 : f64
  %c3278 = arith.constant 3278 : index
  %k7p0_f64 = arith.constant 7.0 : f64
  %c4434 = arith.constant 4434 : index
  %c2 = arith.constant 2 : index
  %c2608 = arith.constant 2608 : index
  %c3986 = arith.constant 3986 : index
  %c3 = arith.constant 3 : index
  %k0p5_f64 = arith.constant 0.5 : f64
  %c4 = arith.constant 4 : index
  %k3p0_f64 = arith.constant 3.0 : f64
  %alloc1 = memref.alloc() : memref<5087xf64, #layout.map<affine_map<(d0) -> (d0)>>>
  layout.convert %A to %alloc1 : memref<5087xf64, #layout.tag<"z -> z8z", pack = vector<8xf64>>> to memref<5087xf64, #layout.map<affine_map<(d0) -> (d0)>>>
  %acc = arith.constant 0.0 : f64
  %c2650_3 = arith.constant 2650 : index
  %x2 = arith.remui %n, %c2650_3 : index
  affine.for %i4 = 0 to 6 step 3 {
    %v5 = affine.load %alloc1[%x2 ceildiv 3] : memref<5087xf64, #layout.map<affine_map<(d0) -> (d0)>>>
  }
  %k7 = arith.constant 2.0 : f64
  %k8 = arith.constant -3.0 : f64
  %k9 = arith.constant 7.0 : f64
  %vec6 = vector.from_elements %k2p0_f64, %k2p0_f64, %k7, %k8, %k9 : vector<5xf64>
  affine.vector_store %vec6, %A[%x2 mod 2] : memref<5087xf64, #layout.tag<"z -> z8z", pack = vector<8xf64>>>, vector<5xf64>
  %c3291_10 = arith.constant 3291 : index
  %c3_11 = arith.constant 3 : index
  scf.for %i12 = %c3278 to %c3291_10 step %c3_11 {
    %c2608_13 = arith.constant 2608 : index
    memref.store %k7p0_f64, %A[%c2608_13] : memref<5087xf64, #layout.tag<"z -> z8z", pack = vector<8xf64>>>
    %k14 = arith.constant -3.0 : f64
    affine.store %k14, %alloc1[%n mod 3] : memref<5087xf64, #layout.map<affine_map<(d0) -> (d0)>>>
  }
  %c4433_15 = arith.constant 4433 : index
  %r17 = scf.for %i16 = %c4433_15 to %c4434 step %c2 iter_args(%a18 = %acc) -> (f64) {
    %v19 = memref.load %A[%c2608] : memref<5087xf64, #layout.tag<"z -> z8z", pack = vector<8xf64>>>
    %s20 = arith.addf %a18, %v19 : f64
    %x21 = arith.ceildivui %i16, %c3_11 : index
    %c3964_22 = arith.constant 3964 : index
    %r24 = scf.for %i23 = %c3964_22 to %c3986 step %c3 iter_args(%a25 = %s20) -> (f64) {
      memref.store %k0p5_f64, %B[%c4] : memref<6xf64>
      %c2608_26 = arith.constant 2608 : index
      %w28 = arith.addf %v19, %k3p0_f64 : f64
      %k29 = arith.constant -0.75 : f64
      %w30 = arith.mulf %v19, %k29 : f64
      %w31 = arith.addf %w30, %k3p0_f64 : f64
      %vec27 = vector.from_elements %v19, %k2p0_f64, %v19, %w28, %w30, %w31 : vector<6xf64>
      vector.store %vec27, %A[%c2608_26] : memref<5087xf64, #layout.tag<"z -> z8z", pack = vector<8xf64>>>, vector<6xf64>
      %vec32 = affine.vector_load %B[%n mod 2] : memref<6xf64>, vector<2xf64>
      %e33 = vector.extract %vec32[0] : f64 from vector<2xf64>
      %s34 = arith.addf %a25, %e33 : f64
      scf.yield %s34 : f64
    }
    scf.yield %r24 : f64
  }
  %k35 = arith.constant 7.0 : f64
  affine.store %k35, %B[%n mod 2] : memref<6xf64>
  layout.assign %B to #layout.map<affine_map<(d0) -> (d0 mod 6, d0 floordiv 6)>> : memref<6xf64>
  layout.convert %alloc1 to %A : memref<5087xf64, #layout.map<affine_map<(d0) -> (d0)>>> to memref<5087xf64, #layout.tag<"z -> z8z", pack = vector<8xf64>>>
  memref.dealloc %alloc1 : memref<5087xf64, #layout.map<affine_map<(d0) -> (d0)>>>
  func.return %r17 : f64
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c5087 = arith.constant 5087 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c37 = arith.constant 37 : index
  %k0p25_f64 = arith.constant 0.25 : f64
  %k2p0_f64 = arith.constant 2.0 : f64
  %c6 = arith.constant 6 : index
  %c2 = arith.constant 2 : index
  %alloc1 = memref.alloc() : memref<5087xf64, #layout.tag<"z -> z8z", pack = vector<8xf64>>>
  scf.for %i2 = %c0 to %c5087 step %c1 {
    %s3 = arith.muli %i2, %c1 : index
    %l4 = arith.addi %c0, %s3 : index
    %x6 = arith.muli %l4, %c3 : index
    %x5 = arith.addi %x6, %c1 : index
    %x8 = arith.remui %x5, %c37 : index
    %x9 = arith.index_cast %x8 : index to i32
    %x10 = arith.sitofp %x9 : i32 to f64
    %x11 = arith.mulf %x10, %k0p25_f64 : f64
    %fv7 = arith.subf %x11, %k2p0_f64 : f64
    memref.store %fv7, %alloc1[%i2] : memref<5087xf64, #layout.tag<"z -> z8z", pack = vector<8xf64>>>
  }
  %alloc12 = memref.alloc() : memref<6xf64>
  scf.for %i13 = %c0 to %c6 step %c1 {
    %s14 = arith.muli %i13, %c1 : index
    %l15 = arith.addi %c0, %s14 : index
    %x17 = arith.muli %l15, %c3 : index
    %x16 = arith.addi %x17, %c2 : index
    %x19 = arith.remui %x16, %c37 : index
    %x20 = arith.index_cast %x19 : index to i32
    %x21 = arith.sitofp %x20 : i32 to f64
    %x22 = arith.mulf %x21, %k0p25_f64 : f64
    %fv18 = arith.subf %x22, %k2p0_f64 : f64
    memref.store %fv18, %alloc12[%i13] : memref<6xf64>
  }
  %r = func.call @kernel(%alloc1, %alloc12, %c3) : (memref<5087xf64, #layout.tag<"z -> z8z", pack = vector<8xf64>>>, memref<6xf64>, index) -> f64
  "vector.print"(%r) : (f64) -> ()
  scf.for %i23 = %c0 to %c5087 step %c1 {
    %s24 = arith.muli %i23, %c1 : index
    %l25 = arith.addi %c0, %s24 : index
    %p26 = memref.load %alloc1[%i23] : memref<5087xf64, #layout.tag<"z -> z8z", pack = vector<8xf64>>>
    "vector.print"(%p26) : (f64) -> ()
  }
  scf.for %i27 = %c0 to %c6 step %c1 {
    %s28 = arith.muli %i27, %c1 : index
    %l29 = arith.addi %c0, %s28 : index
    %p30 = memref.load %alloc12[%i27] : memref<6xf64>
    "vector.print"(%p30) : (f64) -> ()
  }
  memref.dealloc %alloc1 : memref<5087xf64, #layout.tag<"z -> z8z", pack = vector<8xf64>>>
  memref.dealloc %alloc12 : memref<6xf64>
  func.return
}
