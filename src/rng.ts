import { sha256 } from './sha256.js'

/**
 * A small seeded pseudo-random generator (sfc32). Every random-looking value the sandbox hands out
 * (ids, addresses, secrets, faker data, prices) comes from one of these, so that the same seed and
 * the same requests give the same bytes.
 */
export interface Rng {
  /** A float in [0, 1). */
  next(): number
  /** An integer in [0, max). */
  int(max: number): number
  bytes(length: number): Uint8Array
  /** `length` characters of [0-9A-Za-z]. */
  base62(length: number): string
  /** A 32-bit integer, for seeding other generators (faker). */
  uint32(): number
  /** The generator's position, so that a restarted sandbox goes on where it stopped. */
  state(): RngState
}

export type RngState = [number, number, number, number]

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const BASE62_CODES = Array.from(BASE62, (char) => char.charCodeAt(0))

/** Derives a generator from any number of string parts: `createRng(seed, apiKey)`. */
export function createRng(...parts: Array<string | number>): Rng {
  const digest = sha256(parts.map(String).join('\u0000'))
  const rng = restoreRng([digest.readUInt32LE(0), digest.readUInt32LE(4), digest.readUInt32LE(8), digest.readUInt32LE(12)])
  // Warm up so that similar seeds diverge.
  for (let i = 0; i < 12; i++) rng.uint32()
  return rng
}

/**
 * A new position derived from `state` and `parts`: a stream that does not replay the one `state`
 * would give, yet is the same for the same state and parts (a restore's ids, CONTRACT.md section 14).
 */
export const forkRngState = (state: RngState, ...parts: Array<string | number>): RngState => createRng(...state, ...parts).state()

export function restoreRng(state: RngState): Rng {
  // The four words live in an Int32Array, not in four variables: a variable holding an int32 beyond
  // a small integer's 31 bits is a heap number, a new one for each word changed, so every draw
  // allocated (24 draws an id, four ids a payment: issue 33). Each operation below wraps to 32 bits
  // as it did, so the same state gives the same numbers (a state is four integers: state() writes them).
  const words = Int32Array.from(state)
  const uint32 = (): number => {
    const a = words[0]!
    const b = words[1]!
    const c = words[2]!
    const d = words[3]!
    const t = (((a + b) | 0) + d) | 0
    words[3] = (d + 1) | 0
    words[0] = b ^ (b >>> 9)
    words[1] = (c + (c << 3)) | 0
    words[2] = (((c << 21) | (c >>> 11)) + t) | 0
    return t >>> 0
  }
  const next = () => uint32() / 4294967296
  return {
    next,
    uint32,
    state: () => [words[0]! >>> 0, words[1]! >>> 0, words[2]! >>> 0, words[3]! >>> 0],
    int: (max) => Math.floor(next() * max),
    bytes(length) {
      const out = new Uint8Array(length)
      for (let i = 0; i < length; i++) out[i] = uint32() & 0xff
      return out
    },
    base62(length) {
      // Character codes made into one string at the end: a string grown a character at a time made
      // a new string per character (issue 33: four ids on a payment's path, two on every request).
      const codes = new Array<number>(length)
      for (let i = 0; i < length; i++) codes[i] = BASE62_CODES[uint32() % 62]!
      return String.fromCharCode(...codes)
    },
  }
}

/**
 * A generator made by `make` on its first use (a draw or its `state()`), which then answers every
 * call: the same numbers as the generator made at once. A class, so that a generator never used
 * costs one object and the closure it was given.
 */
class LazyRng implements Rng {
  private rng: Rng | undefined
  constructor(private readonly make: () => Rng) {}
  private get real(): Rng {
    return (this.rng ??= this.make())
  }
  next(): number {
    return this.real.next()
  }
  int(max: number): number {
    return this.real.int(max)
  }
  bytes(length: number): Uint8Array {
    return this.real.bytes(length)
  }
  base62(length: number): string {
    return this.real.base62(length)
  }
  uint32(): number {
    return this.real.uint32()
  }
  state(): RngState {
    return this.real.state()
  }
}

export const lazyRng = (make: () => Rng): Rng => new LazyRng(make)

/**
 * One generator per scope, derived from `parts` and the scope, made on first use: `family()` is the
 * sandbox's, `family(accountId)` an account's, so that what one account draws never shifts what
 * another gets (CONTRACT.md section 24).
 */
export function createRngFamily(...parts: Array<string | number>): (scope?: string) => Rng {
  const members = new Map<string, Rng>()
  return (scope) => {
    const key = scope ?? ''
    let rng = members.get(key)
    // The sandbox's is the generator of `parts` alone, as it was before generators were per account.
    if (!rng) members.set(key, (rng = scope === undefined ? createRng(...parts) : createRng(...parts, scope)))
    return rng
  }
}
