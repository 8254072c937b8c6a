import { defineRoute } from '../../http/route.js'
import { RestoreResultSchema, SnapshotSchema } from '../../schemas/control.js'

const tag = 'Sandbox control'
const auth = 'control' as const

/** A restore carries the whole ledger, far more than the 100 KB `--body-limit` meant for API requests. */
const RESTORE_BODY_LIMIT = 256 * 1024 * 1024

/**
 * `GET /_sandbox/snapshot` and `POST /_sandbox/restore` (CONTRACT.md sections 10 and 13): the whole
 * state as the data file's JSON, and that document back. Typical use: snapshot after a suite's
 * expensive set-up, restore before each test.
 */
export const snapshotRoutes = [
  defineRoute({
    method: 'get', path: '/_sandbox/snapshot', operationId: 'sandboxSnapshot', summary: 'The whole state (accounts, keys, wallets, payments, webhooks, rules) as JSON', tag, auth,
    status: 200, response: SnapshotSchema,
    handler: (_input, ctx) => ({ ...ctx.deps.store.toData(), taken_at: ctx.deps.clock.nowIso() }),
  }),
  defineRoute({
    method: 'post', path: '/_sandbox/restore', operationId: 'sandboxRestore', summary: 'Replace the whole state with the data of a snapshot, the clock set to its taken_at', tag, auth,
    request: { body: SnapshotSchema }, bodyLimit: RESTORE_BODY_LIMIT,
    status: 200, response: RestoreResultSchema,
    handler: ({ body }, ctx) => {
      const { taken_at: takenAt, ...data } = body
      ctx.deps.control.restore(data, takenAt === undefined ? undefined : Date.parse(takenAt))
      return { restored: true as const, accounts: ctx.deps.store.accounts.size, keys: ctx.deps.store.keys.size }
    },
  }),
]
