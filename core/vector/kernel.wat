;; The exact-KNN scan kernel: one similarity score per stored vector for one query, in WebAssembly
;; SIMD (128-bit). Source of core/vector/kernel-wasm.ts, which `npm run build` regenerates from this
;; file with wabt (tools/build-kernel.mjs); test/vector-kernel.test.ts checks that the committed
;; bytes are exactly what this file assembles to. core/vector/scan.ts owns the memory layout and a
;; JavaScript twin of each function below that returns the same bits; top-k selection is not here.
;;
;; Memory layout (set up by scan.ts; every offset 16-byte aligned):
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
)
