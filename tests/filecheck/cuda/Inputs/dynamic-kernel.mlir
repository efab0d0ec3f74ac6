module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%A: memref<?xf32>) kernel {
      gpu.return
    }
  }
}
