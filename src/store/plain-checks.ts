import { NETWORKS } from '../model/networks.js'

/**
 * Checks without zod for the records a large data file holds by the million (payments, the wallets
 * every change set puts): each decoder tests the data with these first and runs its zod schema only
 * when they fail, to name the problem.
 */
export const NETWORK_SET: ReadonlySet<unknown> = new Set(NETWORKS)
export const DIGITS = /^-?\d+$/

export const isString = (value: unknown): value is string => typeof value === 'string'
export const isStringOrNull = (value: unknown) => value === null || typeof value === 'string'

export function isStringRecord(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  for (const key in value) if (typeof (value as Record<string, unknown>)[key] !== 'string') return false
  return true
}
