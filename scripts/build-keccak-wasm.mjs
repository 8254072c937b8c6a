// Writes src/chain/keccak-wasm.ts: the keccak-f[1600] permutation as a WebAssembly module, written
// here as text (WAT) and assembled with wabt. Why WebAssembly: the sandbox computes an EIP-55
// checksum for each EVM wallet it seeds as it starts, and keccak in JavaScript runs cold then (the
// interpreter, then the optimizing compiler on a large function): about a tenth of a cold start's
// CPU. The module compiles in a fraction of a millisecond and runs at full speed at once.
//
// `node scripts/build-keccak-wasm.mjs` writes the file; `--check` fails when the file differs
// from what it would write (test/unit/keccak.test.ts runs that).
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import createWabt from 'wabt'

const TARGET = fileURLToPath(new URL('../src/chain/keccak-wasm.ts', import.meta.url))

/** Rotation offsets r[x][y] and round constants of keccak-f[1600] (FIPS 202, section 3.2). */
const ROTATIONS = [
  [0, 36, 3, 41, 18],
  [1, 44, 10, 45, 2],
  [62, 6, 43, 15, 61],
  [28, 55, 25, 21, 56],
  [27, 20, 39, 8, 14],
]
const ROUND_CONSTANTS = [
  0x0000000000000001n, 0x0000000000008082n, 0x800000000000808an, 0x8000000080008000n, 0x000000000000808bn, 0x0000000080000001n,
  0x8000000080008081n, 0x8000000000008009n, 0x000000000000008an, 0x0000000000000088n, 0x0000000080008009n, 0x000000008000000an,
  0x000000008000808bn, 0x800000000000008bn, 0x8000000000008089n, 0x8000000000008003n, 0x8000000000008002n, 0x8000000000000080n,
  0x000000000000800an, 0x800000008000000an, 0x8000000080008081n, 0x8000000000008080n, 0x0000000080000001n, 0x8000000080008008n,
]
/** Memory: the state's 25 lanes at 0, a block of input at 256, the round constants at 512. */
const INPUT = 256
const CONSTANTS = 512
const RATE_LANES = 17 // keccak-256: 136 bytes a block

const lane = (x, y) => `$a${(x % 5) + 5 * (y % 5)}`
const b = (x, y) => `$b${(x % 5) + 5 * (y % 5)}`
const i64 = (value) => `(i64.const ${BigInt.asIntN(64, value)})`

function permutation() {
  const out = []
  const locals = [...Array(25).keys()].flatMap((i) => [`(local $a${i} i64)`, `(local $b${i} i64)`])
  for (let x = 0; x < 5; x++) locals.push(`(local $c${x} i64)`, `(local $d${x} i64)`)
  out.push(`(func $permute ${locals.join(' ')} (local $round i32)`)
  for (let i = 0; i < 25; i++) out.push(`  (local.set $a${i} (i64.load offset=${i * 8} (i32.const 0)))`)
  out.push('  (loop $rounds')
  // θ
  for (let x = 0; x < 5; x++) out.push(`    (local.set $c${x} (i64.xor (i64.xor (i64.xor (i64.xor (local.get ${lane(x, 0)}) (local.get ${lane(x, 1)})) (local.get ${lane(x, 2)})) (local.get ${lane(x, 3)})) (local.get ${lane(x, 4)})))`)
  for (let x = 0; x < 5; x++) out.push(`    (local.set $d${x} (i64.xor (local.get $c${(x + 4) % 5}) (i64.rotl (local.get $c${(x + 1) % 5}) (i64.const 1))))`)
  for (let y = 0; y < 5; y++) for (let x = 0; x < 5; x++) out.push(`    (local.set ${lane(x, y)} (i64.xor (local.get ${lane(x, y)}) (local.get $d${x})))`)
  // ρ and π: B[y][2x+3y] = rot(A[x][y], r[x][y])
  for (let y = 0; y < 5; y++) {
    for (let x = 0; x < 5; x++) out.push(`    (local.set ${b(y, 2 * x + 3 * y)} (i64.rotl (local.get ${lane(x, y)}) (i64.const ${ROTATIONS[x][y]})))`)
  }
  // χ
  for (let y = 0; y < 5; y++) {
    for (let x = 0; x < 5; x++) out.push(`    (local.set ${lane(x, y)} (i64.xor (local.get ${b(x, y)}) (i64.and (i64.xor (local.get ${b(x + 1, y)}) (i64.const -1)) (local.get ${b(x + 2, y)}))))`)
  }
  // ι
  out.push(`    (local.set $a0 (i64.xor (local.get $a0) (i64.load offset=${CONSTANTS} (i32.shl (local.get $round) (i32.const 3)))))`)
  out.push('    (local.set $round (i32.add (local.get $round) (i32.const 1)))')
  out.push('    (br_if $rounds (i32.lt_u (local.get $round) (i32.const 24))))')
  for (let i = 0; i < 25; i++) out.push(`  (i64.store offset=${i * 8} (i32.const 0) (local.get $a${i}))`)
  out.push(')')
  return out.join('\n')
}

function moduleText() {
  const constants = ROUND_CONSTANTS.map((c) => [...Array(8).keys()].map((k) => `\\${((c >> BigInt(8 * k)) & 0xffn).toString(16).padStart(2, '0')}`).join('')).join('')
  const absorb = [...Array(RATE_LANES).keys()].map((i) => `  (i64.store offset=${i * 8} (i32.const 0) (i64.xor (i64.load offset=${i * 8} (i32.const 0)) (i64.load offset=${INPUT + i * 8} (i32.const 0))))`)
  return `(module
(memory (export "memory") 1)
(data (i32.const ${CONSTANTS}) "${constants}")
${permutation()}
;; The block of ${RATE_LANES * 8} bytes at ${INPUT}, XORed into the state, then the permutation.
(func (export "absorb")
${absorb.join('\n')}
  (call $permute))
;; The state back to zero, for the next hash.
(func (export "reset")
  (memory.fill (i32.const 0) (i32.const 0) (i32.const 200)))
)
`
}

const wabt = await createWabt()
const parsed = wabt.parseWat('keccak.wat', moduleText(), { bulk_memory: true })
const { buffer } = parsed.toBinary({})
parsed.destroy()
const source = `// Written by scripts/build-keccak-wasm.mjs (its text is there, and why): do not edit.
/** keccak-f[1600] as WebAssembly: \`absorb\` XORs the ${RATE_LANES * 8}-byte block at ${INPUT} into the state (${25 * 8} bytes at 0) and permutes it; \`reset\` zeroes the state. */
export const KECCAK_WASM = '${Buffer.from(buffer).toString('base64')}'
export const KECCAK_INPUT = ${INPUT}
export const KECCAK_RATE = ${RATE_LANES * 8}
`
if (process.argv.includes('--check')) {
  if (readFileSync(TARGET, 'utf8') !== source) {
    console.error(`${TARGET} is not what scripts/build-keccak-wasm.mjs writes; run it again`)
    process.exit(1)
  }
} else writeFileSync(TARGET, source)
