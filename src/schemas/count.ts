import * as z from 'zod'

/**
 * A count, size or duration: never negative. In a module of its own so that the health check's
 * route, the first a start answers, does not build the shared schemas of src/schemas/common.ts
 * (which re-exports it) for one of them (issue 33).
 */
export const CountSchema = z.number().int().nonnegative()
