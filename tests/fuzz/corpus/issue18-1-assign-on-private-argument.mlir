// fuzz case issue18-1-assign-on-private-argument (seed 20007, element f32)
// issue 18 #1: layout.assign on a private function's argument (python -m benchmarks.fuzz --replay 20007)
// site: @helper assign memref<7xf32, #layout.chunked<[0, 4, 0, 1, 0, 0, 0, 3], pack = vector<3xf32>>>
// site: @kernel assign memref<10xf32, #layout.chunked<"ChunkedMemoryLayout<1, 0,0, 0,7>">>
func.func private @kernel(%A: memref<7xf32>, %B: memref<10xf32>, %n: index) -> f32 {
  %c5 = arith.constant 5 : index
  layout.assign %B to #layout.chunked<"ChunkedMemoryLayout<1, 0,0, 0,7>"> : memref<10xf32>
  %acc = arith.constant 0.0 : f32
  %x1 = arith.remui %n, %c5 : index
  %c8_3 = arith.constant 8 : index
  %x2 = arith.remui %n, %c8_3 : index
  %v4 = affine.load %B[%x1 mod 10] : memref<10xf32>
  %s5 = arith.addf %acc, %v4 : f32
  %x6 = affine.apply affine_map<(d0) -> (d0 ceildiv 4)>(%x1)
  %vec7 = vector.broadcast %v4 : f32 to vector<1xf32>
  vector.store %vec7, %A[%x6] : memref<7xf32>, vector<1xf32>
  %h8 = func.call @helper(%A, %x6) : (memref<7xf32>, index) -> f32
  %s9 = arith.addf %s5, %h8 : f32
  func.return %s9 : f32
}
func.func @helper(%X: memref<7xf32>, %n: index) -> f32 {
  %c3 = arith.constant 3 : index
  %c2 = arith.constant 2 : index
  layout.assign %X to #layout.chunked<[0, 4, 0, 1, 0, 0, 0, 3], pack = vector<3xf32>> : memref<7xf32>
  %acc = arith.constant 0.0 : f32
  %x1 = arith.remui %n, %c3 : index
  %v2 = affine.load %X[1] : memref<7xf32>
  %s3 = arith.addf %acc, %v2 : f32
  %x4 = arith.divui %x1, %c2 : index
  %v5 = memref.load %X[%x4] : memref<7xf32>
  %s6 = arith.addf %s3, %v5 : f32
  func.return %s6 : f32
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c37 = arith.constant 37 : index
  %k0p25_f32 = arith.constant 0.25 : f32
  %k2p0_f32 = arith.constant 2.0 : f32
  %c10 = arith.constant 10 : index
  %c2 = arith.constant 2 : index
  %alloc1 = memref.alloc() : memref<7xf32>
  scf.for %i2 = %c0 to %c7 step %c1 {
    %s3 = arith.muli %i2, %c1 : index
    %l4 = arith.addi %c0, %s3 : index
    %x6 = arith.muli %l4, %c3 : index
    %x5 = arith.addi %x6, %c1 : index
    %x8 = arith.remui %x5, %c37 : index
    %x9 = arith.index_cast %x8 : index to i32
    %x10 = arith.sitofp %x9 : i32 to f32
    %x11 = arith.mulf %x10, %k0p25_f32 : f32
    %fv7 = arith.subf %x11, %k2p0_f32 : f32
    memref.store %fv7, %alloc1[%i2] : memref<7xf32>
  }
  %alloc12 = memref.alloc() : memref<10xf32>
  scf.for %i13 = %c0 to %c10 step %c1 {
    %s14 = arith.muli %i13, %c1 : index
    %l15 = arith.addi %c0, %s14 : index
    %x17 = arith.muli %l15, %c3 : index
    %x16 = arith.addi %x17, %c2 : index
    %x19 = arith.remui %x16, %c37 : index
    %x20 = arith.index_cast %x19 : index to i32
    %x21 = arith.sitofp %x20 : i32 to f32
    %x22 = arith.mulf %x21, %k0p25_f32 : f32
    %fv18 = arith.subf %x22, %k2p0_f32 : f32
    memref.store %fv18, %alloc12[%i13] : memref<10xf32>
  }
  %r = func.call @kernel(%alloc1, %alloc12, %c10) : (memref<7xf32>, memref<10xf32>, index) -> f32
  "vector.print"(%r) : (f32) -> ()
  scf.for %i23 = %c0 to %c7 step %c1 {
    %s24 = arith.muli %i23, %c1 : index
    %l25 = arith.addi %c0, %s24 : index
    %p26 = memref.load %alloc1[%i23] : memref<7xf32>
    "vector.print"(%p26) : (f32) -> ()
  }
  scf.for %i27 = %c0 to %c10 step %c1 {
    %s28 = arith.muli %i27, %c1 : index
    %l29 = arith.addi %c0, %s28 : index
    %p30 = memref.load %alloc12[%i27] : memref<10xf32>
    "vector.print"(%p30) : (f32) -> ()
  }
  memref.dealloc %alloc1 : memref<7xf32>
  memref.dealloc %alloc12 : memref<10xf32>
  func.return
}
