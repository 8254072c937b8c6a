import { writeFileSync } from 'node:fs'
import { isLiveKey } from './secrets.js'

/**
 * Exit codes (CONTRACT.md section 22): 0 when every difference is accepted, 1 when one is not, 2 for
 * a usage error or a hosted side that cannot be reached or refuses the key. Everything here is
 * checked before any request is sent.
 */
export const EXIT = { same: 0, newDifferences: 1, usage: 2 } as const

/** A run that cannot start or go on: one line on stderr, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError'
}

/** An http(s) URL, with any trailing slash dropped; `what` names the flag in the message. */
export function httpUrl(value: string, what: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new UsageError(`${what} ${value} is not a URL: give an http:// or https:// URL`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${what} ${value} is not http(s): parity and record only speak HTTP to a sandbox`)
  if (url.username !== '' || url.password !== '') throw new UsageError(`${what} must not carry credentials (user:password@); the key goes in --api-key`)
  return value.replace(/\/+$/, '')
}

/** The hosted API URL, which ends in `/v1`: answers where `/v1` is (its root). */
export function hostedRoot(value: string, flag = '--against'): string {
  const url = httpUrl(value, flag)
  if (!url.endsWith('/v1')) throw new UsageError(`${flag} ${value} must be the hosted sandbox's API URL, ending in /v1 (such as https://sandbox.example.com/v1)`)
  return url.slice(0, -'/v1'.length)
}

/** A key parity may send: present, and never a production key. */
export function sandboxKey(key: string | undefined, what: string): string {
  if (key === undefined || key.trim() === '') throw new UsageError(`${what} is missing: give the hosted sandbox's key`)
  if (isLiveKey(key)) throw new UsageError(`${what} is a live key (sk_live_…): parity runs against a sandbox, never production; give the sandbox's key (sk_test_…)`)
  return key.trim()
}

/** `--rate`: a number of requests a second above zero. */
export function rateOf(value: string | number | undefined, fallback: number): number {
  if (value === undefined) return fallback
  const rate = Number(value)
  if (!Number.isFinite(rate) || rate <= 0) throw new UsageError(`--rate ${value} is not a number of requests a second above 0 (the hosted sandbox allows 10; the default is ${fallback})`)
  return rate
}

/** Writes a file a flag names; a file that cannot be written is a usage error, not a crash. */
export function writeNamedFile(flag: string, file: string, text: string): void {
  try {
    writeFileSync(file, text)
  } catch (error) {
    throw new UsageError(`${flag} ${file}: cannot write it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
  }
}
