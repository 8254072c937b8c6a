import * as z from 'zod'
import { wallClockMs } from '../../clock.js'
import { lazily } from '../../lazily.js'
import { defineRoute } from '../../http/route.js'
import { countSchema } from '../../schemas/count.js'
import { VERSION } from '../../version.js'
import { isoOf } from '../../date-text.js'

const answerSchema = lazily(() =>
  z.object({
    status: z.literal('ok'),
    version: z.string(),
    uptime_s: countSchema(),
    started_at: z.iso.datetime({ precision: 3 }).meta({ description: 'When this sandbox started (wall clock, not the sandbox clock): a client that lost its connection tells a restart by it.' }),
  }),
)

/**
 * `GET /_sandbox/health`, in a group of its own (src/api/route-table.ts): what a start is polled
 * with until it answers, so the first answer does not wait for the control API's schemas to be
 * built (issue 33, docs/benchmarks.md).
 */
export const healthRoutes = [
  defineRoute({
    method: 'get', path: '/_sandbox/health', operationId: 'sandboxHealth', summary: 'Liveness and version (no control token needed, for health checks)', tag: 'Sandbox control', auth: 'none',
    status: 200,
    // What the OpenAPI document says it answers, built when the document asks: the start's first
    // answer need not build it (about 1.5 % of a cold start, issue 33).
    get response() {
      return answerSchema()
    },
    handler: (_input, ctx) => ({ status: 'ok', version: VERSION, uptime_s: Math.floor((wallClockMs() - ctx.deps.startedAtMs) / 1000), started_at: isoOf(ctx.deps.startedAtMs) }),
  }),
]
