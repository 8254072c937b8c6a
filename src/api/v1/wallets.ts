import { ClosableWalletIdParams, WalletIdParams } from '../../schemas/path-params.js'
import { BalanceSchema, CreateWalletSchema, ListWalletsQuery, UpdateWalletSchema, WalletSchema } from '../../schemas/wallet.js'
import { presentBalance, presentWallet } from '../../ledger/present.js'
import { defineRoute, presentPage } from '../../http/route.js'

const tag = 'Wallets'

export const walletRoutes = [
  defineRoute({
    method: 'post', path: '/v1/wallets', operationId: 'createWallet', summary: 'Create a wallet', tag, scope: 'wallets:write',
    request: { body: CreateWalletSchema },
    status: 201, response: WalletSchema,
    handler: ({ body }, ctx) => presentWallet(ctx.deps.services.wallets.create(ctx.account, body)),
  }),
  defineRoute({
    method: 'get', path: '/v1/wallets', operationId: 'listWallets', summary: 'List wallets, newest first', tag, scope: 'wallets:read',
    request: { query: ListWalletsQuery },
    status: 200, response: WalletSchema, list: true,
    handler: ({ query: { limit, offset, ...filter } }, ctx) => presentPage(ctx.deps.services.wallets.list(ctx.account, filter, offset, limit), presentWallet),
  }),
  defineRoute({
    method: 'get', path: '/v1/wallets/{id}', operationId: 'getWallet', summary: 'Retrieve a wallet', tag, scope: 'wallets:read',
    request: { params: WalletIdParams },
    status: 200, response: WalletSchema, errors: ['resource_missing'],
    handler: ({ params }, ctx) => presentWallet(ctx.deps.services.wallets.get(ctx.account, params.id)),
  }),
  defineRoute({
    method: 'put', path: '/v1/wallets/{id}', operationId: 'updateWallet', summary: 'Update a wallet’s name, metadata or status (active/frozen)', tag, scope: 'wallets:write',
    request: { params: WalletIdParams, body: UpdateWalletSchema },
    status: 200, response: WalletSchema, errors: ['resource_missing', 'invalid_state_transition'],
    handler: ({ params, body }, ctx) => presentWallet(ctx.deps.services.wallets.update(ctx.account, params.id, body)),
  }),
  defineRoute({
    method: 'delete', path: '/v1/wallets/{id}', operationId: 'deleteWallet', summary: 'Close an empty wallet', tag, scope: 'wallets:write',
    request: { params: ClosableWalletIdParams },
    status: 200, response: WalletSchema, errors: ['resource_missing', 'wallet_not_empty'],
    handler: ({ params }, ctx) => presentWallet(ctx.deps.services.wallets.close(ctx.account, params.id)),
  }),
  defineRoute({
    method: 'get', path: '/v1/wallets/{id}/balance', operationId: 'getWalletBalance', summary: 'Retrieve a wallet’s balance', tag, scope: 'wallets:read',
    request: { params: WalletIdParams },
    status: 200, response: BalanceSchema, errors: ['resource_missing'],
    handler: ({ params }, ctx) => presentBalance(ctx.deps.services.wallets.get(ctx.account, params.id)),
  }),
]
