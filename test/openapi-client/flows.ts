import createClient from 'openapi-fetch'
// Generated from GET /v1/openapi.json by openapi-typescript, next to a copy of this file, by
// test/e2e/openapi-client.test.ts (so it is never stale); the main tsconfig leaves this folder out.
import type { components, paths } from './api-types.js'

type Wallet = components['schemas']['Wallet']
type Payment = components['schemas']['Payment']

/**
 * What a user's test suite would write with a client generated from the document: create a wallet
 * (leaving out `type`, which has a default) and pay into it from a seeded treasury wallet.
 */
export async function createWalletAndPayment(baseUrl: string, apiKey: string): Promise<{ wallet: Wallet; payment: Payment; treasuryBalance: string }> {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` } })

  const created = await client.POST('/v1/wallets', { body: { name: 'Typed client wallet', currency: 'USDC', network: 'polygon' } })
  if (!created.data) throw new Error(`createWallet answered ${created.response.status}: ${JSON.stringify(created.error)}`)
  const wallet = created.data.data

  const treasuries = await client.GET('/v1/wallets', { params: { query: { type: 'institutional', network: 'polygon', currency: 'USDC', limit: 1 } } })
  const treasury = treasuries.data?.data[0]
  if (!treasury) throw new Error(`listWallets answered ${treasuries.response.status}`)

  const paid = await client.POST('/v1/payments', {
    params: { header: { 'Idempotency-Key': 'typed-client-payment-1' } },
    body: { source_wallet: treasury.id, recipient: wallet.id, amount: '12.50', currency: 'USDC', description: 'typed client' },
  })
  if (!paid.data) throw new Error(`createPayment answered ${paid.response.status}: ${JSON.stringify(paid.error)}`)

  const balance = await client.GET('/v1/wallets/{id}/balance', { params: { path: { id: treasury.id } } })
  if (!balance.data) throw new Error(`getWalletBalance answered ${balance.response.status}`)
  return { wallet, payment: paid.data.data, treasuryBalance: balance.data.data.available_balance }
}

/** Calls the generated types must refuse; tsc fails if one of them type-checks (the document would be too loose). */
export function refusedByTheTypes(client: ReturnType<typeof createClient<paths>>): void {
  // @ts-expect-error limit is an integer, not a string
  void client.GET('/v1/wallets', { params: { query: { limit: '5' } } })
  // @ts-expect-error currency is a closed set
  void client.POST('/v1/wallets', { body: { name: 'x', currency: 'DOGE', network: 'polygon' } })
  // @ts-expect-error name is required
  void client.POST('/v1/wallets', { body: { currency: 'USDC', network: 'polygon' } })
}

/** Answers are typed precisely: closed sets are unions, not strings. */
export function statusIsAClosedSet(payment: Payment): 'pending' | 'processing' | 'completed' | 'failed' {
  return payment.status
}
