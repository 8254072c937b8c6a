import type { TestSandbox } from './start-test-sandbox.js'
import { DEFAULT_KEY } from './start-test-sandbox.js'

/** Fresh wallets of an account for order tests, funded with exact amounts by control deposits. */
export async function tradingWallets(sb: TestSandbox, funds: { ETH?: string; USDC?: string } = {}, key = DEFAULT_KEY) {
  const wallet = async (currency: string, amount: string | undefined) => {
    const created = await sb.api.post('/v1/wallets').set(sb.auth(key)).send({ name: `${currency} trading`, currency, network: 'ethereum' }).expect(201)
    if (amount) await sb.api.post(`/_sandbox/wallets/${created.body.data.id}/deposit`).send({ amount }).expect(200)
    return created.body.data.id as string
  }
  return { eth: await wallet('ETH', funds.ETH), usdc: await wallet('USDC', funds.USDC) }
}

export async function balanceOf(sb: TestSandbox, walletId: string, key = DEFAULT_KEY) {
  const res = await sb.api.get(`/v1/wallets/${walletId}/balance`).set(sb.auth(key)).expect(200)
  const { available_balance, locked_balance } = res.body.data as { available_balance: string; locked_balance: string }
  return { available: available_balance, locked: locked_balance }
}

/** The books of every account: empty when conservation and balances = postings hold. */
export function ledgerViolations(sb: TestSandbox, check: (account: never) => string[]): string[] {
  return [...sb.sandbox.store.accounts.values()].flatMap((account) => check(account as never))
}
