;; The vector channel's WebAssembly SIMD (128-bit) kernels: the exact-KNN scan (one similarity score
;; per stored vector for one query) and the learned model's f64 training products (sparse × dense,
;; dense × dense, Gram matrix, triangular solve). Source of core/vector/kernel-wasm.ts, which
;; `npm run build` regenerates from this file with wabt (tools/build-kernel.mjs);
;; test/vector-kernel.test.ts checks that the committed bytes are exactly what this file assembles
;; to. core/vector/scan.ts owns the scan's memory layout and core/vector/learned/dense.ts the
;; training products'; each keeps a JavaScript twin of its functions that returns the same bits.
;; Top-k selection and the factorization's steps are not here.
;;
;; Scan memory layout (set up by scan.ts; every offset 16-byte aligned):
;;   rows:  count × stride elements, row-major, each row zero-padded to the stride
;;   query: stride elements
;;   out:   count scores (i32 or f32), in row order
;; Zero padding adds nothing to a dot product, so padded rows score as the unpadded ones would.
(module
  (memory (export "memory") 1)

  ;; int8 rows · int16 query → exact int32 dot products.
  ;; stride: bytes per row, a multiple of 16. Each step loads 16 row bytes, widens them to two
  ;; i16x8 halves and multiplies-and-adds them with 16 query values (32 bytes) by i32x4.dot_i16x8_s.
  ;; Integer sums are exact in any order, so the JS twin is a plain loop. The caller keeps
  ;; 127 · Σ|query| below 2^31 (scan.ts chooses the query's int16 range from the dimension).
  (func (export "dot_i8") (param $rows i32) (param $count i32) (param $stride i32) (param $query i32) (param $out i32)
    (local $p i32) (local $end i32) (local $rowEnd i32) (local $q i32) (local $v v128) (local $acc v128)
    (local.set $p (local.get $rows))
    (local.set $end (i32.add (local.get $rows) (i32.mul (local.get $count) (local.get $stride))))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $acc (v128.const i32x4 0 0 0 0))
        (local.set $q (local.get $query))
        (local.set $rowEnd (i32.add (local.get $p) (local.get $stride)))
        (loop $step
          (local.set $v (v128.load (local.get $p)))
          (local.set $acc
            (i32x4.add (local.get $acc)
              (i32x4.add
                (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load (local.get $q)))
                (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=16 (local.get $q))))))
          (local.set $p (i32.add (local.get $p) (i32.const 16)))
          (local.set $q (i32.add (local.get $q) (i32.const 32)))
          (br_if $step (i32.lt_u (local.get $p) (local.get $rowEnd))))
        (i32.store (local.get $out)
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
            (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $row))))

  ;; float32 rows · float32 query → float32 dot products, summed in a fixed order.
  ;; stride: floats per row, a multiple of 8. Two accumulators: $a takes elements 8m..8m+3, $b
  ;; elements 8m+4..8m+7 (each product rounded to f32, then each sum; no fused multiply-add).
  ;; Result: s = a + b lane by lane, then (s0 + s1) + (s2 + s3). The JS twin repeats exactly these
  ;; roundings with Math.fround, so both return the same bits.
  (func (export "dot_f32") (param $rows i32) (param $count i32) (param $stride i32) (param $query i32) (param $out i32)
    (local $p i32) (local $end i32) (local $rowEnd i32) (local $q i32) (local $a v128) (local $b v128)
    (local.set $p (local.get $rows))
    (local.set $end (i32.add (local.get $rows) (i32.mul (local.get $count) (i32.shl (local.get $stride) (i32.const 2)))))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $a (v128.const f32x4 0 0 0 0))
        (local.set $b (v128.const f32x4 0 0 0 0))
        (local.set $q (local.get $query))
        (local.set $rowEnd (i32.add (local.get $p) (i32.shl (local.get $stride) (i32.const 2))))
        (loop $step
          (local.set $a (f32x4.add (local.get $a) (f32x4.mul (v128.load (local.get $p)) (v128.load (local.get $q)))))
          (local.set $b (f32x4.add (local.get $b) (f32x4.mul (v128.load offset=16 (local.get $p)) (v128.load offset=16 (local.get $q)))))
          (local.set $p (i32.add (local.get $p) (i32.const 32)))
          (local.set $q (i32.add (local.get $q) (i32.const 32)))
          (br_if $step (i32.lt_u (local.get $p) (local.get $rowEnd))))
        (local.set $a (f32x4.add (local.get $a) (local.get $b)))
        (f32.store (local.get $out)
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $a)) (f32x4.extract_lane 1 (local.get $a)))
            (f32.add (f32x4.extract_lane 2 (local.get $a)) (f32x4.extract_lane 3 (local.get $a)))))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $row))))

  ;; ── training products (f64) ──────────────────────────────────────────────────────────────────
  ;; Every output element is computed exactly as its JS twin computes it (learned/sparse.ts
  ;; mulDense, learned/svd.ts multiply/gram/solveRight): lanes run across independent output
  ;; elements (or, in solve_right, across the twin's two interleaved accumulators), each lane does
  ;; the twin's operations in the twin's order, with no fused multiply-add, so the bits are equal.
  ;; Offsets are bytes; f64 matrices are row-major and need no alignment.

  ;; y[0..n) += v0·x0[0..n) + v1·x1[0..n)   (the sum of the two products first, then the add)
  (func $axpy2 (param $y i32) (param $x0 i32) (param $x1 i32) (param $v0 f64) (param $v1 f64) (param $n i32)
    (local $end i32) (local $s0 v128) (local $s1 v128)
    (local.set $s0 (f64x2.splat (local.get $v0)))
    (local.set $s1 (f64x2.splat (local.get $v1)))
    (local.set $end (i32.add (local.get $y) (i32.shl (i32.and (local.get $n) (i32.const -2)) (i32.const 3))))
    (block $done
      (loop $pair
        (br_if $done (i32.ge_u (local.get $y) (local.get $end)))
        (v128.store (local.get $y)
          (f64x2.add (v128.load (local.get $y))
            (f64x2.add (f64x2.mul (local.get $s0) (v128.load (local.get $x0)))
                       (f64x2.mul (local.get $s1) (v128.load (local.get $x1))))))
        (local.set $y (i32.add (local.get $y) (i32.const 16)))
        (local.set $x0 (i32.add (local.get $x0) (i32.const 16)))
        (local.set $x1 (i32.add (local.get $x1) (i32.const 16)))
        (br $pair)))
    (if (i32.and (local.get $n) (i32.const 1))
      (then (f64.store (local.get $y)
        (f64.add (f64.load (local.get $y))
          (f64.add (f64.mul (local.get $v0) (f64.load (local.get $x0)))
                   (f64.mul (local.get $v1) (f64.load (local.get $x1)))))))))

  ;; y[0..n) += v·x[0..n)
  (func $axpy1 (param $y i32) (param $x i32) (param $v f64) (param $n i32)
    (local $end i32) (local $s v128)
    (local.set $s (f64x2.splat (local.get $v)))
    (local.set $end (i32.add (local.get $y) (i32.shl (i32.and (local.get $n) (i32.const -2)) (i32.const 3))))
    (block $done
      (loop $pair
        (br_if $done (i32.ge_u (local.get $y) (local.get $end)))
        (v128.store (local.get $y) (f64x2.add (v128.load (local.get $y)) (f64x2.mul (local.get $s) (v128.load (local.get $x)))))
        (local.set $y (i32.add (local.get $y) (i32.const 16)))
        (local.set $x (i32.add (local.get $x) (i32.const 16)))
        (br $pair)))
    (if (i32.and (local.get $n) (i32.const 1))
      (then (f64.store (local.get $y) (f64.add (f64.load (local.get $y)) (f64.mul (local.get $v) (f64.load (local.get $x))))))))

  ;; y[0..n) += (a0·x0 + a1·x1) + (a2·x2 + a3·x3), elementwise
  (func $axpy4 (param $y i32) (param $x0 i32) (param $x1 i32) (param $x2 i32) (param $x3 i32)
               (param $a0 f64) (param $a1 f64) (param $a2 f64) (param $a3 f64) (param $n i32)
    (local $end i32) (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128)
    (local.set $s0 (f64x2.splat (local.get $a0)))
    (local.set $s1 (f64x2.splat (local.get $a1)))
    (local.set $s2 (f64x2.splat (local.get $a2)))
    (local.set $s3 (f64x2.splat (local.get $a3)))
    (local.set $end (i32.add (local.get $y) (i32.shl (i32.and (local.get $n) (i32.const -2)) (i32.const 3))))
    (block $done
      (loop $pair
        (br_if $done (i32.ge_u (local.get $y) (local.get $end)))
        (v128.store (local.get $y)
          (f64x2.add (v128.load (local.get $y))
            (f64x2.add
              (f64x2.add (f64x2.mul (local.get $s0) (v128.load (local.get $x0))) (f64x2.mul (local.get $s1) (v128.load (local.get $x1))))
              (f64x2.add (f64x2.mul (local.get $s2) (v128.load (local.get $x2))) (f64x2.mul (local.get $s3) (v128.load (local.get $x3)))))))
        (local.set $y (i32.add (local.get $y) (i32.const 16)))
        (local.set $x0 (i32.add (local.get $x0) (i32.const 16)))
        (local.set $x1 (i32.add (local.get $x1) (i32.const 16)))
        (local.set $x2 (i32.add (local.get $x2) (i32.const 16)))
        (local.set $x3 (i32.add (local.get $x3) (i32.const 16)))
        (br $pair)))
    (if (i32.and (local.get $n) (i32.const 1))
      (then (f64.store (local.get $y)
        (f64.add (f64.load (local.get $y))
          (f64.add
            (f64.add (f64.mul (local.get $a0) (f64.load (local.get $x0))) (f64.mul (local.get $a1) (f64.load (local.get $x1))))
            (f64.add (f64.mul (local.get $a2) (f64.load (local.get $x2))) (f64.mul (local.get $a3) (f64.load (local.get $x3))))))))))

  ;; y (rows × width, zeroed here) = M · x (M CSR: rowPtr i32[rows+1], colIdx i32[nnz], values f32[nnz]; x cols × width).
  ;; Row by row, the row's entries two at a time in stored order, as learned/sparse.ts mulDense.
  (func (export "spmm") (param $rowPtr i32) (param $colIdx i32) (param $values i32) (param $rows i32) (param $x i32) (param $width i32) (param $y i32)
    (local $r i32) (local $p i32) (local $end i32) (local $rowBytes i32)
    (local.set $rowBytes (i32.shl (local.get $width) (i32.const 3)))
    (memory.fill (local.get $y) (i32.const 0) (i32.mul (local.get $rows) (local.get $rowBytes)))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $p (i32.load (i32.add (local.get $rowPtr) (i32.shl (local.get $r) (i32.const 2)))))
        (local.set $end (i32.load offset=4 (i32.add (local.get $rowPtr) (i32.shl (local.get $r) (i32.const 2)))))
        (block $pairsDone
          (loop $pairs
            (br_if $pairsDone (i32.ge_s (i32.add (local.get $p) (i32.const 1)) (local.get $end)))
            (call $axpy2 (local.get $y)
              (i32.add (local.get $x) (i32.mul (i32.load (i32.add (local.get $colIdx) (i32.shl (local.get $p) (i32.const 2)))) (local.get $rowBytes)))
              (i32.add (local.get $x) (i32.mul (i32.load offset=4 (i32.add (local.get $colIdx) (i32.shl (local.get $p) (i32.const 2)))) (local.get $rowBytes)))
              (f64.promote_f32 (f32.load (i32.add (local.get $values) (i32.shl (local.get $p) (i32.const 2)))))
              (f64.promote_f32 (f32.load offset=4 (i32.add (local.get $values) (i32.shl (local.get $p) (i32.const 2)))))
              (local.get $width))
            (local.set $p (i32.add (local.get $p) (i32.const 2)))
            (br $pairs)))
        (if (i32.lt_s (local.get $p) (local.get $end))
          (then (call $axpy1 (local.get $y)
            (i32.add (local.get $x) (i32.mul (i32.load (i32.add (local.get $colIdx) (i32.shl (local.get $p) (i32.const 2)))) (local.get $rowBytes)))
            (f64.promote_f32 (f32.load (i32.add (local.get $values) (i32.shl (local.get $p) (i32.const 2)))))
            (local.get $width))))
        (local.set $y (i32.add (local.get $y) (local.get $rowBytes)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $row))))

  ;; out (rows × width, zeroed here) = a (rows × inner) · b (inner × width), two rows of b per pass, as learned/svd.ts multiply.
  (func (export "gemm") (param $a i32) (param $rows i32) (param $inner i32) (param $b i32) (param $width i32) (param $out i32)
    (local $r i32) (local $k i32) (local $ao i32) (local $bRow i32)
    (local.set $bRow (i32.shl (local.get $width) (i32.const 3)))
    (memory.fill (local.get $out) (i32.const 0) (i32.mul (local.get $rows) (local.get $bRow)))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $ao (i32.add (local.get $a) (i32.shl (i32.mul (local.get $r) (local.get $inner)) (i32.const 3))))
        (local.set $k (i32.const 0))
        (block $pairsDone
          (loop $pairs
            (br_if $pairsDone (i32.ge_u (i32.add (local.get $k) (i32.const 1)) (local.get $inner)))
            (call $axpy2 (local.get $out)
              (i32.add (local.get $b) (i32.mul (local.get $k) (local.get $bRow)))
              (i32.add (local.get $b) (i32.mul (i32.add (local.get $k) (i32.const 1)) (local.get $bRow)))
              (f64.load (i32.add (local.get $ao) (i32.shl (local.get $k) (i32.const 3))))
              (f64.load offset=8 (i32.add (local.get $ao) (i32.shl (local.get $k) (i32.const 3))))
              (local.get $width))
            (local.set $k (i32.add (local.get $k) (i32.const 2)))
            (br $pairs)))
        (if (i32.lt_u (local.get $k) (local.get $inner))
          (then (call $axpy1 (local.get $out)
            (i32.add (local.get $b) (i32.mul (local.get $k) (local.get $bRow)))
            (f64.load (i32.add (local.get $ao) (i32.shl (local.get $k) (i32.const 3))))
            (local.get $width))))
        (local.set $out (i32.add (local.get $out) (local.get $bRow)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $row))))

  ;; The upper triangle (j ≥ i) of g (width × width, zeroed here) = aᵀ·a for a (rows × width): four
  ;; rows of a per pass, then the rest one at a time, as learned/svd.ts gram (which mirrors it).
  (func (export "gram_upper") (param $a i32) (param $rows i32) (param $width i32) (param $g i32)
    (local $r i32) (local $i i32) (local $rowBytes i32) (local $o0 i32) (local $gi i32) (local $off i32) (local $n i32)
    (local.set $rowBytes (i32.shl (local.get $width) (i32.const 3)))
    (memory.fill (local.get $g) (i32.const 0) (i32.mul (local.get $width) (local.get $rowBytes)))
    (block $quadsDone
      (loop $quads
        (br_if $quadsDone (i32.ge_u (i32.add (local.get $r) (i32.const 3)) (local.get $rows)))
        (local.set $o0 (i32.add (local.get $a) (i32.mul (local.get $r) (local.get $rowBytes))))
        (local.set $i (i32.const 0))
        (block $colsDone
          (loop $cols
            (br_if $colsDone (i32.ge_u (local.get $i) (local.get $width)))
            (local.set $off (i32.shl (local.get $i) (i32.const 3)))
            (local.set $gi (i32.add (local.get $g) (i32.add (i32.mul (local.get $i) (local.get $rowBytes)) (local.get $off))))
            (local.set $n (i32.sub (local.get $width) (local.get $i)))
            (call $axpy4 (local.get $gi)
              (i32.add (local.get $o0) (local.get $off))
              (i32.add (i32.add (local.get $o0) (local.get $rowBytes)) (local.get $off))
              (i32.add (i32.add (local.get $o0) (i32.shl (local.get $rowBytes) (i32.const 1))) (local.get $off))
              (i32.add (i32.add (local.get $o0) (i32.mul (local.get $rowBytes) (i32.const 3))) (local.get $off))
              (f64.load (i32.add (local.get $o0) (local.get $off)))
              (f64.load (i32.add (i32.add (local.get $o0) (local.get $rowBytes)) (local.get $off)))
              (f64.load (i32.add (i32.add (local.get $o0) (i32.shl (local.get $rowBytes) (i32.const 1))) (local.get $off)))
              (f64.load (i32.add (i32.add (local.get $o0) (i32.mul (local.get $rowBytes) (i32.const 3))) (local.get $off)))
              (local.get $n))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $cols)))
        (local.set $r (i32.add (local.get $r) (i32.const 4)))
        (br $quads)))
    (block $restDone
      (loop $rest
        (br_if $restDone (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $o0 (i32.add (local.get $a) (i32.mul (local.get $r) (local.get $rowBytes))))
        (local.set $i (i32.const 0))
        (block $colsDone
          (loop $cols
            (br_if $colsDone (i32.ge_u (local.get $i) (local.get $width)))
            (local.set $off (i32.shl (local.get $i) (i32.const 3)))
            (call $axpy1
              (i32.add (local.get $g) (i32.add (i32.mul (local.get $i) (local.get $rowBytes)) (local.get $off)))
              (i32.add (local.get $o0) (local.get $off))
              (f64.load (i32.add (local.get $o0) (local.get $off)))
              (i32.sub (local.get $width) (local.get $i)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $cols)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $rest))))

  ;; In place, each row y of a (rows × n) becomes y·R⁻¹, given rt = Rᵀ (n × n, lower triangular):
  ;; a[j] = (a[j] − Σ_{k<j} a[k]·rt[j][k]) / rt[j][j], the sum in two accumulators (even k in
  ;; lane 0, odd k in lane 1, an odd last k on lane 0), then lane 0 + lane 1, as learned/svd.ts
  ;; solveRight. Two rows per call of $solve_rows (independent chains; and many small calls, so the
  ;; engine's optimizing tier takes over after the first few rows).
  (func (export "solve_right") (param $a i32) (param $rows i32) (param $n i32) (param $rt i32)
    (local $row i32) (local $rowBytes i32) (local $o i32)
    (local.set $rowBytes (i32.shl (local.get $n) (i32.const 3)))
    (local.set $o (local.get $a))
    (block $done
      (loop $pairs
        (br_if $done (i32.ge_u (i32.add (local.get $row) (i32.const 1)) (local.get $rows)))
        (call $solve_rows (local.get $o) (i32.add (local.get $o) (local.get $rowBytes)) (local.get $n) (local.get $rt))
        (local.set $o (i32.add (local.get $o) (i32.shl (local.get $rowBytes) (i32.const 1))))
        (local.set $row (i32.add (local.get $row) (i32.const 2)))
        (br $pairs)))
    ;; An odd last row is solved beside a copy of itself in the n doubles after the matrix (the
    ;; caller leaves that room; the copy's result is not used).
    (if (i32.lt_u (local.get $row) (local.get $rows))
      (then
        (memory.copy (i32.add (local.get $o) (local.get $rowBytes)) (local.get $o) (local.get $rowBytes))
        (call $solve_rows (local.get $o) (i32.add (local.get $o) (local.get $rowBytes)) (local.get $n) (local.get $rt)))))

  ;; Rows x and y (n doubles each) become x·R⁻¹ and y·R⁻¹.
  (func $solve_rows (param $x i32) (param $y i32) (param $n i32) (param $rt i32)
    (local $j i32) (local $c i32) (local $k i32) (local $ax v128) (local $ay v128) (local $r v128) (local $jb i32) (local $kb i32)
    (block $colsDone
      (loop $cols
        (br_if $colsDone (i32.ge_u (local.get $j) (local.get $n)))
        (local.set $jb (i32.shl (local.get $j) (i32.const 3)))
        (local.set $c (i32.add (local.get $rt) (i32.mul (local.get $j) (i32.shl (local.get $n) (i32.const 3)))))
        (local.set $ax (f64x2.replace_lane 0 (v128.const f64x2 0 0) (f64.load (i32.add (local.get $x) (local.get $jb)))))
        (local.set $ay (f64x2.replace_lane 0 (v128.const f64x2 0 0) (f64.load (i32.add (local.get $y) (local.get $jb)))))
        (local.set $k (i32.const 0))
        (block $kDone
          (loop $kLoop
            (br_if $kDone (i32.ge_u (i32.add (local.get $k) (i32.const 1)) (local.get $j)))
            (local.set $kb (i32.shl (local.get $k) (i32.const 3)))
            (local.set $r (v128.load (i32.add (local.get $c) (local.get $kb))))
            (local.set $ax (f64x2.sub (local.get $ax) (f64x2.mul (v128.load (i32.add (local.get $x) (local.get $kb))) (local.get $r))))
            (local.set $ay (f64x2.sub (local.get $ay) (f64x2.mul (v128.load (i32.add (local.get $y) (local.get $kb))) (local.get $r))))
            (local.set $k (i32.add (local.get $k) (i32.const 2)))
            (br $kLoop)))
        (if (i32.lt_u (local.get $k) (local.get $j))
          (then
            (local.set $kb (i32.shl (local.get $k) (i32.const 3)))
            (local.set $ax (f64x2.replace_lane 0 (local.get $ax)
              (f64.sub (f64x2.extract_lane 0 (local.get $ax))
                (f64.mul (f64.load (i32.add (local.get $x) (local.get $kb))) (f64.load (i32.add (local.get $c) (local.get $kb)))))))
            (local.set $ay (f64x2.replace_lane 0 (local.get $ay)
              (f64.sub (f64x2.extract_lane 0 (local.get $ay))
                (f64.mul (f64.load (i32.add (local.get $y) (local.get $kb))) (f64.load (i32.add (local.get $c) (local.get $kb)))))))))
        (f64.store (i32.add (local.get $x) (local.get $jb))
          (f64.div (f64.add (f64x2.extract_lane 0 (local.get $ax)) (f64x2.extract_lane 1 (local.get $ax)))
                   (f64.load (i32.add (local.get $c) (local.get $jb)))))
        (f64.store (i32.add (local.get $y) (local.get $jb))
          (f64.div (f64.add (f64x2.extract_lane 0 (local.get $ay)) (f64x2.extract_lane 1 (local.get $ay)))
                   (f64.load (i32.add (local.get $c) (local.get $jb)))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $cols))))

  ;; One Jacobi rotation (c, s) in the plane (p, q) of the symmetric n × n matrix a, and of the
  ;; eigenvector matrix held transposed (vt: row k is eigenvector column k), as learned/dense.ts
  ;; jsRotate: a's columns p and q for every row k (strided: scalar), then a's rows p and q, then
  ;; vt's rows p and q (contiguous: two lanes at a time). Each element: c·x − s·y and s·x + c·y.
  (func (export "jacobi_rotate") (param $a i32) (param $vt i32) (param $n i32) (param $p i32) (param $q i32) (param $c f64) (param $s f64)
    (local $k i32) (local $rowBytes i32) (local $ap i32) (local $aq i32) (local $x f64) (local $y f64)
    (local.set $rowBytes (i32.shl (local.get $n) (i32.const 3)))
    (local.set $ap (i32.add (local.get $a) (i32.shl (local.get $p) (i32.const 3))))
    (local.set $aq (i32.add (local.get $a) (i32.shl (local.get $q) (i32.const 3))))
    (block $colsDone
      (loop $cols
        (br_if $colsDone (i32.ge_u (local.get $k) (local.get $n)))
        (local.set $x (f64.load (local.get $ap)))
        (local.set $y (f64.load (local.get $aq)))
        (f64.store (local.get $ap) (f64.sub (f64.mul (local.get $c) (local.get $x)) (f64.mul (local.get $s) (local.get $y))))
        (f64.store (local.get $aq) (f64.add (f64.mul (local.get $s) (local.get $x)) (f64.mul (local.get $c) (local.get $y))))
        (local.set $ap (i32.add (local.get $ap) (local.get $rowBytes)))
        (local.set $aq (i32.add (local.get $aq) (local.get $rowBytes)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $cols)))
    (call $rotate_rows
      (i32.add (local.get $a) (i32.mul (local.get $p) (local.get $rowBytes)))
      (i32.add (local.get $a) (i32.mul (local.get $q) (local.get $rowBytes)))
      (local.get $n) (local.get $c) (local.get $s))
    (call $rotate_rows
      (i32.add (local.get $vt) (i32.mul (local.get $p) (local.get $rowBytes)))
      (i32.add (local.get $vt) (i32.mul (local.get $q) (local.get $rowBytes)))
      (local.get $n) (local.get $c) (local.get $s)))

  ;; x[k], y[k] ← c·x[k] − s·y[k], s·x[k] + c·y[k] for k < n.
  (func $rotate_rows (param $x i32) (param $y i32) (param $n i32) (param $c f64) (param $s f64)
    (local $end i32) (local $vc v128) (local $vs v128) (local $vx v128) (local $vy v128) (local $sx f64) (local $sy f64)
    (local.set $vc (f64x2.splat (local.get $c)))
    (local.set $vs (f64x2.splat (local.get $s)))
    (local.set $end (i32.add (local.get $x) (i32.shl (i32.and (local.get $n) (i32.const -2)) (i32.const 3))))
    (block $done
      (loop $pair
        (br_if $done (i32.ge_u (local.get $x) (local.get $end)))
        (local.set $vx (v128.load (local.get $x)))
        (local.set $vy (v128.load (local.get $y)))
        (v128.store (local.get $x) (f64x2.sub (f64x2.mul (local.get $vc) (local.get $vx)) (f64x2.mul (local.get $vs) (local.get $vy))))
        (v128.store (local.get $y) (f64x2.add (f64x2.mul (local.get $vs) (local.get $vx)) (f64x2.mul (local.get $vc) (local.get $vy))))
        (local.set $x (i32.add (local.get $x) (i32.const 16)))
        (local.set $y (i32.add (local.get $y) (i32.const 16)))
        (br $pair)))
    (if (i32.and (local.get $n) (i32.const 1))
      (then
        (local.set $sx (f64.load (local.get $x)))
        (local.set $sy (f64.load (local.get $y)))
        (f64.store (local.get $x) (f64.sub (f64.mul (local.get $c) (local.get $sx)) (f64.mul (local.get $s) (local.get $sy))))
        (f64.store (local.get $y) (f64.add (f64.mul (local.get $s) (local.get $sx)) (f64.mul (local.get $c) (local.get $sy)))))))

  ;; A chunk's SIF mean (learned/model.ts meanOf): acc (dims f64, zeroed here) += f_b · vectors[id_b]
  ;; for each of the bag's `count` distinct tokens in order (ids i32, factors f64; vectors int8,
  ;; row-major V × dims), then out[j] = f32(acc[j] / n). Lanes run across j, as in the twin.
  (func (export "sif_mean") (param $acc i32) (param $vectors i32) (param $dims i32) (param $ids i32) (param $factors i32) (param $count i32) (param $n f64) (param $out i32)
    (local $b i32) (local $j i32)
    (memory.fill (local.get $acc) (i32.const 0) (i32.shl (local.get $dims) (i32.const 3)))
    (block $bagDone
      (loop $bag
        (br_if $bagDone (i32.ge_u (local.get $b) (local.get $count)))
        (call $axpy_i8 (local.get $acc)
          (i32.add (local.get $vectors) (i32.mul (i32.load (i32.add (local.get $ids) (i32.shl (local.get $b) (i32.const 2)))) (local.get $dims)))
          (f64.load (i32.add (local.get $factors) (i32.shl (local.get $b) (i32.const 3))))
          (local.get $dims))
        (local.set $b (i32.add (local.get $b) (i32.const 1)))
        (br $bag)))
    (block $outDone
      (loop $outLoop
        (br_if $outDone (i32.ge_u (local.get $j) (local.get $dims)))
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $j) (i32.const 2)))
          (f32.demote_f64 (f64.div (f64.load (i32.add (local.get $acc) (i32.shl (local.get $j) (i32.const 3)))) (local.get $n))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $outLoop))))

  ;; y[0..n) (f64) += v · x[0..n) (int8, exact as f64): eight at a time, then one at a time.
  (func $axpy_i8 (param $y i32) (param $x i32) (param $v f64) (param $n i32)
    (local $end i32) (local $s v128) (local $w v128) (local $lo v128) (local $hi v128)
    (local.set $s (f64x2.splat (local.get $v)))
    (local.set $end (i32.add (local.get $x) (i32.and (local.get $n) (i32.const -8))))
    (block $done
      (loop $eight
        (br_if $done (i32.ge_u (local.get $x) (local.get $end)))
        (local.set $w (i16x8.extend_low_i8x16_s (v128.load64_zero (local.get $x))))
        (local.set $lo (i32x4.extend_low_i16x8_s (local.get $w)))
        (local.set $hi (i32x4.extend_high_i16x8_s (local.get $w)))
        (v128.store offset=0 (local.get $y) (f64x2.add (v128.load offset=0 (local.get $y)) (f64x2.mul (local.get $s) (f64x2.convert_low_i32x4_s (local.get $lo)))))
        (v128.store offset=16 (local.get $y) (f64x2.add (v128.load offset=16 (local.get $y))
          (f64x2.mul (local.get $s) (f64x2.convert_low_i32x4_s (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $lo) (local.get $lo))))))
        (v128.store offset=32 (local.get $y) (f64x2.add (v128.load offset=32 (local.get $y)) (f64x2.mul (local.get $s) (f64x2.convert_low_i32x4_s (local.get $hi)))))
        (v128.store offset=48 (local.get $y) (f64x2.add (v128.load offset=48 (local.get $y))
          (f64x2.mul (local.get $s) (f64x2.convert_low_i32x4_s (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $hi) (local.get $hi))))))
        (local.set $x (i32.add (local.get $x) (i32.const 8)))
        (local.set $y (i32.add (local.get $y) (i32.const 64)))
        (br $eight)))
    (local.set $end (i32.add (local.get $end) (i32.and (local.get $n) (i32.const 7))))
    (block $tailDone
      (loop $tail
        (br_if $tailDone (i32.ge_u (local.get $x) (local.get $end)))
        (f64.store (local.get $y) (f64.add (f64.load (local.get $y)) (f64.mul (local.get $v) (f64.convert_i32_s (i32.load8_s (local.get $x))))))
        (local.set $x (i32.add (local.get $x) (i32.const 1)))
        (local.set $y (i32.add (local.get $y) (i32.const 8)))
        (br $tail))))
)
