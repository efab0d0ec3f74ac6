// gpu kernels and launches in upstream's custom syntax (mlir/test/Dialect/GPU/ops.mlir).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%A: memref<64xf32>, %s: f32) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %x = memref.load %A[%i] : memref<64xf32>
      %y = arith.mulf %x, %s : f32
      memref.store %y, %A[%i] : memref<64xf32>
      gpu.barrier
      gpu.return
    }
    gpu.func @helper(%x: f32) -> f32 {
      %gid = gpu.global_id y
      %lane = gpu.lane_id
      %gdim = gpu.grid_dim z
      gpu.return %x : f32
    }
    gpu.func @workgroup(%A: memref<64xf32>) workgroup(%w: memref<32xf32, #gpu.address_space<workgroup>>) private(%p: memref<4xf32, #gpu.address_space<private>>) kernel {
      gpu.return
    }
  }

  func.func @host(%A: memref<64xf32>, %s: f32) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@scale blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1) args(%A : memref<64xf32>, %s : f32)
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
      %b = arith.muli %bx, %sx : index
      %i = arith.addi %b, %tx : index
      %x = memref.load %A[%i] : memref<64xf32>
      %y = arith.mulf %x, %s : f32
      memref.store %y, %A[%i] : memref<64xf32>
      gpu.terminator
    }
    %d = gpu.alloc () : memref<64xf32>
    gpu.memcpy %d, %A : memref<64xf32>, memref<64xf32>
    gpu.dealloc %d : memref<64xf32>
    return
  }
}
