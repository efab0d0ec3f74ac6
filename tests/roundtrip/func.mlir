// func, builtin and type syntax (mlir/test/IR/parser.mlir, Dialect/Func/ops.mlir).
module attributes {my.flag} {
  func.func private @external(memref<2 x 4 x f32>, i32) -> f32 attributes {llvm.emit_c_interface}
  func.func nested @nested_visibility() {
    return
  }
  func.func @args(%a: memref<2 x 4 x f32> {my.arg}, %b: i32) -> (f32 {my.res}) {
    %r = func.call @external(%a, %b) : (memref<2x4xf32>, i32) -> f32
    %r2 = call @external(%a, %b) : (memref<2 x 4 x f32>, i32) -> f32
    %u:2 = "test.unregistered"(%r) : (f32) -> (f32, i1)
    %cast = builtin.unrealized_conversion_cast %b : i32 to index
    return %r : f32
  }
  func.func @types(%a: memref<?x4xf32, 3>, %b: memref<*xf32>, %c: vector<[4]xf32>, %d: tensor<4x?xi8>, %e: complex<f32>, %f: memref<4xvector<2xf32>>, %g: memref<4xf32, strided<[?], offset: ?>>, %h: bf16, %i: f8E4M3FN, %j: i0, %k: memref<4x8xf32, affine_map<(d0, d1)[s0] -> (d1 + s0, d0)>>, %l: memref<0xf32>, %m: memref<f32>, %n: none, %o: index, %p: ui8, %q: si16) {
    return
  }
}
