import { createRng } from '../rng.js'
import type { AssetModel } from './price-fixture.js'

/**
 * An asset's USD price over time. Every asset's USD price is `start_price · exp(X(t))` where X is a
 * Brownian motion of the asset's volatility that is pulled back to 0 every `reversion_seconds`
 * (rounded down to 2^J seconds):
 *
 * - the time line is cut into blocks of 2^J seconds (aligned on the Unix epoch); at every block edge
 *   X takes an independent normal value of variance σ²·2^J/2, and inside a block X is the straight
 *   line between its two edge values plus a Brownian bridge;
 * - the bridge is built with Lévy's construction: one "tent" per level j = J … 1 of width 2^j seconds
 *   whose height is a normal shock of standard deviation σ·√(2^j)/2. A time lies in exactly one tent
 *   of each level, so X(t) costs J + 2 hashed normals, whatever t is: no iteration over earlier steps.
 *
 * Sampled on whole seconds this is an exact Brownian motion inside a block (linear between seconds), the
 * variance of X is σ²·2^J/2 at every time (so the price never drifts off), and every shock is a hash of
 * (seed, asset, level, index): prices are a pure function of the seed, the pair and the time.
 * Pegged assets (stablecoins) squeeze the same walk into `start_price · (1 ± peg_band)` with tanh.
 */

const SECONDS_PER_YEAR = 31_557_600

// ---------------------------------------------------------------------------------------------------
// Hashing: a 32-bit integer finaliser (xorshift-multiply rounds), keyed per asset from the seeded rng.

function mix32(x: number): number {
  x ^= x >>> 16
  x = Math.imul(x, 0x7feb352d)
  x ^= x >>> 15
  x = Math.imul(x, 0x846ca68b)
  x ^= x >>> 16
  return x >>> 0
}

const TWO_POW_32 = 4294967296
const TWO_PI = 2 * Math.PI
/** Level tag of the block-edge values, apart from the tent levels 1 … 30. */
const EDGE_LEVEL = 63

/** A standard normal, a pure function of (key, level, index) (Box-Muller on two hashed uniforms). */
function hashedNormal(k0: number, k1: number, k2: number, k3: number, level: number, index: number): number {
  const lo = index >>> 0
  const hi = Math.floor(index / TWO_POW_32) | 0
  let h = mix32(k0 ^ Math.imul(level + 1, 0x9e3779b9))
  h = mix32(h ^ lo)
  h = mix32(h ^ hi ^ k1)
  const a = mix32(h ^ k2)
  const b = mix32(h ^ k3)
  return Math.sqrt(-2 * Math.log((a + 0.5) / TWO_POW_32)) * Math.cos((TWO_PI * b) / TWO_POW_32)
}

export interface Leg {
  /** Price in USD at `atMs` (integer ms), before rounding. */
  usd(atMs: number): number
  readonly startPrice: number
  readonly spreadBp: number
  /** Significant digits of the ASSET/USD rendering. */
  readonly significantDigits: number
}

export const USD_LEG: Leg = { usd: () => 1, startPrice: 1, spreadBp: 0, significantDigits: 6 }

export function magnitude(value: number): number {
  // log10 of 1000 may come out as 2.9999999999999996; nudge before flooring.
  return Math.floor(Math.log10(value) + 1e-12)
}

export function createLeg(seed: string, code: string, model: AssetModel): Leg {
  // The walk, made for the first price asked for: a pure function of the seed and the asset's model,
  // so making it later changes nothing, and a start (which makes every asset's leg) asks for no price
  // (the generators' SHA-256 of each asset was about 2 % of a cold start, issue 33; the levels were
  // most of what was left of a leg, round 7).
  let walk: Walk | undefined
  const logDeviation = (atMs: number): number => {
    const { k0, k1, k2, k3, top, blockMs, edgeStd, widthsMs, amplitudes } = (walk ??= makeWalk(seed, code, model))
    const block = Math.floor(atMs / blockMs)
    const u = (atMs - block * blockMs) / blockMs
    const left = hashedNormal(k0, k1, k2, k3, EDGE_LEVEL, block)
    const right = hashedNormal(k0, k1, k2, k3, EDGE_LEVEL, block + 1)
    let x = edgeStd * (left + (right - left) * u)
    for (let j = top; j >= 1; j--) {
      const width = widthsMs[j]!
      const cell = Math.floor(atMs / width)
      const v = (atMs - cell * width) / width
      const tent = 1 - Math.abs(2 * v - 1)
      if (tent > 0) x += amplitudes[j]! * tent * hashedNormal(k0, k1, k2, k3, j, cell)
    }
    return x
  }
  const start = model.start_price
  const band = model.peg_band_bp === undefined ? undefined : model.peg_band_bp / 10_000
  const usd =
    band === undefined
      ? (atMs: number) => start * Math.exp(logDeviation(atMs))
      : (atMs: number) => start * (1 + band * Math.tanh(logDeviation(atMs) / band))
  return {
    usd,
    startPrice: start,
    spreadBp: model.spread_bp,
    significantDigits: model.decimals + magnitude(start) + 1,
  }
}

/** A leg's walk: its four hash keys (from the seed and the asset), and its levels' widths and heights. */
interface Walk {
  k0: number
  k1: number
  k2: number
  k3: number
  top: number
  blockMs: number
  edgeStd: number
  widthsMs: Float64Array
  amplitudes: Float64Array
}

function makeWalk(seed: string, code: string, model: AssetModel): Walk {
  const rng = createRng(seed, 'prices', code)
  const k0 = rng.uint32()
  const k1 = rng.uint32()
  const k2 = rng.uint32()
  const k3 = rng.uint32()
  const top = Math.min(30, Math.floor(Math.log2(model.reversion_seconds)))
  const sigmaPerSqrtSecond = model.volatility / Math.sqrt(SECONDS_PER_YEAR)
  // Level j (1 … top): tents of width 2^j s, height std σ·√(2^j)/2.
  const widthsMs = new Float64Array(top + 1)
  const amplitudes = new Float64Array(top + 1)
  for (let j = 1; j <= top; j++) {
    widthsMs[j] = 2 ** j * 1000
    amplitudes[j] = (sigmaPerSqrtSecond * Math.sqrt(2 ** j)) / 2
  }
  return { k0, k1, k2, k3, top, blockMs: 2 ** top * 1000, edgeStd: sigmaPerSqrtSecond * Math.sqrt(2 ** top / 2), widthsMs, amplitudes }
}
