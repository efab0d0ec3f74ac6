// fuzz case schedule-strided-view-run-time-offset (seed 570944, element i32)
// fuzz seed 570944 (plain-schedule/native): layout-schedule took a subview with a run-time offset and an innermost stride of 2 for a row-major buffer and vectorized along it; mlir-opt-22 refused the vector.load (most minor memref dim must have unit stride). The strides of the type decide now (vectorization.buffer_layout)
// native
// site: @kernel type memref<10x3x6xi32, #layout.strided<[42, 3, 7], offset = 3>>
// site: @kernel assign memref<10x1x2xi32, #layout.chunked<[0, 5, 2, 0, 1, 0, 0, 0]>>
// site: @main type memref<10x1x6xi32, #layout.strided<[11, 111, 2], offset = 4>>
"memref.global"() <{sym_name = "g0", sym_visibility = "private", type = memref<10x1x6xi32>, initial_value = dense<[[[2, 5, 8, 11, 14, 17]], [[20, 23, 26, 29, 32, 35]], [[38, 41, 44, 47, 50, 53]], [[56, 59, 62, 65, 68, 71]], [[74, 77, 80, 83, 86, 89]], [[92, 95, 98, 101, 104, 107]], [[110, 113, 116, 119, 122, 125]], [[128, 131, 134, 137, 140, 143]], [[146, 149, 152, 155, 158, 161]], [[164, 167, 170, 173, 176, 179]]]> : tensor<10x1x6xi32>}> : () -> ()
func.func @kernel(%A: memref<10x1x6xi32>, %B: memref<10x1x6xi32>, %n: index) -> i32 {
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %km3_i32 = arith.constant -3 : i32
  %c7 = arith.constant 7 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %acc = arith.constant 0 : i32
  %x1 = arith.remui %n, %c1 : index
  %x2 = arith.remui %n, %c5 : index
  %alloc3 = memref.alloc() : memref<10x1x3xi32>
  linalg.fill ins(%km3_i32 : i32) outs(%alloc3 : memref<10x1x3xi32>)
  %alloc4 = memref.alloc() : memref<10x3x6xi32, #layout.strided<[42, 3, 7], offset = 3>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%alloc4 : memref<10x3x6xi32, #layout.strided<[42, 3, 7], offset = 3>>) {
  ^bb0(%out5: i32):
    %li6 = linalg.index 0 : index
    %ls7 = arith.muli %li6, %c7 : index
    %la8 = arith.addi %c1, %ls7 : index
    %li9 = linalg.index 1 : index
    %ls10 = arith.muli %li9, %c5 : index
    %la11 = arith.addi %la8, %ls10 : index
    %li12 = linalg.index 2 : index
    %ls13 = arith.muli %li12, %c7 : index
    %la14 = arith.addi %la11, %ls13 : index
    %iv15 = arith.index_cast %la14 : index to i32
    linalg.yield %iv15 : i32
  }
  linalg.batch_matmul ins(%alloc3, %alloc4 : memref<10x1x3xi32>, memref<10x3x6xi32, #layout.strided<[42, 3, 7], offset = 3>>) outs(%B : memref<10x1x6xi32>)
  memref.dealloc %alloc3 : memref<10x1x3xi32>
  memref.dealloc %alloc4 : memref<10x3x6xi32, #layout.strided<[42, 3, 7], offset = 3>>
  %p16 = arith.cmpi slt, %n, %c1 : index
  scf.if %p16 {
    %c5_19 = arith.constant 5 : index
    %x18 = arith.remui %n, %c5_19 : index
    %x20 = arith.ceildivsi %x1, %c2 : index
    %v21 = memref.load %B[%x18, %x1, %x20] : memref<10x1x6xi32>
  }
  %alloc22 = memref.alloc() : memref<10x1x2xi32>
  layout.assign %alloc22 to #layout.chunked<[0, 5, 2, 0, 1, 0, 0, 0]> : memref<10x1x2xi32>
  %sv23 = memref.subview %A[0, %x1, %x1] [10, 1, 2] [1, 1, 2] : memref<10x1x6xi32> to memref<10x1x2xi32, strided<[6, 6, 2], offset: ?>>
  linalg.copy ins(%sv23 : memref<10x1x2xi32, strided<[6, 6, 2], offset: ?>>) outs(%alloc22 : memref<10x1x2xi32>)
  %alloc24 = memref.alloc() : memref<10x2x6xi32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%alloc24 : memref<10x2x6xi32>) {
  ^bb0(%out25: i32):
    %li26 = linalg.index 0 : index
    %ls27 = arith.muli %li26, %c2 : index
    %la28 = arith.addi %c1, %ls27 : index
    %li29 = linalg.index 1 : index
    %ls30 = arith.muli %li29, %c5 : index
    %la31 = arith.addi %la28, %ls30 : index
    %li32 = linalg.index 2 : index
    %ls33 = arith.muli %li32, %c6 : index
    %la34 = arith.addi %la31, %ls33 : index
    %iv35 = arith.index_cast %la34 : index to i32
    linalg.yield %iv35 : i32
  }
  linalg.batch_matmul ins(%alloc22, %alloc24 : memref<10x1x2xi32>, memref<10x2x6xi32>) outs(%A : memref<10x1x6xi32>)
  memref.dealloc %alloc22 : memref<10x1x2xi32>
  memref.dealloc %alloc24 : memref<10x2x6xi32>
  func.return %acc : i32
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c10 = arith.constant 10 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c3 = arith.constant 3 : index
  %c11 = arith.constant 11 : index
  %alloc1 = memref.alloc() : memref<10x1x6xi32, #layout.strided<[11, 111, 2], offset = 4>>
  scf.for %i2 = %c0 to %c10 step %c1 {
    scf.for %i3 = %c0 to %c1 step %c1 {
      scf.for %i4 = %c0 to %c6 step %c1 {
        %s5 = arith.muli %i2, %c6 : index
        %l6 = arith.addi %c0, %s5 : index
        %s7 = arith.muli %i3, %c6 : index
        %l8 = arith.addi %l6, %s7 : index
        %s9 = arith.muli %i4, %c1 : index
        %l10 = arith.addi %l8, %s9 : index
        %x12 = arith.muli %l10, %c3 : index
        %x11 = arith.addi %x12, %c1 : index
        %fv13 = arith.index_cast %x11 : index to i32
        memref.store %fv13, %alloc1[%i2, %i3, %i4] : memref<10x1x6xi32, #layout.strided<[11, 111, 2], offset = 4>>
      }
    }
  }
  %g = memref.get_global @g0 : memref<10x1x6xi32>
  %alloc14 = memref.alloc() : memref<10x1x6xi32>
  layout.convert %alloc1 to %alloc14 : memref<10x1x6xi32, #layout.strided<[11, 111, 2], offset = 4>> to memref<10x1x6xi32>
  %r = func.call @kernel(%alloc14, %g, %c11) : (memref<10x1x6xi32>, memref<10x1x6xi32>, index) -> i32
  layout.convert %alloc14 to %alloc1 : memref<10x1x6xi32> to memref<10x1x6xi32, #layout.strided<[11, 111, 2], offset = 4>>
  memref.dealloc %alloc14 : memref<10x1x6xi32>
  "vector.print"(%r) : (i32) -> ()
  scf.for %i15 = %c0 to %c10 step %c1 {
    scf.for %i16 = %c0 to %c1 step %c1 {
      scf.for %i17 = %c0 to %c6 step %c1 {
        %s18 = arith.muli %i15, %c6 : index
        %l19 = arith.addi %c0, %s18 : index
        %s20 = arith.muli %i16, %c6 : index
        %l21 = arith.addi %l19, %s20 : index
        %s22 = arith.muli %i17, %c1 : index
        %l23 = arith.addi %l21, %s22 : index
        %p24 = memref.load %alloc1[%i15, %i16, %i17] : memref<10x1x6xi32, #layout.strided<[11, 111, 2], offset = 4>>
        "vector.print"(%p24) : (i32) -> ()
      }
    }
  }
  scf.for %i25 = %c0 to %c10 step %c1 {
    scf.for %i26 = %c0 to %c1 step %c1 {
      scf.for %i27 = %c0 to %c6 step %c1 {
        %s28 = arith.muli %i25, %c6 : index
        %l29 = arith.addi %c0, %s28 : index
        %s30 = arith.muli %i26, %c6 : index
        %l31 = arith.addi %l29, %s30 : index
        %s32 = arith.muli %i27, %c1 : index
        %l33 = arith.addi %l31, %s32 : index
        %p34 = memref.load %g[%i25, %i26, %i27] : memref<10x1x6xi32>
        "vector.print"(%p34) : (i32) -> ()
      }
    }
  }
  memref.dealloc %alloc1 : memref<10x1x6xi32, #layout.strided<[11, 111, 2], offset = 4>>
  func.return
}
