import * as z from 'zod'
import type { RecordKind } from './changes.js'
import {
  AccountDataSchema, AccountRecordDataSchema, IdempotencyDataSchema, KeyDataSchema, OrderDataSchema, PaymentDataSchema, PayoutDataSchema, QuoteDataSchema, SettlementDataSchema, WalletDataSchema, WebhookDataSchema, WhitelistDataSchema,
} from '../schemas/data-file.js'
import { accountFromData, accountToData, decodeOrder, decodeWallet, encodeOrder, encodeWallet } from './data.js'
import { decodePaymentData } from './payment-decoder.js'
import { isPaymentData, isWalletData } from './plain-checks.js'
import { expandPayment, shortPayment } from './short-forms.js'
import type { IdempotencyRecord } from '../model/records.js'

/**
 * How each kind of record looks on disk (journal and snapshot lines) and back. Base units are
 * digit strings on disk and bigints in memory; everything read back is checked against the same
 * schemas as a snapshot document, so a damaged line is refused with its position.
 */
interface Codec {
  schema: z.ZodType
  /** For kinds written in a short form: the full form of what was read, before it is checked. */
  expand?: (data: unknown) => unknown
  /** For kinds read in large numbers: a plain test that the data fits the schema as it is; zod runs only when it fails, to name the problem. */
  fits?: (data: unknown) => boolean
  encode(value: never): unknown
  decode(data: never): unknown
}

const plain = (schema: z.ZodType): Codec => ({ schema, encode: (value) => value, decode: (data) => data })

const CODECS: Record<RecordKind, Codec> = {
  tenant: { schema: AccountDataSchema, encode: accountToData, decode: accountFromData },
  account: plain(AccountRecordDataSchema),
  key: plain(KeyDataSchema),
  // Every change set that moves money puts its wallets: a journal holds one per payment at least.
  wallet: { schema: WalletDataSchema, fits: isWalletData, encode: encodeWallet, decode: decodeWallet },
  // Most of a large data file: written short (short-forms.ts), interned as it is decoded (payment-decoder.ts).
  payment: { schema: PaymentDataSchema, expand: expandPayment, fits: isPaymentData, encode: shortPayment, decode: decodePaymentData },
  order: { schema: OrderDataSchema, encode: encodeOrder, decode: decodeOrder },
  payout: plain(PayoutDataSchema),
  settlement: plain(SettlementDataSchema),
  whitelist: plain(WhitelistDataSchema),
  webhook: plain(WebhookDataSchema),
  // In-flight requests are not acknowledged yet; on disk an idempotency record is always done.
  idempotency: { schema: IdempotencyDataSchema.extend({ state: z.enum(['in_flight', 'done']) }), encode: (r: IdempotencyRecord) => r, decode: (r: IdempotencyRecord) => r },
  control: plain(z.unknown()),
  quote: plain(QuoteDataSchema),
}

export const RECORD_KINDS = Object.keys(CODECS) as RecordKind[]

export const encodeRecord = (kind: RecordKind, value: unknown): unknown => CODECS[kind].encode(value as never)

/** Throws a ZodError for a value that does not fit the kind's schema. */
export function decodeRecord(kind: RecordKind, data: unknown): unknown {
  const codec = CODECS[kind]
  const full = codec.expand ? codec.expand(data) : data
  return codec.decode((codec.fits?.(full) ? full : codec.schema.parse(full)) as never)
}
