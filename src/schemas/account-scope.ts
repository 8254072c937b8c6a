import * as z from 'zod'

/**
 * The optional account a control call is about (CONTRACT.md section 24): named by one of its keys
 * or by its id. Without either, a call is about the whole sandbox.
 */
export const AccountScopeFields = {
  api_key: z.string({ error: 'api_key must be a string' }).min(1, { error: 'api_key must not be empty' }).optional()
    .meta({ description: 'The account behind this key (or give account_id). Without either, the whole sandbox.' }),
  account_id: z.string({ error: 'account_id must be a string' }).min(1, { error: 'account_id must not be empty' }).optional(),
}

export interface AccountScope {
  api_key?: string | undefined
  account_id?: string | undefined
}

/** `?api_key=` or `?account_id=`: one account's part of a list, or of a removal. */
export const AccountScopeQuery = z.strictObject(AccountScopeFields)
