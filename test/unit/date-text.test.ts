import { describe, expect, it } from 'vitest'
import { httpDateOf, isoOf } from '../../src/date-text.js'

/** Both forms beside V8's, for one instant: the functions promise the same characters. */
const sameAsV8 = (instant: number) => {
  expect(isoOf(instant)).toBe(new Date(instant).toISOString())
  expect(httpDateOf(instant)).toBe(new Date(instant).toUTCString())
}

/** The instants among `instants` where either form differs from V8's (a loop: an expect per instant is slow). */
const mismatches = (instants: readonly number[]) =>
  instants.filter((instant) => isoOf(instant) !== new Date(instant).toISOString() || httpDateOf(instant) !== new Date(instant).toUTCString())

/** first, first + step, … up to last. */
function* range(first: number, last: number, step: number): Generator<number> {
  for (let value = first; value <= last; value += step) yield value
}

/** Seeded draws over [low, high] (a 32-bit linear congruential generator, two draws an instant): the same on every run. */
function* seededInstants(count: number, low: number, high: number): Generator<number> {
  let state = 20_261_130
  const next = () => (state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32
  for (let i = 0; i < count; i++) yield low + Math.floor((next() + next() / 2 ** 32) * (high - low + 1))
}

describe('isoOf and httpDateOf', () => {
  it('write what V8 writes at the edges of their years, of leap days and of the epoch', () => {
    for (const instant of [
      0, -1, 1, 999, 1000, 86_399_999, 86_400_000,
      -62_167_219_200_000, // 0000-01-01T00:00:00.000Z, the first instant formatted here
      253_402_300_799_999, // 9999-12-31T23:59:59.999Z, the last
      951_782_400_000, 951_868_799_999, // 2000-02-29, a leap day of a year divisible by 400
      4_107_456_000_000, 4_107_542_400_000, // 2100-02-28 and 2100-03-01: 2100 has no leap day
      -2_203_891_200_000, // 1900-03-01
      -5_364_662_400_000, // 1800-01-01
      1_764_500_000_000,
    ]) sameAsV8(instant)
    expect(isoOf(951_782_400_000)).toBe('2000-02-29T00:00:00.000Z')
    expect(httpDateOf(4_107_542_400_000)).toBe('Mon, 01 Mar 2100 00:00:00 GMT')
    expect(httpDateOf(0)).toBe('Thu, 01 Jan 1970 00:00:00 GMT')
  })

  it('write what V8 writes for the first and last millisecond of every day from 1900 to 2200, and of every 97th day from 0000 to 9999', () => {
    const days = [...range(-25_567, 84_006, 1), ...range(-719_528, 2_932_896, 97)]
    expect(days.length).toBe(109_574 + 37_654)
    expect(mismatches(days.flatMap((day) => [day * 86_400_000, day * 86_400_000 + 86_399_999]))).toEqual([])
  })

  it('write what V8 writes for 200,000 seeded instants in those years', () => {
    const instants = [...seededInstants(200_000, -62_167_219_200_000, 253_402_300_799_999)]
    expect(new Set(instants).size).toBeGreaterThan(199_000)
    expect(mismatches(instants)).toEqual([])
  })

  it('leave instants outside the years 0 to 9999 to V8, six-digit years and all', () => {
    for (const instant of [-62_167_219_200_001, 253_402_300_800_000, 8.64e15, -8.64e15]) sameAsV8(instant)
    expect(isoOf(253_402_300_800_000)).toBe('+010000-01-01T00:00:00.000Z')
    expect(isoOf(-62_167_219_200_001)).toBe('-000001-12-31T23:59:59.999Z')
  })

  it('throw as V8 does for what is no instant, and truncate fractions as a Date does', () => {
    expect(() => isoOf(Number.NaN)).toThrow(RangeError)
    expect(() => isoOf(8.64e15 + 1)).toThrow(RangeError)
    expect(httpDateOf(Number.NaN)).toBe('Invalid Date')
    sameAsV8(1.5)
    sameAsV8(-1.5)
  })
})
