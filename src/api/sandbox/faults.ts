import * as z from 'zod'
import { ApiError, echoId } from '../../errors.js'
import { defineRoute } from '../../http/route.js'
import { CountSchema } from '../../schemas/common.js'
import { FaultIdParams } from '../../schemas/path-params.js'
import { CreateFaultSchema, FaultSchema } from '../../schemas/faults.js'
import { AccountScopeQuery } from '../../schemas/account-scope.js'
import { scopedAccountId } from './account-scope.js'

const tag = 'Sandbox control'
const auth = 'control' as const

/** `/_sandbox/faults` (CONTRACT.md sections 10 and 13); the request journal shows what they did (requests.ts). */
export const faultControlRoutes = [
  defineRoute({
    method: 'get', path: '/_sandbox/faults', operationId: 'sandboxListFaults', summary: 'Fault rules, in the order they are tried (all, or one account’s)', tag, auth,
    request: { query: AccountScopeQuery },
    status: 200, response: z.array(FaultSchema), errors: ['resource_missing'],
    handler: ({ query }, ctx) => ctx.deps.control.faults.list(scopedAccountId(ctx, query)),
  }),
  defineRoute({
    method: 'post', path: '/_sandbox/faults', operationId: 'sandboxCreateFault', summary: 'Inject latency, errors, dropped connections or timeouts into matching /v1 requests (of every account, or one)', tag, auth,
    request: { body: CreateFaultSchema },
    status: 201, response: FaultSchema, errors: ['resource_missing'],
    handler: ({ body }, ctx) => ctx.deps.control.faults.add(body, scopedAccountId(ctx, body)),
  }),
  defineRoute({
    method: 'delete', path: '/_sandbox/faults', operationId: 'sandboxClearFaults', summary: 'Remove every fault rule, or one account’s', tag, auth,
    request: { query: AccountScopeQuery },
    status: 200, response: z.object({ deleted: CountSchema }), errors: ['resource_missing'],
    handler: ({ query }, ctx) => {
      const accountId = scopedAccountId(ctx, query)
      return { deleted: ctx.deps.control.faults.clear(accountId === undefined ? undefined : ctx.deps.control.accountKeys(accountId)) }
    },
  }),
  defineRoute({
    method: 'delete', path: '/_sandbox/faults/{id}', operationId: 'sandboxDeleteFault', summary: 'Remove one fault rule', tag, auth,
    request: { params: FaultIdParams },
    status: 200, response: z.object({ id: z.string(), object: z.literal('fault'), deleted: z.literal(true) }), errors: ['resource_missing'],
    handler: ({ params }, ctx) => {
      if (!ctx.deps.control.faults.remove(params.id)) throw new ApiError('resource_missing', `No such fault: '${echoId(params.id)}'. GET /_sandbox/faults lists them.`)
      return { id: params.id, object: 'fault', deleted: true }
    },
  }),
]
