// arith and math ops in upstream's custom syntax (mlir/test/Dialect/Arith/ops.mlir,
// Math/ops.mlir).
func.func @integers(%a: i32, %b: i32, %i: index, %v: vector<4xi32>) -> i32 {
  %c = arith.constant 42 : i32
  %t = arith.constant true
  %d = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
  %0 = arith.addi %a, %b : i32
  %1 = arith.addi %0, %c overflow<nsw, nuw> : i32
  %2 = arith.subi %1, %b : i32
  %3 = arith.muli %2, %a : i32
  %4 = arith.divsi %3, %b : i32
  %5 = arith.divui %4, %b : i32
  %6 = arith.remsi %5, %b : i32
  %7 = arith.remui %6, %b : i32
  %8 = arith.floordivsi %7, %b : i32
  %9 = arith.ceildivsi %8, %b : i32
  %10 = arith.ceildivui %9, %b : i32
  %11 = arith.andi %10, %a : i32
  %12 = arith.ori %11, %a : i32
  %13 = arith.xori %12, %a : i32
  %14 = arith.shli %13, %b : i32
  %15 = arith.shrsi %14, %b : i32
  %16 = arith.shrui %15, %b : i32
  %17 = arith.maxsi %16, %a : i32
  %18 = arith.minui %17, %a : i32
  %19 = arith.cmpi sge, %18, %a : i32
  %20 = arith.select %19, %18, %a : i32
  %21 = arith.extsi %20 : i32 to i64
  %22 = arith.trunci %21 : i64 to i16
  %23 = arith.extui %22 : i16 to i32
  %24 = arith.index_cast %23 : i32 to index
  %25 = arith.index_castui %24 : index to i32
  %26 = arith.addi %v, %d : vector<4xi32>
  %27 = arith.cmpi eq, %26, %d : vector<4xi32>
  %28 = arith.select %t, %25, %23 : i32
  %sum, %overflow = arith.addui_extended %28, %a : i32, i1
  %low, %high = arith.mulsi_extended %sum, %a : i32
  return %low : i32
}

func.func @floats(%x: f32, %y: f32, %h: f16, %v: vector<4xf32>) -> f64 {
  %c = arith.constant 1.5 : f32
  %inf = arith.constant 0x7F800000 : f32
  %0 = arith.addf %x, %y : f32
  %1 = arith.subf %0, %c : f32
  %2 = arith.mulf %1, %y fastmath<fast> : f32
  %3 = arith.divf %2, %y : f32
  %4 = arith.remf %3, %y : f32
  %5 = arith.negf %4 : f32
  %6 = arith.maximumf %5, %x : f32
  %7 = arith.minnumf %6, %inf : f32
  %8 = arith.cmpf olt, %7, %y : f32
  %9 = arith.select %8, %7, %y : f32
  %10 = arith.extf %9 : f32 to f64
  %11 = arith.truncf %10 : f64 to f32
  %12 = arith.fptosi %11 : f32 to i32
  %13 = arith.sitofp %12 : i32 to f32
  %14 = arith.fptoui %13 : f32 to i32
  %15 = arith.uitofp %14 : i32 to f64
  %16 = arith.bitcast %x : f32 to i32
  %17 = arith.extf %h : f16 to f32
  %18 = math.sqrt %17 : f32
  %19 = math.exp %18 : f32
  %20 = math.log %19 : f32
  %21 = math.absf %20 : f32
  %22 = math.fma %21, %x, %y : f32
  %23 = math.powf %22, %c : f32
  %24 = math.tanh %23 : f32
  %25 = math.floor %24 : f32
  %26 = math.ceil %25 fastmath<nnan> : f32
  %27 = math.rsqrt %v : vector<4xf32>
  %28 = math.ctpop %16 : i32
  %29 = math.absi %28 : i32
  %30 = math.copysign %26, %x : f32
  %31 = math.roundeven %30 : f32
  %32 = arith.extf %31 : f32 to f64
  %33 = arith.addf %32, %15 : f64
  return %33 : f64
}
