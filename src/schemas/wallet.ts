import * as z from 'zod'
import { ASSETS, type Network } from '../model/networks.js'
import { CurrencySchema, MetadataSchema, NetworkSchema, PageQuery, TimestampSchema } from './common.js'
import { whenPresent } from './messages.js'
import { REQUEST_EXAMPLES } from './request-examples.js'

const WalletTypeSchema = z.enum(['institutional', 'user', 'omnibus'], { error: 'type must be one of institutional, user, omnibus' })
const WalletStatusSchema = z.enum(['active', 'frozen', 'closed'])
const NameSchema = z.string({ error: whenPresent('name must be a string of 1 to 100 characters') }).min(1, { error: 'name must not be empty' }).max(100, { error: 'name is at most 100 characters' })

export const CreateWalletSchema = z
  .strictObject({
    name: NameSchema,
    currency: CurrencySchema,
    network: NetworkSchema,
    type: WalletTypeSchema.default('user'),
    metadata: MetadataSchema.default({}),
  })
  .superRefine((body, ctx) => {
    if (ASSETS[body.network as Network][body.currency] === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['currency'],
        message: `${body.currency} is not available on ${body.network}; ${body.network} supports ${Object.keys(ASSETS[body.network as Network]).join(', ')}`,
      })
    }
  })
  .meta({ id: 'CreateWalletRequest', example: REQUEST_EXAMPLES.createWallet })

export const UpdateWalletSchema = z
  .strictObject({
    name: NameSchema.optional(),
    metadata: MetadataSchema.optional(),
    status: z.enum(['active', 'frozen'], { error: "status can be set to 'active' or 'frozen'; use DELETE to close a wallet" }).optional(),
  })
  .meta({ id: 'UpdateWalletRequest', example: REQUEST_EXAMPLES.updateWallet })

export const ListWalletsQuery = PageQuery.extend({
  network: NetworkSchema.optional(),
  currency: CurrencySchema.optional(),
  type: WalletTypeSchema.optional(),
  status: WalletStatusSchema.optional(),
  external_user_id: z.string().min(1, { error: 'external_user_id must not be empty' }).optional(),
}).strict()

export const WalletSchema = z
  .object({
    id: z.string().meta({ example: 'wal_3kTq9vXbN2mR8sLp4YhW6cJd' }),
    object: z.literal('wallet'),
    type: WalletTypeSchema,
    name: z.string(),
    address: z.string(),
    currency: CurrencySchema,
    network: NetworkSchema,
    status: WalletStatusSchema,
    balance: z.string().meta({ description: 'Total balance (available + locked).' }),
    metadata: z.record(z.string(), z.string()),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .meta({ id: 'Wallet' })

export const BalanceSchema = z
  .object({
    object: z.literal('balance'),
    wallet_id: z.string(),
    available_balance: z.string(),
    locked_balance: z.string(),
    total_balance: z.string(),
    currency: CurrencySchema,
  })
  .meta({ id: 'Balance' })
