import * as z from 'zod'
import { lazily } from '../lazily.js'

/**
 * A count, size or duration: never negative. In a module of its own, and built on first use, so that
 * the health check's route, the first a start answers, builds no schema at all: not the shared ones of
 * src/schemas/common.ts (which builds this one as it loads, as `CountSchema`), nor this one, whose
 * making was the first zod schema of a start and cost it about 2 ms (issue 33).
 */
export const countSchema = lazily(() => z.number().int().nonnegative())
