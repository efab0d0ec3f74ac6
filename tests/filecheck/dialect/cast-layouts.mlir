// memref.cast may change static and dynamic extents, never the layout: a cast between two
// layouts that are not equivalent, from a layout to a plain memref or back, is a verification
// error naming the op and both layouts. Equivalent layouts (the same offsets on the cast's
// shape), `?` <-> static, and casts to unranked memrefs (printMemref*) are accepted: see
// passes/layout-lower/cast-equivalent.mlir.
// RUN: layout-opt %s --split-input-file --verify-diagnostics | filecheck %s
// RUN: not layout-opt %s --split-input-file -p layout-lower 2>&1 | filecheck %s --check-prefix=LOWER

// CHECK: memref.cast from memref<4x8xf32, #layout.tag<"RC->CR">> to memref<4x8xf32> changes the layout (#layout.tag<"RC->CR"> to no layout): a cast may change static and dynamic extents, never the layout; use layout.convert into a new buffer
// LOWER: changes the layout (#layout.tag<"RC->CR"> to no layout)
func.func @to_plain(%a: memref<4x8xf32, #layout.tag<"RC->CR">>) {
  %p = "memref.cast"(%a) : (memref<4x8xf32, #layout.tag<"RC->CR">>) -> memref<4x8xf32>
  func.return
}

// -----
// CHECK: memref.cast from memref<4x8xf32> to memref<4x8xf32, #layout.tag<"RC->RC4c">> changes the layout (no layout to #layout.tag<"RC->RC4c">)
func.func @from_plain(%a: memref<4x8xf32>) {
  %p = "memref.cast"(%a) : (memref<4x8xf32>) -> memref<4x8xf32, #layout.tag<"RC->RC4c">>
  func.return
}

// -----
// CHECK: memref.cast from memref<4x8xf32, #layout.tag<"RC->CR">> to memref<?x8xf32, #layout.tag<"RC->RC4c">> changes the layout (#layout.tag<"RC->CR"> to #layout.tag<"RC->RC4c">)
func.func @between(%a: memref<4x8xf32, #layout.tag<"RC->CR">>) {
  %p = "memref.cast"(%a) : (memref<4x8xf32, #layout.tag<"RC->CR">>) -> memref<?x8xf32, #layout.tag<"RC->RC4c">>
  func.return
}

// -----
// The same map, another pad: the pad slots would read differently.
// CHECK: memref.cast from memref<3xf32, #layout.tag<"W->W4w">> to memref<3xf32, #layout.tag<"W->W4w", pad = 1.0>> changes the layout
func.func @pad(%a: memref<3xf32, #layout.tag<"W->W4w">>) {
  %p = "memref.cast"(%a) : (memref<3xf32, #layout.tag<"W->W4w">>) -> memref<3xf32, #layout.tag<"W->W4w", pad = 1.0>>
  func.return
}

// -----
// A builtin strided layout is a layout too.
// CHECK: memref.cast from memref<4x8xf32, strided<[1, 4]>> to memref<4x8xf32> changes the layout (strided<[1, 4]> to no layout)
func.func @strided(%a: memref<4x8xf32, strided<[1, 4]>>) {
  %p = "memref.cast"(%a) : (memref<4x8xf32, strided<[1, 4]>>) -> memref<4x8xf32>
  func.return
}

// -----
// One map, but the cast changes a physical extent: `d0 mod 4` spans 3 slots on a dim of 3
// and 4 on a `?` dim, so the physical buffers differ (memref<1x3xf32> is not memref<?x4xf32>).
// CHECK: memref.cast from memref<3xf32, #layout.map<affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>>> to memref<?xf32, #layout.map<affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>>> changes physical extent 1 of #layout.map<affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>> from 3 to 4: the layout bounds that extent over every size of a '?' dim, so the cast would reinterpret the buffer; keep those dims static in the cast, or use layout.convert into a new buffer
func.func @bound_extent(%a: memref<3xf32, #layout.map<affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>>>) {
  %p = "memref.cast"(%a) : (memref<3xf32, #layout.map<affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>>>) -> memref<?xf32, #layout.map<affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>>>
  func.return
}
