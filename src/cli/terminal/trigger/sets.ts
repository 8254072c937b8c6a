import { TerminalError } from '../target.js'

/**
 * `--set field=value` (repeatable): overrides of a create request, dotted for nesting
 * (`metadata.order=42`, `destination.network=solana`). Every field is checked against the fields the
 * request takes before anything is created; `prefix.*` in `allowed` takes any key under it.
 */
export function parseSets(entries: readonly string[], allowed: readonly string[], resource: string): Record<string, unknown> {
  const overrides: Record<string, unknown> = {}
  for (const entry of entries) {
    const at = entry.indexOf('=')
    if (at <= 0) throw new TerminalError(`--set takes field=value (such as amount=5.00 or metadata.order=42); got ${JSON.stringify(entry)}`)
    const field = entry.slice(0, at)
    if (!allows(allowed, field)) throw new TerminalError(`a ${resource} has no field ${field} to set; the fields are ${allowed.join(', ')}`)
    place(overrides, field.split('.'), entry.slice(at + 1))
  }
  return overrides
}

const allows = (allowed: readonly string[], field: string) =>
  allowed.some((name) => name === field || (name.endsWith('.*') && field.startsWith(name.slice(0, -1)) && field.length > name.length - 1))

function place(target: Record<string, unknown>, path: string[], value: string): void {
  const [head, ...rest] = path as [string, ...string[]]
  if (rest.length === 0) {
    target[head] = value
    return
  }
  const inner = (target[head] ??= {})
  if (typeof inner !== 'object' || inner === null) throw new TerminalError(`--set gives ${head} a value and fields too; give one or the other`)
  place(inner as Record<string, unknown>, rest, value)
}

/** `defaults` with `overrides` laid over them, nested objects merged. */
export function overlay<T extends Record<string, unknown>>(defaults: T, overrides: Record<string, unknown>): T {
  const merged: Record<string, unknown> = { ...defaults }
  for (const [key, value] of Object.entries(overrides)) {
    const base = merged[key]
    merged[key] = isObject(base) && isObject(value) ? overlay(base, value) : value
  }
  return merged as T
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
