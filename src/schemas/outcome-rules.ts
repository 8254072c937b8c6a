import * as z from 'zod'
import { FAILURE_CODES, type FailureCode } from '../model/failures.js'
import { AmountSchema, CurrencySchema, NetworkSchema } from './common.js'
import { FailureCodeSchema } from './payment.js'
import { REQUEST_EXAMPLES } from './request-examples.js'
import { AccountScopeFields } from './account-scope.js'

/** Outcome rules' request and resource (CONTRACT.md sections 8 and 13); the rules themselves live in `lifecycle/outcome-rules.ts`. */
export const OutcomeMatchSchema = z.strictObject({
  account_id: z.string().optional(),
  network: NetworkSchema.optional(),
  currency: CurrencySchema.optional(),
  recipient: z.string().min(1).optional(),
  source_wallet: z.string().min(1).optional(),
  amount_min: AmountSchema.optional(),
  amount_max: AmountSchema.optional(),
})

export const CreateOutcomeRuleSchema = z
  .strictObject({
    match: OutcomeMatchSchema.default({}),
    outcome: z.enum(['completed', 'failed', 'pending'], { error: 'outcome must be completed, failed or pending' }),
    failure_code: z.enum(FAILURE_CODES as [FailureCode, ...FailureCode[]], { error: `failure_code must be one of ${FAILURE_CODES.join(', ')}` }).optional(),
    times: z.number().int().min(1, { error: 'times must be a whole number of at least 1 (omit it for unlimited)' }).optional(),
    ...AccountScopeFields,
    api_key: AccountScopeFields.api_key.meta({ description: 'The rule decides the payments of this key’s account only (or give account_id, here or in match). Without either, of every account.' }),
  })
  .meta({ id: 'CreateOutcomeRuleRequest', example: REQUEST_EXAMPLES.createOutcomeRule })

export const OutcomeRuleSchema = z
  .object({
    id: z.string(),
    match: OutcomeMatchSchema,
    outcome: z.enum(['completed', 'failed', 'pending']),
    failure_code: FailureCodeSchema.nullable(),
    times: z.number().int().min(1).nullable(),
    remaining: z.number().int().nonnegative().nullable(),
  })
  .meta({ id: 'OutcomeRule' })

export type OutcomeRule = z.infer<typeof OutcomeRuleSchema>
export type OutcomeRuleInput = z.infer<typeof CreateOutcomeRuleSchema>
