import * as z from 'zod'
import { ApiError, echoId } from '../../errors.js'
import { defineRoute } from '../../http/route.js'
import { CountSchema } from '../../schemas/common.js'
import {
  AccountSchema, AdvanceClockSchema, ClockQuery, ClockSchema, CreatedKeySchema, CreateKeySchema, ListAccountsQuery, PatchAccountSchema, ResetResultSchema, ResetSchema,
} from '../../schemas/control.js'
import type { AppDeps } from '../../http/context.js'
import { AccountIdParams } from '../../schemas/path-params.js'
import { seedOf } from '../../config.js'
import type { SigningKeyRecord } from '../../model/records.js'
import { paymentControlRoutes } from './payments.js'
import { scopedAccountId } from './account-scope.js'

const tag = 'Sandbox control'
const auth = 'control' as const

function presentAccount(deps: AppDeps, accountId: string) {
  const state = deps.store.accounts.get(accountId)!
  const keys = [...deps.store.keys.values()].filter((k) => k.account_id === accountId).map(({ key, type, scopes, allowed_ips, signing }) => ({
    key, type, scopes: [...scopes], allowed_ips: [...allowed_ips], ...(signing ? { signing: listedSigning(signing) } : {}),
  }))
  return { id: accountId, keys, whitelist_enforced: state.account.whitelist_enforced, created_at: state.account.created_at }
}

/** A key's signing as accounts list it: never the HMAC secret. */
const listedSigning = (signing: SigningKeyRecord) => (signing.alg === 'ed25519' ? { ...signing } : { key_id: signing.key_id, alg: signing.alg })

const hidden = (secret: string | undefined) => (secret === undefined ? null : '********')


export const controlRoutes = [
  defineRoute({
    method: 'get', path: '/_sandbox/config', operationId: 'sandboxConfig', summary: 'The running configuration (control token and signing secret hidden)', tag, auth,
    status: 200, response: z.record(z.string(), z.unknown()),
    handler: (_input, ctx) => ({ ...ctx.deps.config, seed: seedOf(ctx.deps.config), controlToken: hidden(ctx.deps.config.controlToken), signingSecret: hidden(ctx.deps.config.signingSecret) }),
  }),
  defineRoute({
    method: 'post', path: '/_sandbox/reset', operationId: 'sandboxReset', summary: 'Back to the fixtures: everything, or one account by api_key', tag, auth,
    request: { body: ResetSchema },
    status: 200, response: ResetResultSchema, errors: ['resource_missing'],
    handler: ({ body }, ctx) => {
      const { control, store } = ctx.deps
      if (body.api_key === undefined) {
        control.resetAll()
        return { reset: 'all', account_id: null }
      }
      const key = store.keys.get(body.api_key)
      if (!key) throw new ApiError('resource_missing', `No account uses the key '${echoId(body.api_key)}'.`, { param: 'api_key' })
      control.resetAccount(key.account_id)
      return { reset: 'account', account_id: key.account_id }
    },
  }),
  defineRoute({
    method: 'get', path: '/_sandbox/accounts', operationId: 'sandboxListAccounts', summary: 'Accounts and their keys (filter by api_key)', tag, auth,
    request: { query: ListAccountsQuery },
    status: 200, response: z.array(AccountSchema),
    handler: ({ query }, ctx) => {
      const { store } = ctx.deps
      if (query.api_key !== undefined) {
        const key = store.keys.get(query.api_key)
        return key ? [presentAccount(ctx.deps, key.account_id)] : []
      }
      return [...store.accounts.keys()].map((id) => presentAccount(ctx.deps, id))
    },
  }),
  defineRoute({
    method: 'patch', path: '/_sandbox/accounts/{id}', operationId: 'sandboxUpdateAccount', summary: 'Turn whitelist enforcement on or off for one account', tag, auth,
    request: { params: AccountIdParams, body: PatchAccountSchema },
    status: 200, response: AccountSchema, errors: ['resource_missing'],
    handler: ({ params, body }, ctx) => {
      const state = ctx.deps.store.accounts.get(params.id)
      if (!state) throw new ApiError('resource_missing', `No such account: '${echoId(params.id)}'.`)
      ctx.deps.control.setWhitelistEnforced(state, body.whitelist_enforced)
      return presentAccount(ctx.deps, params.id)
    },
  }),
  defineRoute({
    method: 'post', path: '/_sandbox/keys', operationId: 'sandboxCreateKey', summary: 'Create a secret or restricted key (on a new seeded account without account_id), optionally one that must sign its requests', tag, auth,
    request: { body: CreateKeySchema },
    status: 201, response: CreatedKeySchema, errors: ['resource_missing'],
    handler: ({ body }, ctx) => {
      if (body.account_id !== undefined && !ctx.deps.store.accounts.has(body.account_id)) {
        throw new ApiError('resource_missing', `No such account: '${echoId(body.account_id)}'.`, { param: 'account_id' })
      }
      const signing = body.signing && { alg: body.signing, publicKey: body.public_key }
      const key = ctx.deps.accounts.createKey({ accountId: body.account_id, type: body.type, scopes: body.scopes ?? ['*'], allowedIps: body.allowed_ips, signing })
      const answer = { key: key.key, account_id: key.account_id, type: key.type, scopes: [...key.scopes], allowed_ips: [...key.allowed_ips] }
      if (!key.signing) return answer
      const { key_id, alg, ...material } = key.signing
      return { ...answer, signing: { key_id, alg, ...material, ...(key.private_key === undefined ? {} : { private_key: key.private_key }) } }
    },
  }),
  defineRoute({
    method: 'get', path: '/_sandbox/clock', operationId: 'sandboxClock', summary: 'The sandbox clock, or (api_key / account_id) one account’s', tag, auth,
    request: { query: ClockQuery },
    status: 200, response: ClockSchema, errors: ['resource_missing'],
    handler: ({ query }, ctx) => ctx.deps.control.clocks.read(scopedAccountId(ctx, query)),
  }),
  defineRoute({
    method: 'post', path: '/_sandbox/clock/advance', operationId: 'sandboxAdvanceClock', tag, auth,
    summary: 'Move the sandbox clock (every account with it) or one account’s clock forward, running everything that falls due in time order',
    request: { body: AdvanceClockSchema },
    status: 200, response: ClockSchema, errors: ['resource_missing'],
    handler: ({ body }, ctx) => ctx.deps.control.clocks.advance(body.ms, scopedAccountId(ctx, body)),
  }),
  ...paymentControlRoutes,
]
