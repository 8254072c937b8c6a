import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { describe, expect, it } from 'vitest'
import { keccak256 } from '../../src/chain/keccak.js'

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')

describe('keccak256 (WebAssembly)', () => {
  it('hashes the published vectors', () => {
    expect(hex(keccak256(new Uint8Array()))).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470')
    expect(hex(keccak256(new TextEncoder().encode('abc')))).toBe('4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45')
  })

  it('hashes as @noble/hashes does, at every length around the block of 136 bytes (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (data) => {
        expect(hex(keccak256(data))).toBe(hex(keccak_256(data)))
      }),
      { numRuns: 300 },
    )
    for (const length of [135, 136, 137, 271, 272, 273]) {
      const data = Uint8Array.from({ length }, (_, i) => (i * 7) & 0xff)
      expect(hex(keccak256(data))).toBe(hex(keccak_256(data)))
    }
  })

  it('is the module scripts/build-keccak-wasm.mjs writes', () => {
    execFileSync(process.execPath, [fileURLToPath(new URL('../../scripts/build-keccak-wasm.mjs', import.meta.url)), '--check'])
  })
})
