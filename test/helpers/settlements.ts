import type { TestSandbox } from './start-test-sandbox.js'
import { DEFAULT_KEY, institutionalWallet } from './start-test-sandbox.js'

/** Valid beneficiaries per rail (published check-digit examples), for settlement tests. */
export const BENEFICIARIES = {
  USD: { name: 'Ada Lovelace', country: 'US', routing_number: '021000021', account_number: '123456789' },
  EUR: { name: 'Ada Lovelace', country: 'DE', iban: 'DE89370400440532013000' },
  GBP: { name: 'Ada Lovelace', country: 'GB', sort_code: '20-00-00', account_number: '31926819' },
  MXN: { name: 'Ada Lovelace', country: 'MX', clabe: '032180000118359719' },
} as const

export const bankDestination = (currency: keyof typeof BENEFICIARIES, beneficiary: Record<string, string> = {}) => ({
  type: 'bank_account',
  currency,
  beneficiary: { ...BENEFICIARIES[currency], ...beneficiary },
})

export async function createSettlement(sb: TestSandbox, body: Record<string, unknown>, status = 201, key = DEFAULT_KEY) {
  const res = await sb.api.post('/v1/settlements').set(sb.auth(key)).send(body)
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`)
  return res.body
}

export async function getSettlement(sb: TestSandbox, id: string, key = DEFAULT_KEY) {
  return (await sb.api.get(`/v1/settlements/${id}`).set(sb.auth(key)).expect(200)).body.data
}

export async function balanceOf(sb: TestSandbox, walletId: string, key = DEFAULT_KEY) {
  return (await sb.api.get(`/v1/wallets/${walletId}/balance`).set(sb.auth(key)).expect(200)).body.data as { available_balance: string; locked_balance: string; total_balance: string }
}

export async function advanceClock(sb: TestSandbox, ms: number) {
  await sb.api.post('/_sandbox/clock/advance').send({ ms }).expect(200)
}

export { institutionalWallet }

/** Valid external addresses per network (from the chain tests). */
export const EXTERNAL = {
  polygon: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  ethereum: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  stellar: 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7',
  solana: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
} as const

/** The settlement events the sandbox emitted, in order, as `type` (or `type:status`). */
export function recordSettlementEvents(sb: TestSandbox): Array<{ type: string; id: string; status: string }> {
  const events: Array<{ type: string; id: string; status: string }> = []
  sb.sandbox.bus.on('event', (event) => {
    if (!event.type.startsWith('settlement.')) return
    const object = event.data.object as { id: string; status: string }
    events.push({ type: event.type, id: object.id, status: object.status })
  })
  return events
}

/** Base units of a decimal string, for exact balance arithmetic in tests. */
export const units = (amount: string, decimals: number): bigint => {
  const [whole, fraction = ''] = amount.split('.')
  return BigInt(whole! + fraction.padEnd(decimals, '0'))
}
export const show = (value: bigint, decimals: number): string => {
  const text = value.toString().padStart(decimals + 1, '0')
  const fraction = text.slice(-decimals).replace(/0+$/, '')
  return `${text.slice(0, -decimals)}.${fraction.padEnd(2, '0')}`
}
