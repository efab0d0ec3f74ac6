// Malformed layout attributes: each is a parse error at its file:line:column.
// RUN: layout-opt %s --split-input-file --parsing-diagnostics | filecheck %s
// RUN: not layout-opt %s --split-input-file 2>&1 | filecheck %s --check-prefix=FIRST

// FIRST: layout-opt: error: {{.*}}invalid-attributes.mlir:[[# @LINE + 3]]:45: #layout.tag: tag 'NC->NC8x': letter 'x' does not name a logical dim of 'NC'
// FIRST-NOT: {{.}}
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:45
func.func @f(%a: memref<4x4xf32, #layout.tag<"NC->NC8x">>) {
  func.return
}
// CHECK: #layout.tag: tag 'NC->NC8x': letter 'x' does not name a logical dim of 'NC'

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:45
func.func @f(%a: memref<4x4xf32, #layout.tag<"NC->NC0c">>) {
  func.return
}
// CHECK: #layout.tag: tag 'NC->NC0c': block size 0 of 'c' must be positive

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:45
func.func @f(%a: memref<4x4xf32, #layout.tag<"nChw9q">>) {
  func.return
}
// CHECK: #layout.tag: unknown format 'nChw9q' (a tag without 'SRC->' must be a named oneDNN or MegEngine format); did you mean

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:58
func.func @f(%a: memref<4x4xf32, #layout.tag<"NC->NC8c", stride = 2>>) {
  func.return
}
// CHECK: #layout.tag: unknown parameter 'stride' (expected pad, pack, bit_order)

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:67
func.func @f(%a: memref<4x4xf32, #layout.tag<"NC->NC8c", pad = 1, pad = 2>>) {
  func.return
}
// CHECK: #layout.tag: parameter 'pad' is given twice

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:64
func.func @f(%a: memref<4x4xf32, #layout.tag<"NC->NC8c", pad = zero>>) {
  func.return
}
// CHECK: integer or float literal expected as the pad value

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:45
func.func @f(%a: memref<4x4xf32, #layout.tag<"NC->NC8c", bit_order = "msb">>) {
  func.return
}
// CHECK: #layout.tag: bit_order = "msb" needs a pack = <container>

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:80
func.func @f(%a: memref<4x8xi1, #layout.tag<"NC->NC8c", pack = i8, bit_order = "big">>) {
  func.return
}
// CHECK: #layout.tag: bit_order must be "lsb" or "msb", not 'big'

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:65
func.func @f(%a: memref<4x8xf32, #layout.tag<"NC->NC8c", pack = f32>>) {
  func.return
}
// CHECK: #layout.tag: pack = f32: expected an integer container iK or a vector container vector<LxT>

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:45
func.func @f(%a: memref<4x8xf32, #layout.tag<"NC->NC8c", pack = vector<8xf32>, bit_order = "msb">>) {
  func.return
}
// CHECK: #layout.tag: pack = vector<8xf32>: bit_order applies to integer containers only, a vector container has no bit order

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:49
func.func @f(%a: memref<4x4xf32, #layout.chunked<[0, 0, 1]>>) {
  func.return
}
// CHECK: #layout.chunked: chunked pairs [0, 0, 1]: expected (dim, size) pairs

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:55
func.func @f(%a: memref<1x9x10x40xi8, #layout.chunked<"R4CrotonLayout">>) {
  func.return
}
// CHECK: #layout.chunked: 'R4CrotonLayout': expected ChunkedMemoryLayout<rank, dim,size, …>, FlatMemoryLayout<rank> or an alias (did you mean 'R4CroutonLayout'?)

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:49
func.func @f(%a: memref<4x4xf32, #layout.chunked<[0, 0, 1, 8]>>) {
  func.return
}
// CHECK: #layout.chunked: chunked pairs [0, 0, 1, 8]: dim 1 does not appear without a size (every logical dim needs one term for the rest of it)

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:49
func.func @f(%a: memref<4x4xf32, #layout.chunked<[0, 0, 1, 0, 1, -2]>>) {
  func.return
}
// CHECK: #layout.chunked: chunked pairs [0, 0, 1, 0, 1, -2]: block size -2 of dim 1 must be positive (0 means the rest)

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:45
func.func @f(%a: memref<4x4xf32, #layout.map<affine_map<(d0, d1)[s0] -> (d0 + s0, d1)>>>) {
  func.return
}
// CHECK: #layout.map: layout maps take no symbols

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:57
func.func @f(%a: memref<4x4xf32, #layout.map<affine_map<(d0, d1) -> (d0 * d1)>>>) {
  func.return
}
// CHECK: func.func @f: memref<4x4xf32, #layout.map<affine_map<(d0, d1) -> (d0 * d1)>>>: the layout affine_map<(d0, d1) -> (d0 * d1)> is semi-affine (d0 * d1 multiplies two terms that are not constants)

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:46
func.func @f(%a: memref<4x4xf32, #layout.map<"(d0, d1) -> (d1, d0)">>) {
  func.return
}
// CHECK: #layout.map: expected affine_map<…>, got "(d0, d1) -> (d1, d0)"

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:45
func.func @f(%a: memref<4x4xf32, #layout.map<affine_map<(d0, d1) -> (d1, d0)>, shape = [4]>>) {
  func.return
}
// CHECK: #layout.map: shape = [4] has 1 extents but the map has 2 results

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:45
func.func @f(%a: memref<4x4xf32, #layout.map<affine_map<(d0, d1) -> (d1, d0)>, shape = [4, -1]>>) {
  func.return
}
// CHECK: #layout.map: physical extent -1 in shape = [...] must not be negative

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:51
func.func @f(%a: memref<4x4xf32, #layout.strided<[?, 1]>>) {
  func.return
}
// CHECK: '?' is not allowed in #layout.strided strides (strides and offset are static integers)

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:49
func.func @f(%a: memref<4x4xf32, #layout.strided<[], offset = 1>>) {
  func.return
}
// CHECK: #layout.strided: a strided layout needs at least one stride

// -----
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:47
func.func @f(%a: memref<4x4xf32, #layout.tiled<[4, 4]>>) {
  func.return
}
// CHECK: 'layout.tiled' is not registered

// -----
// The pad of a generic op's type, too, is parsed by the dialect.
// CHECK: invalid-attributes.mlir:[[# @LINE + 1]]:130
%m = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32, #layout.strided<[1], pad = 1, offset = 2, pad = 3>>
// CHECK: #layout.strided: parameter 'pad' is given twice
