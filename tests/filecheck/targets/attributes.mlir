// Round trip of #layout.tpu and #layout.partition in memref types: every parameter, any
// order in, canonical order out; through layout-opt, plain xdsl-opt (the xdsl.universe entry
// point) and the generic form.
// RUN: layout-opt %s | layout-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// CHECK-LABEL: func.func @tpu(
// CHECK-SAME:    %a: memref<2x3x4x5xf32, #layout.tpu<lanes = 4, start = 2, stride = aligned>>
// CHECK-SAME:    %b: memref<2x5x3x4xf32, #layout.tpu<lanes = 4, start = 0, stride = [120, 56, 16, 2], pad = 1.5>>
// CHECK-SAME:    %c: memref<1x2x3x4xf32, #layout.tpu<lanes = 4, start = 3, stride = compact, lmem = 1024, address = 3088>>
// CHECK-SAME:    %d: memref<2x40xf32, #layout.tpu<lanes = 4, start = 0, stride = aligned, matrix = 15>>
// CHECK-SAME:    %e: memref<6x5x4x5xi8, #layout.tpu<lanes = 4, start = 0, stride = aligned, mode = "4N", pack = i32>>
// CHECK-SAME:    %f: memref<3x5x2x2xf32, #layout.tpu<lanes = 4, start = 1, stride = compact, mode = "2IC", pack = vector<2xf32>>>
func.func @tpu(%a: memref<2x3x4x5xf32, #layout.tpu<lanes = 4, start = 2, stride = aligned>>,
               %b: memref<2x5x3x4xf32, #layout.tpu<stride = [120, 56, 16, 2], lanes = 4, pad = 1.5>>,
               %c: memref<1x2x3x4xf32, #layout.tpu<lanes = 4, lmem = 1024, address = 3088, stride = compact>>,
               %d: memref<2x40xf32, #layout.tpu<lanes = 4, matrix = 15>>,
               %e: memref<6x5x4x5xi8, #layout.tpu<lanes = 4, mode = "4N", pack = i32>>,
               %f: memref<3x5x2x2xf32, #layout.tpu<mode = "2IC", lanes = 4, start = 1, stride = compact, pack = vector<2xf32>>>) {
  func.return
}

// CHECK-LABEL: func.func @partition(
// CHECK-SAME:    %a: memref<10xi32, #layout.partition<cyclic, dims = [0], factor = 4>>
// CHECK-SAME:    %b: memref<6x8xf32, #layout.partition<[cyclic, block], dims = [0, 1], factor = [2, 4]>>
// CHECK-SAME:    %c: memref<6x8xf32, #layout.partition<cyclic, dims = [0, 1], factor = 2>>
// CHECK-SAME:    %d: memref<3x4xi8, #layout.partition<complete, dims = [1], pad = 3>>
// CHECK-SAME:    %e: memref<4x3xi32, #layout.partition<[complete, cyclic], dims = [1, 0], factor = [3, 2]>>
// CHECK-SAME:    %f: memref<?x6xf32, #layout.partition<block, dims = [1], factor = 3>>
func.func @partition(%a: memref<10xi32, #layout.partition<cyclic, dims = [0], factor = 4>>,
                     %b: memref<6x8xf32, #layout.partition<[cyclic, block], dims = [0, 1], factor = [2, 4]>>,
                     %c: memref<6x8xf32, #layout.partition<[cyclic, cyclic], dims = [0, 1], factor = [2, 2]>>,
                     %d: memref<3x4xi8, #layout.partition<complete, dims = [1], pad = 3 : i8>>,
                     %e: memref<4x3xi32, #layout.partition<[complete, cyclic], dims = [1, 0], factor = [3, 2]>>,
                     %f: memref<?x6xf32, #layout.partition<block, dims = [1], factor = 3>>) {
  func.return
}

// CHECK-LABEL: func.func @ops(
// CHECK:         %m = memref.alloc() : memref<2x3x4x5xf32, #layout.tpu<lanes = 4, start = 2, stride = aligned>>
// CHECK-NEXT:    layout.convert %a to %m : memref<2x3x4x5xf32> to memref<2x3x4x5xf32, #layout.tpu<lanes = 4, start = 2, stride = aligned>>
// CHECK-NEXT:    layout.assign %b to #layout.partition<cyclic, dims = [0, 1], factor = 2> : memref<6x8xf32>
func.func @ops(%a: memref<2x3x4x5xf32>, %b: memref<6x8xf32>) {
  %m = memref.alloc() : memref<2x3x4x5xf32, #layout.tpu<lanes = 4, start = 2>>
  layout.convert %a to %m : memref<2x3x4x5xf32> to memref<2x3x4x5xf32, #layout.tpu<lanes = 4, start = 2>>
  layout.assign %b to #layout.partition<cyclic, dims = [0, 1], factor = 2> : memref<6x8xf32>
  func.return
}
