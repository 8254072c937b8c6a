import * as z from 'zod'
import { describeAddressFormat, isValidAddress } from '../chain/networks.js'
import { isValidRoutingNumber } from '../banking/aba.js'
import { isValidClabe } from '../banking/clabe.js'
import { ibanProblem, normaliseIban, SEPA_IBAN_LENGTHS } from '../banking/iban.js'
import { isValidUkAccountNumber, normaliseSortCode } from '../banking/uk-account.js'
import { SETTLEMENT_FAILURE_CODES, type SettlementFailureCode } from '../model/failures.js'
import { FIAT_CURRENCIES, FIAT_RAILS } from '../model/currencies.js'
import { ASSETS } from '../model/networks.js'
import { AmountSchema, CurrencySchema, DescriptionSchema, MetadataSchema, NetworkSchema, PageQuery, TimestampSchema } from './common.js'
import { whenPresent } from './messages.js'
import { SourceWalletSchema } from './payment.js'
import { REQUEST_EXAMPLES } from './request-examples.js'

/** Cross-border settlements (CONTRACT.md sections 16 and 19): the create body, the resource, the list query. */

export const SETTLEMENT_STEP_TYPES = ['conversion', 'bridge', 'transfer'] as const
const SANDBOX_OUTCOMES = ['completed', 'failed'] as const

const IBAN_PROBLEMS = {
  format: 'iban must be two upper-case letters, two check digits and up to 30 letters or digits (spaces between groups are allowed)',
  country: `iban must belong to a SEPA country (${Object.keys(SEPA_IBAN_LENGTHS).join(', ')})`,
  length: 'iban has the wrong length for its country',
  checksum: 'iban fails the ISO 13616 mod-97 check; check the digits',
} as const

const text = (field: string, max: number) =>
  z.string({ error: whenPresent(`${field} must be a string`) }).trim().min(1, { error: `${field} must not be empty` }).max(max, { error: `${field} is at most ${max} characters` })

const holder = {
  name: text('name', 140),
  country: z.string({ error: whenPresent('country must be a string') }).regex(/^[A-Z]{2}$/, { error: 'country must be an ISO 3166-1 alpha-2 code in upper case, such as "DE"' }),
}

const digits = (field: string, pattern: RegExp, shape: string) => z.string({ error: whenPresent(`${field} must be a string of digits`) }).regex(pattern, { error: `${field} must be ${shape}` })

const AchBeneficiary = z.strictObject({
  ...holder,
  routing_number: digits('routing_number', /^\d{9}$/, '9 digits').refine(isValidRoutingNumber, { error: 'routing_number fails the ABA checksum (weights 3, 7, 1); check the digits' }),
  account_number: digits('account_number', /^\d{4,17}$/, '4 to 17 digits'),
})

const SepaBeneficiary = z.strictObject({
  ...holder,
  iban: z
    .string({ error: whenPresent('iban must be a string') })
    .superRefine((value, ctx) => {
      const problem = ibanProblem(value)
      if (problem) ctx.addIssue({ code: 'custom', message: IBAN_PROBLEMS[problem], input: value })
    })
    .transform(normaliseIban),
})

const FpsBeneficiary = z.strictObject({
  ...holder,
  sort_code: z
    .string({ error: whenPresent('sort_code must be a string') })
    .refine((value) => normaliseSortCode(value) !== undefined, { error: 'sort_code must be 6 digits, optionally written 12-34-56' })
    .transform((value) => normaliseSortCode(value)!),
  account_number: z.string({ error: whenPresent('account_number must be a string of digits') }).refine(isValidUkAccountNumber, { error: 'account_number must be 8 digits' }),
})

const SpeiBeneficiary = z.strictObject({
  ...holder,
  clabe: digits('clabe', /^\d{18}$/, '18 digits').refine(isValidClabe, { error: 'clabe fails the CLABE control digit check (weights 3, 7, 1); check the digits' }),
})

const bank = <C extends keyof typeof FIAT_RAILS, B extends z.ZodType>(currency: C, beneficiary: B) =>
  z.strictObject({
    type: z.literal('bank_account'),
    currency: z.literal(currency),
    rail: z.literal(FIAT_RAILS[currency], { error: `rail of a ${currency} bank account is ${FIAT_RAILS[currency]} (it follows the currency; it may be left out)` }).optional(),
    beneficiary,
  })

const BankAccountDestination = z.discriminatedUnion(
  'currency',
  [bank('USD', AchBeneficiary), bank('EUR', SepaBeneficiary), bank('GBP', FpsBeneficiary), bank('MXN', SpeiBeneficiary)],
  { error: (issue) => (issue.input === undefined ? undefined : `currency of a bank account must be one of ${FIAT_CURRENCIES.join(', ')}`) },
)

const WalletDestination = z.strictObject({
  type: z.literal('wallet'),
  wallet_id: z.string({ error: whenPresent('wallet_id must be a wallet id such as wal_…') }).min(1),
})

const AddressDestination = z
  .strictObject({ type: z.literal('address'), network: NetworkSchema, currency: CurrencySchema, address: z.string({ error: whenPresent('address must be a string') }).min(1) })
  .superRefine((destination, ctx) => {
    if (!Object.hasOwn(ASSETS[destination.network], destination.currency)) {
      ctx.addIssue({ code: 'custom', path: ['currency'], message: `currency ${destination.currency} is not an asset of ${destination.network} (${Object.keys(ASSETS[destination.network]).join(', ')})` })
    }
    if (!isValidAddress(destination.network, destination.address)) {
      ctx.addIssue({ code: 'custom', path: ['address'], message: `address must be ${describeAddressFormat(destination.network)}` })
    }
  })

export const SettlementDestinationSchema = z
  .discriminatedUnion('type', [WalletDestination, AddressDestination, BankAccountDestination], {
    error: (issue) => (issue.input === undefined ? undefined : 'type must be one of wallet, address, bank_account'),
  })
  .meta({ id: 'SettlementDestination', description: 'A wallet of the account, an address on any network, or a bank account (the rail follows the currency).' })

/** Sandbox-only metadata that decides the outcome (docs/settlements.md). */
function checkSandboxMetadata({ metadata }: { metadata: Record<string, string> }, ctx: z.RefinementCtx): void {
  const check = (key: string, allowed: readonly string[]) => {
    const value = metadata[key]
    if (value !== undefined && !allowed.includes(value)) ctx.addIssue({ code: 'custom', path: ['metadata', key], message: `metadata.${key} must be one of ${allowed.join(', ')}` })
  }
  check('sandbox_outcome', SANDBOX_OUTCOMES)
  check('sandbox_fail_step', SETTLEMENT_STEP_TYPES)
  check('sandbox_failure_code', SETTLEMENT_FAILURE_CODES)
}

export const CreateSettlementSchema = z
  .strictObject({
    source_wallet: SourceWalletSchema,
    amount: AmountSchema.optional().meta({ description: 'What leaves the source wallet before fees, in its currency. Give this or destination_amount.' }),
    destination_amount: AmountSchema.optional().meta({ description: 'What the destination receives, in its currency; amount is then the smallest that yields it.' }),
    destination: SettlementDestinationSchema,
    quote_id: z.string({ error: whenPresent('quote_id must be a quote id such as quo_…') }).min(1).optional(),
    description: DescriptionSchema.nullable().optional(),
    metadata: MetadataSchema.default({}),
  })
  .superRefine((body, ctx) => {
    if (body.amount !== undefined && body.destination_amount !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['destination_amount'], message: 'give amount or destination_amount, not both' })
    }
  })
  .superRefine(checkSandboxMetadata)
  .meta({ id: 'CreateSettlementRequest', example: REQUEST_EXAMPLES.createSettlement })

export type CreateSettlement = z.output<typeof CreateSettlementSchema>

export const SettlementStatusSchema = z.enum(['pending', 'processing', 'completed', 'failed', 'refunded'], {
  error: 'status must be one of pending, processing, completed, failed, refunded',
})
export const SettlementFailureCodeSchema = z.enum(SETTLEMENT_FAILURE_CODES as [SettlementFailureCode, ...SettlementFailureCode[]])

export const ListSettlementsQuery = PageQuery.extend({
  status: SettlementStatusSchema.optional(),
  destination_type: z.enum(['wallet', 'address', 'bank_account'], { error: 'destination_type must be one of wallet, address, bank_account' }).optional(),
}).strict()

const MoneySchema = z.string().meta({ example: '100.00' })

const StepSchema = z
  .object({
    type: z.enum(SETTLEMENT_STEP_TYPES),
    status: z.enum(['pending', 'processing', 'completed', 'failed', 'cancelled']),
    network: NetworkSchema.optional().meta({ description: 'Bridge: the destination network; transfer: the network of an on-chain or wallet transfer.' }),
    rail: z.enum(['ach', 'sepa', 'fps', 'spei']).optional().meta({ description: 'Transfer to a bank account: the payout rail.' }),
    tx_hash: z.string().nullable().optional().meta({ description: 'On-chain or wallet transfer: its hash in the network’s format, once completed.' }),
    source_tx_hash: z.string().nullable().optional().meta({ description: 'Bridge: the burn or lock on the source network, once started.' }),
    destination_tx_hash: z.string().nullable().optional().meta({ description: 'Bridge: the mint or release on the destination network, once completed.' }),
    reference: z.string().nullable().optional().meta({ description: 'Bank payout: the rail’s reference, once started.' }),
    started_at: TimestampSchema.nullable(),
    completed_at: TimestampSchema.nullable(),
    failure_code: SettlementFailureCodeSchema.nullable(),
  })
  .meta({ id: 'SettlementStep' })

const DestinationOutSchema = z.union([
  z.object({ type: z.literal('wallet'), wallet_id: z.string() }),
  z.object({ type: z.literal('address'), network: NetworkSchema, currency: CurrencySchema, address: z.string() }),
  z.object({ type: z.literal('bank_account'), currency: z.enum(FIAT_CURRENCIES), rail: z.enum(['ach', 'sepa', 'fps', 'spei']), beneficiary: z.record(z.string(), z.string()) }),
])

export const SettlementSchema = z
  .object({
    id: z.string().meta({ example: 'stl_M8tMrDBQ5xalOhAtDtasxSWX' }),
    object: z.literal('settlement'),
    status: SettlementStatusSchema,
    source_wallet: z.string(),
    source_currency: CurrencySchema,
    amount: MoneySchema,
    fees: z.array(z.object({ type: z.enum(['conversion', 'network', 'payout']), amount: MoneySchema, currency: CurrencySchema })),
    total_debit: MoneySchema,
    destination: DestinationOutSchema,
    destination_currency: z.string().meta({ description: 'A wallet asset, or USD, EUR, GBP or MXN for a bank account.' }),
    destination_amount: MoneySchema,
    rate: z.string().meta({ description: 'Destination units per source unit (1 without a conversion).', example: '0.92153000' }),
    quote_id: z.string().nullable(),
    steps: z.array(StepSchema),
    refund: z.object({ amount: MoneySchema, tx_hash: z.string().nullable(), completed_at: TimestampSchema.nullable() }).nullable(),
    failure_code: SettlementFailureCodeSchema.nullable(),
    failure_message: z.string().nullable(),
    description: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
    completed_at: TimestampSchema.nullable(),
  })
  .meta({ id: 'Settlement' })

export const FailSettlementSchema = z.strictObject({ failure_code: SettlementFailureCodeSchema.optional(), failure_message: z.string().min(1).max(500).optional() }).meta({ example: REQUEST_EXAMPLES.failSettlement })
