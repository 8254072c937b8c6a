import { KECCAK_INPUT, KECCAK_RATE, KECCAK_WASM } from './keccak-wasm.js'

/**
 * Keccak-256 (the hash of EIP-55 checksums: Keccak's own padding, not SHA3-256's), on a
 * WebAssembly permutation (keccak-wasm.ts, and why in scripts/build-keccak-wasm.mjs). The module is
 * compiled on the first hash.
 */
let engine: { memory: Uint8Array; absorb: () => void; reset: () => void } | undefined

/** The global WebAssembly, which this project's type definitions (Node's, without the DOM's) do not describe. */
const wasm = (globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => object; Instance: new (module: object) => { exports: Record<string, unknown> } } }).WebAssembly

function start() {
  const { exports } = new wasm.Instance(new wasm.Module(Buffer.from(KECCAK_WASM, 'base64')))
  const { memory, absorb, reset } = exports as { memory: { buffer: ArrayBuffer }; absorb: () => void; reset: () => void }
  return { memory: new Uint8Array(memory.buffer), absorb, reset }
}

export function keccak256(data: Uint8Array): Uint8Array {
  const { memory, absorb, reset } = (engine ??= start())
  reset()
  let offset = 0
  for (; data.length - offset >= KECCAK_RATE; offset += KECCAK_RATE) {
    memory.set(data.subarray(offset, offset + KECCAK_RATE), KECCAK_INPUT)
    absorb()
  }
  // The last block, padded: 0x01 after the data, 0x80 in the block's last byte.
  memory.fill(0, KECCAK_INPUT, KECCAK_INPUT + KECCAK_RATE)
  memory.set(data.subarray(offset), KECCAK_INPUT)
  memory[KECCAK_INPUT + data.length - offset]! ^= 0x01
  memory[KECCAK_INPUT + KECCAK_RATE - 1]! ^= 0x80
  absorb()
  return memory.slice(0, 32)
}
