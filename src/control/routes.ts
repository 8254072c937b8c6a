import { z } from 'zod'
import { VERSION } from '../version.js'
import { defineRoute } from '../http/route.js'
import { wallClockMs } from '../clock.js'

const tag = 'Sandbox control'
const startedAt = wallClockMs()

export const controlRoutes = [
  defineRoute({
    method: 'get', path: '/_sandbox/health', operationId: 'sandboxHealth', summary: 'Liveness and version (no control token needed, for health checks)', tag, auth: 'none',
    status: 200, response: z.object({ status: z.literal('ok'), version: z.string(), uptime_s: z.number() }),
    handler: () => ({ status: 'ok', version: VERSION, uptime_s: Math.floor((wallClockMs() - startedAt) / 1000) }),
  }),
]
