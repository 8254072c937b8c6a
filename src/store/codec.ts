import * as z from 'zod'
import type { RecordKind } from './changes.js'
import {
  AccountDataSchema, AccountRecordDataSchema, IdempotencyDataSchema, KeyDataSchema, OrderDataSchema, PayoutDataSchema, QuoteDataSchema, SettlementDataSchema, WalletDataSchema, WebhookDataSchema, WhitelistDataSchema,
} from '../schemas/data-file.js'
import { accountFromData, accountToData, decodeOrder, decodeWallet, encodeOrder, encodePayment, encodeWallet } from './data.js'
import { createPaymentDecoder } from './payment-decoder.js'
import type { IdempotencyRecord } from '../model/records.js'

/**
 * How each kind of record looks on disk (journal and snapshot lines) and back. Base units are
 * digit strings on disk and bigints in memory; everything read back is checked against the same
 * schemas as a snapshot document, so a damaged line is refused with its position.
 */
interface Codec {
  schema: z.ZodType
  encode(value: never): unknown
  decode(data: never): unknown
}

const plain = (schema: z.ZodType): Codec => ({ schema, encode: (value) => value, decode: (data) => data })

const CODECS: Record<RecordKind, Codec> = {
  tenant: { schema: AccountDataSchema, encode: accountToData, decode: accountFromData },
  account: plain(AccountRecordDataSchema),
  key: plain(KeyDataSchema),
  wallet: { schema: WalletDataSchema, encode: encodeWallet, decode: decodeWallet },
  // Checked and decoded by its own fast path (see payment-decoder.ts).
  payment: { schema: z.unknown(), encode: encodePayment, decode: createPaymentDecoder() },
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
export const decodeRecord = (kind: RecordKind, data: unknown): unknown => CODECS[kind].decode(CODECS[kind].schema.parse(data) as never)
