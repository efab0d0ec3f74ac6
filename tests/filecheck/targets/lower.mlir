// layout-lower on the target layouts: TPU local memory (lane, offset) indexing, a matrix
// layout, the 4N mode packed into i32 words, and FPGA partitions (bank dims first).
// RUN: layout-opt %s -p layout-lower -o %t
// RUN: filecheck %s --input-file %t
// RUN: filecheck %s --input-file %t --check-prefix=NONE
// NONE-NOT: {{#layout|layout\.}}

// The seed's (2, 5, 3, 4) fp32 tensor at NPU 0 with W/H/C/N strides 2/16/56/120:
// lane c mod 4, offset n·120 + (c floordiv 4)·56 + h·16 + w·2, in a 4x240 buffer.
// CHECK-LABEL: func.func @tpu_strides(%A: memref<4x240xf32>, %n: index, %c: index, %h: index, %w: index) -> f32 {
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[LANE:.*]] = arith.remui %c, %[[C4]] : index
// CHECK-DAG:     %[[ROW:.*]] = arith.divui %c, %[[C4]] : index
// CHECK-DAG:     %[[C120:.*]] = arith.constant 120 : index
// CHECK-DAG:     arith.muli %n, %[[C120]] : index
// CHECK-DAG:     %[[C56:.*]] = arith.constant 56 : index
// CHECK-DAG:     arith.muli %[[ROW]], %[[C56]] : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     arith.muli %h, %[[C16]] : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     arith.muli %w, %[[C2]] : index
// CHECK:         memref.load %A[%[[LANE]], %{{.*}}] : memref<4x240xf32>
func.func @tpu_strides(%A: memref<2x5x3x4xf32, #layout.tpu<lanes = 4, start = 0, stride = [120, 56, 16, 2]>>,
                       %n: index, %c: index, %h: index, %w: index) -> f32 {
  %x = memref.load %A[%n, %c, %h, %w] : memref<2x5x3x4xf32, #layout.tpu<lanes = 4, start = 0, stride = [120, 56, 16, 2]>>
  func.return %x : f32
}

// Aligned from NPU 2 on (2, 3, 4, 5): lane (c + 2) mod 4; C stride 32, N stride 64.
// CHECK-LABEL: func.func @tpu_aligned(%A: memref<4x128xf32>, %n: index, %c: index, %v: f32) {
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[SHIFT:.*]] = arith.addi %c, %[[C2]] : index
// CHECK-DAG:     %[[LANE:.*]] = arith.remui %[[SHIFT]], %[[C4]] : index
// CHECK-DAG:     %[[ROW:.*]] = arith.divui %[[SHIFT]], %[[C4]] : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:     arith.muli %[[ROW]], %[[C32]] : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:     arith.muli %n, %[[C64]] : index
// CHECK:         memref.store %v, %A[%[[LANE]], %{{.*}}] : memref<4x128xf32>
func.func @tpu_aligned(%A: memref<2x3x4x5xf32, #layout.tpu<lanes = 4, start = 2, stride = aligned>>,
                       %n: index, %c: index, %v: f32) {
  %c0 = arith.constant 0 : index
  memref.store %v, %A[%n, %c, %c0, %c0] : memref<2x3x4x5xf32, #layout.tpu<lanes = 4, start = 2, stride = aligned>>
  func.return
}

// The 2x40 matrix with W = 15: lane m floordiv 15, offset r·32 + m mod 15.
// CHECK-LABEL: func.func @tpu_matrix(%A: memref<4x64xf32>, %r: index, %m: index) -> f32 {
// CHECK-DAG:     %[[C15:.*]] = arith.constant 15 : index
// CHECK-DAG:     %[[LANE:.*]] = arith.divui %m, %[[C15]] : index
// CHECK-DAG:     arith.remui %m, %[[C15]] : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:     arith.muli %r, %[[C32]] : index
// CHECK:         memref.load %A[%[[LANE]], %{{.*}}] : memref<4x64xf32>
func.func @tpu_matrix(%A: memref<2x40xf32, #layout.tpu<lanes = 4, matrix = 15>>, %r: index, %m: index) -> f32 {
  %x = memref.load %A[%r, %m] : memref<2x40xf32, #layout.tpu<lanes = 4, matrix = 15>>
  func.return %x : f32
}

// 4N, packed: (6, 5, 4, 5) i8 in a 4x128 buffer of i32 words; n mod 4 picks the byte.
// CHECK-LABEL: func.func @tpu_4n(%A: memref<4x128xi32>, %n: index) -> i8 {
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[WORD:.*]] = arith.divui %n, %[[C4]] : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:     arith.muli %[[WORD]], %[[C64]] : index
// CHECK:         %[[W:.*]] = memref.load %A[%{{.*}}, %{{.*}}] : memref<4x128xi32>
// CHECK-DAG:     %[[BYTE:.*]] = arith.remui %n, %[[C4]] : index
// CHECK-DAG:     arith.muli %[[BYTE]], %{{.*}} : index
// CHECK:         %[[S:.*]] = arith.shrui %[[W]], %{{.*}} : i32
// CHECK-NEXT:    %{{.*}} = arith.trunci %[[S]] : i32 to i8
func.func @tpu_4n(%A: memref<6x5x4x5xi8, #layout.tpu<lanes = 4, mode = "4N", pack = i32>>, %n: index) -> i8 {
  %c1 = arith.constant 1 : index
  %x = memref.load %A[%n, %c1, %c1, %c1] : memref<6x5x4x5xi8, #layout.tpu<lanes = 4, mode = "4N", pack = i32>>
  func.return %x : i8
}

// cyclic 2 on dim 0, block 4 on dim 1 of 6x8: (i mod 2, j floordiv 2, i floordiv 2, j mod 2).
// CHECK-LABEL: func.func @partition(%A: memref<2x4x3x2xi32>, %i: index, %j: index) -> i32 {
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[B0:.*]] = arith.remui %i, %[[C2]] : index
// CHECK-DAG:     %[[B1:.*]] = arith.divui %j, %[[C2]] : index
// CHECK-DAG:     %[[I0:.*]] = arith.divui %i, %[[C2]] : index
// CHECK-DAG:     %[[I1:.*]] = arith.remui %j, %[[C2]] : index
// CHECK:         memref.load %A[%[[B0]], %[[B1]], %[[I0]], %[[I1]]] : memref<2x4x3x2xi32>
func.func @partition(%A: memref<6x8xi32, #layout.partition<[cyclic, block], dims = [0, 1], factor = [2, 4]>>,
                     %i: index, %j: index) -> i32 {
  %x = memref.load %A[%i, %j] : memref<6x8xi32, #layout.partition<[cyclic, block], dims = [0, 1], factor = [2, 4]>>
  func.return %x : i32
}

// complete on dim 1: the bank is j, the index in the bank (i, 0); the `?` dim stays dynamic.
// CHECK-LABEL: func.func @complete(%A: memref<4x?x1xf32>, %i: index, %j: index) -> f32 {
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %x = memref.load %A[%j, %i, %[[C0]]] : memref<4x?x1xf32>
func.func @complete(%A: memref<?x4xf32, #layout.partition<complete, dims = [1]>>, %i: index, %j: index) -> f32 {
  %x = memref.load %A[%i, %j] : memref<?x4xf32, #layout.partition<complete, dims = [1]>>
  func.return %x : f32
}
