import { closeSync, openSync, readSync } from 'node:fs'
import type * as NodeCrypto from 'node:crypto'

let loaded: typeof NodeCrypto | undefined

/**
 * node:crypto, loaded on first use: it was the costliest node module a start loaded (about 4 % of a
 * cold start, issue 33), for what only signed requests, webhooks and keys with signing material
 * need. The seeded generators hash with src/sha256.ts. (The bundle keeps the import as it is written,
 * so a static `import { createHmac } from 'node:crypto'` would load it as the module loads.)
 */
export const nodeCrypto = (): typeof NodeCrypto => (loaded ??= process.getBuiltinModule('node:crypto'))

/**
 * `bytes` random bytes as hex, from the kernel's generator without loading node:crypto where there
 * is one to read (/dev/urandom), from node:crypto elsewhere (Windows).
 */
export function randomHex(bytes: number): string {
  try {
    const random = Buffer.alloc(bytes)
    const file = openSync('/dev/urandom', 'r')
    try {
      if (readSync(file, random, 0, bytes, null) === bytes) return random.toString('hex')
    } finally {
      closeSync(file)
    }
  } catch {
    // No /dev/urandom here.
  }
  return nodeCrypto().randomBytes(bytes).toString('hex')
}
