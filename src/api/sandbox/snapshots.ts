import { defineRoute } from '../../http/route.js'
import { AccountScopeQuery } from '../../schemas/account-scope.js'
import { RestoreResultSchema, SnapshotSchema } from '../../schemas/snapshot.js'
import { scopedAccountId } from './account-scope.js'

const tag = 'Sandbox control'
const auth = 'control' as const

/** A restore carries the whole ledger, far more than the 100 KB `--body-limit` meant for API requests. */
const RESTORE_BODY_LIMIT = 256 * 1024 * 1024

/**
 * `GET /_sandbox/snapshot` and `POST /_sandbox/restore` (CONTRACT.md sections 10, 13 and 24): the
 * whole state as the data file's JSON and that document back, or (`?api_key=`) one account's state
 * and that account alone back. Typical use: snapshot after a suite's expensive set-up, restore
 * before each test; tests that share a sandbox snapshot and restore their own accounts.
 */
export const snapshotRoutes = [
  defineRoute({
    method: 'get', path: '/_sandbox/snapshot', operationId: 'sandboxSnapshot', tag, auth,
    summary: 'The whole state (accounts, keys, wallets, payments, webhooks, rules) as JSON, or (api_key / account_id) one account’s',
    request: { query: AccountScopeQuery },
    status: 200, response: SnapshotSchema, errors: ['resource_missing'],
    handler: ({ query }, ctx) => {
      const accountId = scopedAccountId(ctx, query)
      if (accountId !== undefined) return ctx.deps.control.accountSnapshots.take(accountId)
      return { ...ctx.deps.store.toData(), taken_at: ctx.deps.clock.nowIso() }
    },
  }),
  defineRoute({
    method: 'post', path: '/_sandbox/restore', operationId: 'sandboxRestore', tag, auth,
    summary: 'Replace the whole state with a snapshot, the clock set to its taken_at; an account’s snapshot replaces that account alone',
    request: { body: SnapshotSchema }, bodyLimit: RESTORE_BODY_LIMIT,
    status: 200, response: RestoreResultSchema, errors: ['parameter_invalid'],
    handler: ({ body }, ctx) => {
      const { store, control } = ctx.deps
      if (body.account_id !== undefined) control.accountSnapshots.restore(body)
      else {
        const { taken_at: takenAt, account_id: _account, events: _events, deliveries: _deliveries, ...data } = body
        control.restore(data, takenAt === undefined ? undefined : Date.parse(takenAt))
      }
      return { restored: true as const, accounts: store.accounts.size, keys: store.keys.size, account_id: body.account_id ?? null }
    },
  }),
]
