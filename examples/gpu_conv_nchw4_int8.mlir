// MegEngine's NCHW4 int8 convolution as a GPU kernel: activations and weights hold 4
// consecutive channels in one i32 word (x: 1x8x6x6 i8 in a 1x2x6x6 buffer of i32, weights
// OIHW4i: 8x8x3x3 i8 in 8x2x3x3 i32), the i32 accumulators are NCHW4 blocked. The kernel
// is written on logical indices; layout-lower turns each int8 load into a word load, a
// shift and a truncation. One thread per output element: block (oc, n), thread (ow, oh).
//   layout-run examples/gpu_conv_nchw4_int8.mlir --check     (threads run on the CPU)
//   layout-ptx examples/gpu_conv_nchw4_int8.mlir             (the kernel as PTX)
#x4 = #layout.tag<"NCHW->NCHW4c", pack = i32>
#w4 = #layout.tag<"OIHW->OIHW4i", pack = i32>
#y4 = #layout.tag<"NCHW->NCHW4c">
module attributes {gpu.container_module} {
  gpu.module @conv {
    gpu.func @conv3x3(%x: memref<1x8x6x6xi8, #x4>, %w: memref<8x8x3x3xi8, #w4>, %y: memref<1x8x4x4xi32, #y4>) kernel {
      %oc = gpu.block_id x
      %n = gpu.block_id y
      %ow = gpu.thread_id x
      %oh = gpu.thread_id y
      %zero = arith.constant 0 : i32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %acc = scf.for %ic = %c0 to %c8 step %c1 iter_args(%a0 = %zero) -> (i32) {
        %a1 = scf.for %kh = %c0 to %c3 step %c1 iter_args(%b0 = %a0) -> (i32) {
          %a2 = scf.for %kw = %c0 to %c3 step %c1 iter_args(%d0 = %b0) -> (i32) {
            %ih = arith.addi %oh, %kh : index
            %iw = arith.addi %ow, %kw : index
            %xv = memref.load %x[%n, %ic, %ih, %iw] : memref<1x8x6x6xi8, #x4>
            %wv = memref.load %w[%oc, %ic, %kh, %kw] : memref<8x8x3x3xi8, #w4>
            %xe = arith.extsi %xv : i8 to i32
            %we = arith.extsi %wv : i8 to i32
            %p = arith.muli %xe, %we : i32
            %s = arith.addi %d0, %p : i32
            scf.yield %s : i32
          }
          scf.yield %a2 : i32
        }
        scf.yield %a1 : i32
      }
      memref.store %acc, %y[%n, %oc, %oh, %ow] : memref<1x8x4x4xi32, #y4>
      gpu.return
    }
  }

  func.func @main(%x: memref<1x8x6x6xi8, #x4>, %w: memref<8x8x3x3xi8, #w4>, %y: memref<1x8x4x4xi32, #y4>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    gpu.launch_func @conv::@conv3x3 blocks in (%c8, %c1, %c1) threads in (%c4, %c4, %c1) args(%x : memref<1x8x6x6xi8, #x4>, %w : memref<8x8x3x3xi8, #w4>, %y : memref<1x8x4x4xi32, #y4>)
    func.return
  }
}
