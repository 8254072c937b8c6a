import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_KEY, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'
import { balanceOf, bankDestination, EXTERNAL, institutionalWallet } from '../helpers/settlements.js'

let sb: TestSandbox
let source: { id: string }
let frozen: { id: string }
let ethWallet: { id: string }
beforeAll(async () => {
  sb = await startTestSandbox()
  source = await institutionalWallet(sb, 'polygon', 'USDC')
  ethWallet = await institutionalWallet(sb, 'ethereum', 'ETH')
  frozen = (await sb.api.post('/v1/wallets').set(sb.auth()).send({ name: 'frozen', currency: 'USDC', network: 'polygon' }).expect(201)).body.data
  await sb.api.put(`/v1/wallets/${frozen.id}`).set(sb.auth()).send({ status: 'frozen' }).expect(200)
})
afterAll(async () => {
  await sb.close()
})

const bank = (currency: 'USD' | 'EUR' | 'GBP' | 'MXN', beneficiary: Record<string, unknown>) => ({ ...bankDestination(currency), beneficiary: { ...bankDestination(currency).beneficiary, ...beneficiary } })
const address = (fields: Record<string, unknown>) => ({ type: 'address', network: 'polygon', currency: 'USDC', address: EXTERNAL.polygon, ...fields })

type Case = [name: string, body: () => Record<string, unknown>, status: number, code: string, param: string | undefined]
const CASES: Case[] = [
  ['no amount at all', () => ({ source_wallet: source.id, destination: bankDestination('USD') }), 400, 'parameter_missing', 'amount'],
  ['amount and destination_amount', () => ({ source_wallet: source.id, amount: '1.00', destination_amount: '1.00', destination: bankDestination('USD') }), 400, 'parameter_invalid', 'destination_amount'],
  ['a malformed amount', () => ({ source_wallet: source.id, amount: '1,00', destination: bankDestination('USD') }), 400, 'parameter_invalid', 'amount'],
  ['too many decimals for the source', () => ({ source_wallet: source.id, amount: '1.0000001', destination: bankDestination('USD') }), 400, 'parameter_invalid', 'amount'],
  ['too many decimals for a fiat destination', () => ({ source_wallet: source.id, destination_amount: '1.001', destination: bankDestination('EUR') }), 400, 'parameter_invalid', 'destination_amount'],
  ['no destination', () => ({ source_wallet: source.id, amount: '1.00' }), 400, 'parameter_missing', 'destination'],
  ['an unknown destination type', () => ({ source_wallet: source.id, amount: '1.00', destination: { type: 'card' } }), 400, 'parameter_invalid', 'destination.type'],
  ['a wallet destination without wallet_id', () => ({ source_wallet: source.id, amount: '1.00', destination: { type: 'wallet' } }), 400, 'parameter_missing', 'destination.wallet_id'],
  ['an unknown network', () => ({ source_wallet: source.id, amount: '1.00', destination: address({ network: 'bitcoin' }) }), 400, 'parameter_invalid', 'destination.network'],
  ['a currency not on the network', () => ({ source_wallet: source.id, amount: '1.00', destination: address({ currency: 'SOL' }) }), 400, 'parameter_invalid', 'destination.currency'],
  ['an address of another network', () => ({ source_wallet: source.id, amount: '1.00', destination: address({ address: EXTERNAL.solana }) }), 400, 'parameter_invalid', 'destination.address'],
  ['an EVM address with a wrong checksum', () => ({ source_wallet: source.id, amount: '1.00', destination: address({ address: EXTERNAL.polygon.replace('a', 'A') }) }), 400, 'parameter_invalid', 'destination.address'],
  ['an unsupported bank currency', () => ({ source_wallet: source.id, amount: '1.00', destination: { type: 'bank_account', currency: 'JPY', beneficiary: {} } }), 400, 'parameter_invalid', 'destination.currency'],
  ['a rail that does not follow the currency', () => ({ source_wallet: source.id, amount: '1.00', destination: { ...bankDestination('EUR'), rail: 'ach' } }), 400, 'parameter_invalid', 'destination.rail'],
  ['a beneficiary without a name', () => ({ source_wallet: source.id, amount: '1.00', destination: bank('USD', { name: undefined }) }), 400, 'parameter_missing', 'destination.beneficiary.name'],
  ['a lower-case country', () => ({ source_wallet: source.id, amount: '1.00', destination: bank('USD', { country: 'us' }) }), 400, 'parameter_invalid', 'destination.beneficiary.country'],
  ['a routing number failing the ABA checksum', () => ({ source_wallet: source.id, amount: '1.00', destination: bank('USD', { routing_number: '021000022' }) }), 400, 'parameter_invalid', 'destination.beneficiary.routing_number'],
  ['a routing number of 8 digits', () => ({ source_wallet: source.id, amount: '1.00', destination: bank('USD', { routing_number: '02100002' }) }), 400, 'parameter_invalid', 'destination.beneficiary.routing_number'],
  ['an ACH account number of 3 digits', () => ({ source_wallet: source.id, amount: '1.00', destination: bank('USD', { account_number: '123' }) }), 400, 'parameter_invalid', 'destination.beneficiary.account_number'],
  ['an IBAN failing mod 97', () => ({ source_wallet: source.id, amount: '1.00', destination: bank('EUR', { iban: 'DE89370400440532013001' }) }), 400, 'parameter_invalid', 'destination.beneficiary.iban'],
  ['an IBAN of a country outside SEPA', () => ({ source_wallet: source.id, amount: '1.00', destination: bank('EUR', { iban: 'BR1800360305000010009795493C1' }) }), 400, 'parameter_invalid', 'destination.beneficiary.iban'],
  ['an IBAN of the wrong length', () => ({ source_wallet: source.id, amount: '1.00', destination: bank('EUR', { iban: 'DE8937040044053201300' }) }), 400, 'parameter_invalid', 'destination.beneficiary.iban'],
  ['a sort code of 5 digits', () => ({ source_wallet: source.id, amount: '1.00', destination: bank('GBP', { sort_code: '20000' }) }), 400, 'parameter_invalid', 'destination.beneficiary.sort_code'],
  ['a UK account number of 7 digits', () => ({ source_wallet: source.id, amount: '1.00', destination: bank('GBP', { account_number: '3192681' }) }), 400, 'parameter_invalid', 'destination.beneficiary.account_number'],
  ['a CLABE failing its control digit', () => ({ source_wallet: source.id, amount: '1.00', destination: bank('MXN', { clabe: '032180000118359718' }) }), 400, 'parameter_invalid', 'destination.beneficiary.clabe'],
  ['a field of another rail', () => ({ source_wallet: source.id, amount: '1.00', destination: bank('MXN', { iban: 'DE89370400440532013000' }) }), 400, 'parameter_invalid', 'destination.beneficiary.iban'],
  ['an unknown sandbox_fail_step', () => ({ source_wallet: source.id, amount: '1.00', destination: bankDestination('USD'), metadata: { sandbox_fail_step: 'payout' } }), 400, 'parameter_invalid', 'metadata.sandbox_fail_step'],
  ['a step the settlement does not have', () => ({ source_wallet: source.id, amount: '1.00', destination: bankDestination('USD'), metadata: { sandbox_outcome: 'failed', sandbox_fail_step: 'bridge' } }), 400, 'parameter_invalid', 'metadata.sandbox_fail_step'],
  ['an unknown sandbox_failure_code', () => ({ source_wallet: source.id, amount: '1.00', destination: bankDestination('USD'), metadata: { sandbox_failure_code: 'nope' } }), 400, 'parameter_invalid', 'metadata.sandbox_failure_code'],
  ['an amount that converts to nothing', () => ({ source_wallet: ethWallet.id, amount: '0.000000000000000001', destination: bankDestination('USD') }), 400, 'parameter_invalid', 'amount'],
  ['an unknown source wallet', () => ({ source_wallet: 'wal_nope', amount: '1.00', destination: bankDestination('USD') }), 404, 'resource_missing', 'source_wallet'],
  ['an unknown destination wallet', () => ({ source_wallet: source.id, amount: '1.00', destination: { type: 'wallet', wallet_id: 'wal_nope' } }), 404, 'resource_missing', 'destination.wallet_id'],
  ['the source as destination', () => ({ source_wallet: source.id, amount: '1.00', destination: { type: 'wallet', wallet_id: source.id } }), 400, 'parameter_invalid', 'destination.wallet_id'],
  ['an unknown quote', () => ({ source_wallet: source.id, quote_id: 'quo_nope', destination: bankDestination('USD') }), 404, 'resource_missing', 'quote_id'],
  ['a frozen source wallet', () => ({ source_wallet: frozen.id, amount: '1.00', destination: bankDestination('USD') }), 422, 'wallet_inactive', 'source_wallet'],
  ['a frozen destination wallet', () => ({ source_wallet: source.id, amount: '1.00', destination: { type: 'wallet', wallet_id: frozen.id } }), 422, 'wallet_inactive', 'destination.wallet_id'],
]

describe('POST /v1/settlements refuses bad input with its own error and param, and changes nothing', () => {
  it.each(CASES)('%s: %i %s', async (_name, body, status, code, param) => {
    const before = await balanceOf(sb, source.id)
    const res = await sb.api.post('/v1/settlements').set(sb.auth(DEFAULT_KEY)).send(body()).expect(status)
    expect(res.body.error.code).toBe(code)
    expect(res.body.error.param).toBe(param)
    expect(res.body.error.message.length).toBeGreaterThan(10)
    expect(await balanceOf(sb, source.id)).toEqual(before)
    expect((await sb.api.get('/v1/settlements').set(sb.auth()).expect(200)).body.pagination.total).toBe(0)
  })
})
