import { DeletedSchema } from '../../schemas/common.js'
import { WhitelistedAddressIdParams } from '../../schemas/path-params.js'
import { CreateWhitelistedAddressSchema, ListWhitelistQuery, WhitelistedAddressSchema } from '../../schemas/whitelist.js'
import { presentWhitelisted } from '../../ledger/present.js'
import { defineRoute, presentPage } from '../../http/route.js'

const tag = 'Whitelisted addresses'

export const whitelistRoutes = [
  defineRoute({
    method: 'post', path: '/v1/whitelisted_addresses', operationId: 'createWhitelistedAddress', summary: 'Whitelist an external address', tag, scope: 'whitelist:write',
    request: { body: CreateWhitelistedAddressSchema },
    status: 201, response: WhitelistedAddressSchema,
    handler: ({ body }, ctx) => presentWhitelisted(ctx.deps.services.whitelist.add(ctx.account, body)),
  }),
  defineRoute({
    method: 'get', path: '/v1/whitelisted_addresses', operationId: 'listWhitelistedAddresses', summary: 'List whitelisted addresses, newest first', tag, scope: 'whitelist:read',
    request: { query: ListWhitelistQuery },
    status: 200, response: WhitelistedAddressSchema, list: true,
    handler: ({ query: { limit, offset, ...filter } }, ctx) => presentPage(ctx.deps.services.whitelist.list(ctx.account, filter, offset, limit), presentWhitelisted),
  }),
  defineRoute({
    method: 'delete', path: '/v1/whitelisted_addresses/{id}', operationId: 'deleteWhitelistedAddress', summary: 'Remove a whitelisted address', tag, scope: 'whitelist:write',
    request: { params: WhitelistedAddressIdParams },
    status: 200, response: DeletedSchema, errors: ['resource_missing'],
    handler: ({ params }, ctx) => {
      const entry = ctx.deps.services.whitelist.remove(ctx.account, params.id)
      return { id: entry.id, object: 'whitelisted_address', deleted: true }
    },
  }),
]
