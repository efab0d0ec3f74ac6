// A reorder NCHW -> nChw32c (f32, 2x40x3x5: channels padded to 64) as a GPU kernel whose
// threads enumerate the destination's memory order: thread x is the channel inside a
// 32-channel block (the destination's contiguous dim, so a warp writes 128 contiguous
// bytes), thread y the column, blocks the row, the channel block and the image. Threads
// on pad channels (c >= 40) write nothing: the pad slots keep the pad value the allocation
// gave them. On an H100 this mapping ran at 1.76x device-copy time where source order took
// 5.47x (issue 19).
//   layout-run examples/gpu_reorder_nchw32c.mlir --check     (threads run on the CPU)
//   layout-ptx examples/gpu_reorder_nchw32c.mlir             (the kernel as PTX)
#blocked = #layout.tag<"NCHW->nChw32c">
module attributes {gpu.container_module} {
  gpu.module @reorder {
    gpu.func @to_nchw32c(%src: memref<2x40x3x5xf32>, %dst: memref<2x40x3x5xf32, #blocked>) kernel {
      %h = gpu.block_id x
      %cb = gpu.block_id y
      %n = gpu.block_id z
      %ci = gpu.thread_id x
      %w = gpu.thread_id y
      %c32 = arith.constant 32 : index
      %c40 = arith.constant 40 : index
      %base = arith.muli %cb, %c32 : index
      %c = arith.addi %base, %ci : index
      %inside = arith.cmpi ult, %c, %c40 : index
      scf.if %inside {
        %v = memref.load %src[%n, %c, %h, %w] : memref<2x40x3x5xf32>
        memref.store %v, %dst[%n, %c, %h, %w] : memref<2x40x3x5xf32, #blocked>
      }
      gpu.return
    }
  }

  func.func @main(%src: memref<2x40x3x5xf32>, %dst: memref<2x40x3x5xf32, #blocked>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @reorder::@to_nchw32c blocks in (%c3, %c2, %c2) threads in (%c32, %c5, %c1) args(%src : memref<2x40x3x5xf32>, %dst : memref<2x40x3x5xf32, #blocked>)
    func.return
  }
}
