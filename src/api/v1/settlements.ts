import { presentSettlement } from '../../ledger/present-settlement.js'
import { defineRoute, presentPage } from '../../http/route.js'
import { SettlementIdParams } from '../../schemas/path-params.js'
import { CreateSettlementSchema, ListSettlementsQuery, SettlementSchema } from '../../schemas/settlement.js'

const tag = 'Settlements'

/** Cross-border settlements (CONTRACT.md section 16). */
export const settlementRoutes = [
  defineRoute({
    method: 'post', path: '/v1/settlements', operationId: 'createSettlement', summary: 'Create a cross-border settlement', tag, scope: 'settlements:write',
    request: { body: CreateSettlementSchema },
    status: 201, response: SettlementSchema,
    errors: ['resource_missing', 'wallet_inactive', 'recipient_not_whitelisted', 'insufficient_funds', 'quote_expired', 'quote_already_used', 'idempotency_key_reused', 'idempotency_key_in_use'],
    handler: ({ body }, ctx) => presentSettlement(ctx.deps.services.settlements.create(ctx.account, body)),
  }),
  defineRoute({
    method: 'get', path: '/v1/settlements', operationId: 'listSettlements', summary: 'List settlements, newest first', tag, scope: 'settlements:read',
    request: { query: ListSettlementsQuery },
    status: 200, response: SettlementSchema, list: true,
    handler: ({ query: { limit, offset, ...filter } }, ctx) => presentPage(ctx.deps.services.settlements.list(ctx.account, filter, offset, limit), presentSettlement),
  }),
  defineRoute({
    method: 'get', path: '/v1/settlements/{id}', operationId: 'getSettlement', summary: 'Retrieve a settlement', tag, scope: 'settlements:read',
    request: { params: SettlementIdParams },
    status: 200, response: SettlementSchema, errors: ['resource_missing'],
    handler: ({ params }, ctx) => presentSettlement(ctx.deps.services.settlements.get(ctx.account, params.id)),
  }),
]
