import { ApiError, echoId, notFound } from '../../errors.js'
import type { RequestContext } from '../../http/context.js'

/**
 * The account `api_key` or `account_id` names (404 when none has it; 400 when they name two), or
 * undefined when neither is given: the control reads that take either (events, requests).
 */
export function accountOf(ctx: RequestContext, query: { api_key?: string; account_id?: string }): string | undefined {
  const { store } = ctx.deps
  let accountId = query.account_id
  if (accountId !== undefined && !store.accounts.has(accountId)) throw notFound('account', accountId, 'account_id')
  if (query.api_key !== undefined) {
    const key = store.keys.get(query.api_key)
    if (!key) throw new ApiError('resource_missing', `No account uses the key '${echoId(query.api_key)}': a key gets its account with its first /v1 request, or from POST /_sandbox/keys.`, { param: 'api_key' })
    if (accountId !== undefined && key.account_id !== accountId) {
      throw new ApiError('parameter_invalid', `api_key belongs to account ${key.account_id}, not to account_id ${accountId}; give one of them.`, { param: 'account_id' })
    }
    accountId = key.account_id
  }
  return accountId
}
