// vector ops in upstream's custom syntax (mlir/test/Dialect/Vector/ops.mlir).
#map_row = affine_map<(d0, d1) -> (d1)>
#map_2d = affine_map<(d0, d1) -> (d0, d1)>
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>

func.func @values(%a: f32, %b: f32, %v: vector<4xf32>, %w: vector<2x4xf32>, %i: index) -> vector<4xf32> {
  %0 = vector.broadcast %a : f32 to vector<4xf32>
  %1 = vector.broadcast %v : vector<4xf32> to vector<2x4xf32>
  %2 = vector.from_elements %a, %b, %a, %b : vector<4xf32>
  %3 = vector.extract %v[2] : f32 from vector<4xf32>
  %4 = vector.extract %w[1] : vector<4xf32> from vector<2x4xf32>
  %5 = vector.extract %w[%i, 3] : f32 from vector<2x4xf32>
  %6 = vector.insert %a, %v [1] : f32 into vector<4xf32>
  %7 = vector.insert %v, %w [0] : vector<4xf32> into vector<2x4xf32>
  %8 = vector.fma %v, %0, %2 : vector<4xf32>
  %9 = vector.shuffle %v, %6 [0, 5, 2, 7] : vector<4xf32>, vector<4xf32>
  %10 = vector.reduction <add>, %v : vector<4xf32> into f32
  %11 = vector.reduction <maximumf>, %v, %a : vector<4xf32> into f32
  %12 = vector.multi_reduction <add>, %w, %v [0] : vector<2x4xf32> to vector<4xf32>
  %13 = vector.multi_reduction <mul>, %w, %a [0, 1] : vector<2x4xf32> to f32
  %14 = vector.shape_cast %w : vector<2x4xf32> to vector<8xf32>
  %15 = vector.transpose %w, [1, 0] : vector<2x4xf32> to vector<4x2xf32>
  %16 = vector.extract_strided_slice %v {offsets = [1], sizes = [2], strides = [1]} : vector<4xf32> to vector<2xf32>
  %17 = vector.insert_strided_slice %16, %v {offsets = [2], strides = [1]} : vector<2xf32> into vector<4xf32>
  %18 = vector.bitcast %v : vector<4xf32> to vector<4xi32>
  %19 = vector.step : vector<4xindex>
  %c3 = arith.constant 3 : index
  %20 = vector.create_mask %c3 : vector<4xi1>
  %21 = vector.constant_mask [2] : vector<4xi1>
  %22 = arith.select %20, %17, %8 : vector<4xi1>, vector<4xf32>
  %23 = vector.outerproduct %v, %v : vector<4xf32>, vector<4xf32>
  vector.print %10 : f32
  vector.print %22 : vector<4xf32>
  vector.print str "done\n"
  return %22 : vector<4xf32>
}

func.func @contract(%a: vector<2x3xf32>, %b: vector<3x4xf32>, %c: vector<2x4xf32>) -> vector<2x4xf32> {
  %r = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  return %r : vector<2x4xf32>
}

func.func @dot(%a: vector<3xf32>, %b: vector<3xf32>, %c: f32) -> f32 {
  %d = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<3xf32>, vector<3xf32> into f32
  return %d : f32
}

func.func @memory(%A: memref<8x16xf32>, %i: index, %j: index, %pad: f32, %m: vector<4xi1>) {
  %0 = vector.load %A[%i, %j] : memref<8x16xf32>, vector<4xf32>
  vector.store %0, %A[%j, %i] : memref<8x16xf32>, vector<4xf32>
  %1 = vector.transfer_read %A[%i, %j], %pad : memref<8x16xf32>, vector<4xf32>
  %2 = vector.transfer_read %A[%i, %j], %pad {in_bounds = [true]} : memref<8x16xf32>, vector<4xf32>
  %3 = vector.transfer_read %A[%i, %j], %pad {permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<8x16xf32>, vector<4xf32>
  %4 = vector.transfer_read %A[%i, %j], %pad, %m : memref<8x16xf32>, vector<4xf32>
  %5 = vector.transfer_read %A[%i, %j], %pad {in_bounds = [false, true]} : memref<8x16xf32>, vector<2x4xf32>
  vector.transfer_write %1, %A[%i, %j] : vector<4xf32>, memref<8x16xf32>
  vector.transfer_write %2, %A[%i, %j] {in_bounds = [true]} : vector<4xf32>, memref<8x16xf32>
  vector.transfer_write %3, %A[%i, %j] {permutation_map = affine_map<(d0, d1) -> (d0)>} : vector<4xf32>, memref<8x16xf32>
  vector.transfer_write %4, %A[%i, %j], %m : vector<4xf32>, memref<8x16xf32>
  %6 = vector.maskedload %A[%i, %j], %m, %0 : memref<8x16xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  vector.maskedstore %A[%i, %j], %m, %6 : memref<8x16xf32>, vector<4xi1>, vector<4xf32>
  return
}
