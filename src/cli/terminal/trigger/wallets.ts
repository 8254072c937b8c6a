import { TerminalError } from '../target.js'
import type { TriggerSteps } from './recipe.js'

interface Wallet {
  id: string
  currency: string
  network: string
  balance: string
  status: string
}

/**
 * The key's institutional wallet of that currency (and network, when given) that can spend `amount`;
 * when none holds enough, the first is funded with a control deposit (reported as a step).
 */
export async function fundedWallet(steps: TriggerSteps, want: { currency: string; network?: string; amount: string }): Promise<Wallet> {
  const query = new URLSearchParams({ type: 'institutional', status: 'active', currency: want.currency, limit: '100', ...(want.network ? { network: want.network } : {}) })
  const wallets = await steps.connection.api<Wallet[]>('GET', `/wallets?${query}`)
  const funded = wallets.find((wallet) => Number(wallet.balance) >= Number(want.amount))
  if (funded) return funded
  const first = wallets[0]
  // An amount that is not one: the create request gets it, and the API says what is wrong with it.
  if (first && !/^\d+(\.\d+)?$/.test(want.amount)) return first
  if (!first) throw new TerminalError(`the account has no active institutional ${want.currency} wallet${want.network ? ` on ${want.network}` : ''}; --set another currency or network, or a source wallet`)
  await steps.call(`POST /_sandbox/wallets/${first.id}/deposit {"amount":"${want.amount}"}`, () => steps.connection.control.deposit(first.id, want.amount))
  return first
}

/** A valid address on each network that no fixture gives an outcome to: where a trigger's payments go. */
export const PLAIN_RECIPIENTS: Record<string, string> = {
  polygon: '0x52908400098527886E0F7030069857D2E4169EE7',
  ethereum: '0x52908400098527886E0F7030069857D2E4169EE7',
  solana: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV',
  stellar: 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7',
}

/** The network's plain recipient, or a clear refusal for a network the sandbox does not have. */
export function recipientOn(network: string): string {
  const address = PLAIN_RECIPIENTS[network]
  if (!address) throw new TerminalError(`there is no network ${network}; the networks are ${Object.keys(PLAIN_RECIPIENTS).join(', ')}`)
  return address
}
