import * as z from 'zod'
import { NetworkSchema, PageQuery, TimestampSchema } from './common.js'
import { whenPresent } from './messages.js'
import { REQUEST_EXAMPLES } from './request-examples.js'

export const CreateWhitelistedAddressSchema = z
  .strictObject({
    address: z.string({ error: whenPresent('address must be a string') }).min(1),
    network: NetworkSchema,
    label: z.string().max(100, { error: 'label is at most 100 characters' }).nullable().optional(),
  })
  .meta({ id: 'CreateWhitelistedAddressRequest', example: REQUEST_EXAMPLES.createWhitelistedAddress })

export const ListWhitelistQuery = PageQuery.extend({ network: NetworkSchema.optional() }).strict()

export const WhitelistedAddressSchema = z
  .object({
    id: z.string().meta({ example: 'wla_3kTq9vXbN2mR8sLp4YhW6cJd' }),
    object: z.literal('whitelisted_address'),
    address: z.string(),
    network: NetworkSchema,
    label: z.string().nullable(),
    created_at: TimestampSchema,
  })
  .meta({ id: 'WhitelistedAddress' })
