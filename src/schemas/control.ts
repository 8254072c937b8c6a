import * as z from 'zod'
import { SettlementFailureCodeSchema } from './settlement.js'
import { isIpEntry } from './ip-entry.js'
import { FAILURE_CODES } from '../model/failures.js'
import { SCOPES, SIGNING_ALGORITHMS } from '../model/records.js'
import { parseEd25519PublicKey } from '../key-material.js'
import { AmountSchema, CountSchema, NetworkSchema, TimestampSchema } from './common.js'
import { FailureCodeSchema } from './payment.js'
import { REQUEST_EXAMPLES } from './request-examples.js'
import { AccountScopeFields } from './account-scope.js'

/** Request and response shapes of the control API (CONTRACT.md sections 10 and 13). */

export const ResetSchema = z.strictObject({ api_key: z.string().min(1).optional() }).meta({ example: REQUEST_EXAMPLES.reset })

export const ResetResultSchema = z.object({ reset: z.enum(['all', 'account']), account_id: z.string().nullable() })

const KeyScopeSchema = z.union([z.enum(SCOPES), z.literal('*')])
const KeySchema = z.object({ key: z.string(), type: z.enum(['secret', 'restricted']), scopes: z.array(KeyScopeSchema), allowed_ips: z.array(z.string()) })
/** An account's key as listed: its signing key without the secret. */
const ListedKeySchema = KeySchema.extend({
  signing: z.object({ key_id: z.string(), alg: z.enum(SIGNING_ALGORITHMS), public_key: z.string().optional() }).optional()
    .meta({ description: 'Present when requests with this key must be signed (secrets are shown only when the key is created).' }),
})

export const AccountSchema = z
  .object({ id: z.string(), keys: z.array(ListedKeySchema), whitelist_enforced: z.boolean(), created_at: TimestampSchema })
  .meta({ id: 'SandboxAccount' })

export const ListAccountsQuery = z.strictObject({ api_key: z.string().optional() })
export const PatchAccountSchema = z.strictObject({ whitelist_enforced: z.boolean({ error: 'whitelist_enforced must be true or false' }) }).meta({ example: REQUEST_EXAMPLES.patchAccount })

export const CreateKeySchema = z
  .strictObject({
    account_id: z.string().min(1).optional(),
    type: z.enum(['secret', 'restricted'], { error: 'type must be secret or restricted' }).default('secret'),
    scopes: z.array(z.union([z.enum(SCOPES), z.literal('*')], { error: `scopes must be among ${SCOPES.join(', ')} or *` })).min(1).optional(),
    allowed_ips: z.array(z.string().refine(isIpEntry, { error: 'allowed_ips entries must be IP addresses or CIDR blocks such as 10.0.0.0/8' })).default([]),
    signing: z.enum(SIGNING_ALGORITHMS, { error: 'signing must be hmac-sha256 or ed25519' }).optional()
      .meta({ description: 'Require every /v1 request with this key to be signed (RFC 9421) with a new key of this algorithm.' }),
    public_key: z.string().min(1).optional()
      .meta({ description: 'With signing ed25519: your own public key (SPKI PEM, or base64 of the raw 32 bytes) instead of a generated pair.' }),
  })
  .superRefine((body, ctx) => {
    if (body.type === 'restricted' && body.scopes === undefined) {
      ctx.addIssue({ code: 'invalid_type', expected: 'array', input: undefined, path: ['scopes'], message: 'scopes is required for a restricted key' })
    }
    if (body.public_key === undefined) return
    if (body.signing !== 'ed25519') {
      ctx.addIssue({ code: 'custom', path: ['public_key'], message: 'public_key goes with signing "ed25519" (an HMAC key has a secret, which the sandbox generates)' })
    } else if (parseEd25519PublicKey(body.public_key) === undefined) {
      ctx.addIssue({ code: 'custom', path: ['public_key'], message: 'public_key must be an Ed25519 public key: SPKI PEM (-----BEGIN PUBLIC KEY-----) or the base64 of its raw 32 bytes' })
    }
  })
  .meta({ example: REQUEST_EXAMPLES.createKey })

const SigningKeyIdSchema = z.string().meta({ description: 'The keyid to put in Signature-Input.' })

/** The answer's `signing`: secrets and a generated private key are shown here, once. */
export const CreatedSigningSchema = z
  .discriminatedUnion('alg', [
    z.object({ key_id: SigningKeyIdSchema, alg: z.literal('hmac-sha256'), secret: z.string().meta({ description: 'Base64 of the 32 key bytes (decode it to get the HMAC key).' }) }),
    z.object({
      key_id: SigningKeyIdSchema,
      alg: z.literal('ed25519'),
      public_key: z.string().meta({ description: 'SPKI PEM.' }),
      private_key: z.string().optional().meta({ description: 'PKCS#8 PEM, only when the sandbox generated the pair; it is not kept, so store it now.' }),
    }),
  ])
  .meta({ id: 'SandboxSigningKey' })

export const CreatedKeySchema = KeySchema.extend({ account_id: z.string(), signing: CreatedSigningSchema.optional() })

export const DepositSchema = z.strictObject({ amount: AmountSchema, from_address: z.string().min(1).optional() }).meta({ example: REQUEST_EXAMPLES.deposit })

export const FailPaymentSchema = z.strictObject({
  failure_code: z.enum(FAILURE_CODES as [string, ...string[]], { error: `failure_code must be one of ${FAILURE_CODES.join(', ')}` }).optional(),
  failure_message: z.string().min(1).max(500).optional(),
}).meta({ example: REQUEST_EXAMPLES.failPayment })

export const ScreeningSchema = z
  .strictObject({
    network: NetworkSchema,
    address: z.string().min(1),
    ...AccountScopeFields,
    api_key: AccountScopeFields.api_key.meta({ description: 'Flag the address for this key’s account only (or give account_id). Without either, for every account.' }),
  })
  .meta({ example: REQUEST_EXAMPLES.screening })
export const ScreeningResultSchema = z.object({
  network: NetworkSchema,
  address: z.string(),
  flagged: z.boolean(),
  account_id: z.string().nullable().meta({ description: 'The one account the flag is for; null: every account.' }),
})

const MagicPaymentAddressSchema = z.object({
  applies_to: z.literal('payments'),
  network: NetworkSchema,
  address: z.string(),
  outcome: z.enum(['failed', 'pending']),
  failure_code: FailureCodeSchema.nullable(),
  description: z.string(),
})

/** A settlement destination that fails (fixtures/settlements.json): an address on a network, or a bank account by one beneficiary field. */
const MagicSettlementDestinationSchema = z.object({
  applies_to: z.literal('settlements'),
  destination_type: z.enum(['address', 'bank_account']),
  network: NetworkSchema.nullable(),
  address: z.string().nullable(),
  currency: z.enum(['USD', 'EUR', 'GBP', 'MXN']).nullable().meta({ description: 'Bank accounts: the currency (and so the rail).' }),
  field: z.enum(['account_number', 'iban', 'clabe']).nullable().meta({ description: 'Bank accounts: the beneficiary field that carries `value`.' }),
  value: z.string().nullable(),
  failure_code: SettlementFailureCodeSchema,
  ends: z.enum(['failed', 'refunded']).meta({ description: '`failed`: before any value left (lock released); `refunded`: after (refund after its delay).' }),
  description: z.string(),
})

export const MagicAddressSchema = z.union([MagicPaymentAddressSchema, MagicSettlementDestinationSchema])

export const ClockSchema = z
  .object({
    mode: z.enum(['real', 'manual']),
    now: TimestampSchema.meta({ description: 'The sandbox time, or the account’s (the sandbox time plus its offset).' }),
    offset_ms: z.number().int().meta({ description: 'The sandbox clock: how far it was advanced by hand. An account: how far its clock is ahead of the sandbox’s (0 when the account is made).' }),
    account_id: z.string().nullable().meta({ description: 'The account whose clock this is; null: the sandbox clock, which every account follows.' }),
  })
  .meta({ id: 'SandboxClock' })
export const ClockQuery = z.strictObject(AccountScopeFields)
export const AdvanceClockSchema = z.strictObject({
  ms: z.number({ error: 'ms must be a number of milliseconds' }).int({ error: 'ms must be a whole number' }).min(0, { error: 'ms must not be negative' }).max(10 * 365 * 24 * 3600 * 1000),
  ...AccountScopeFields,
  api_key: AccountScopeFields.api_key.meta({ description: 'Advance only this key’s account’s clock (or give account_id); the sandbox clock and every other account stand still. Without either, the sandbox clock, and every account with it.' }),
}).meta({ example: REQUEST_EXAMPLES.advanceClock })

