import { presentPayout } from '../../ledger/present.js'
import { PayoutIdParams } from '../../schemas/path-params.js'
import { CreatePayoutSchema, ListPayoutsQuery, PayoutSchema } from '../../schemas/payout.js'
import { defineRoute, presentPage } from '../../http/route.js'

const tag = 'Payouts'

/** Bulk payouts need the payments scopes (CONTRACT.md section 13): their items are payments. */
export const payoutRoutes = [
  defineRoute({
    method: 'post', path: '/v1/payouts', operationId: 'createPayout', summary: 'Create a bulk payout: one payment per item, all or nothing', tag, scope: 'payments:write',
    request: { body: CreatePayoutSchema },
    status: 201, response: PayoutSchema,
    errors: ['resource_missing', 'wallet_inactive', 'recipient_not_whitelisted', 'insufficient_funds', 'idempotency_key_reused', 'idempotency_key_in_use'],
    handler: ({ body }, ctx) => presentPayout(ctx.deps.services.payouts.create(ctx.account, body)),
  }),
  defineRoute({
    method: 'get', path: '/v1/payouts', operationId: 'listPayouts', summary: 'List bulk payouts, newest first', tag, scope: 'payments:read',
    request: { query: ListPayoutsQuery },
    status: 200, response: PayoutSchema, list: true,
    handler: ({ query: { limit, offset } }, ctx) => presentPage(ctx.deps.services.payouts.list(ctx.account, offset, limit), presentPayout),
  }),
  defineRoute({
    method: 'get', path: '/v1/payouts/{id}', operationId: 'getPayout', summary: 'Retrieve a bulk payout', tag, scope: 'payments:read',
    request: { params: PayoutIdParams },
    status: 200, response: PayoutSchema, errors: ['resource_missing'],
    handler: ({ params }, ctx) => presentPayout(ctx.deps.services.payouts.get(ctx.account, params.id)),
  }),
]
