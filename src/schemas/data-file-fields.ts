import * as z from 'zod'
import { AMOUNT_PATTERN } from '../money.js'

/** The field schemas every record of the data file (and a snapshot) is built of. */

/** A record as the data file holds it: base units (bigint) as strings of digits. */
export type Stored<T> = { [K in keyof T]: T[K] extends bigint ? string : T[K] }

export const units = z.string().regex(/^-?\d+$/, 'expected base units as a string of digits')
export const metadata = z.record(z.string(), z.string())
/**
 * An instant, ISO 8601 (`format: date-time` in the OpenAPI document). Checked as a string only: a
 * file holds millions of them, and the sandbox wrote them all.
 */
export const timestamp = z.string().meta({ format: 'date-time' })

export const decimal = z.string().regex(AMOUNT_PATTERN, 'expected a decimal string')

export const nullableText = z.string().nullable()
