import { ApiError, echoId, notFound } from '../../errors.js'
import type { RequestContext } from '../../http/context.js'
import type { AccountScope } from '../../schemas/account-scope.js'

/** The account `api_key` or `account_id` names (404 when none has it), or undefined when neither is given. */
export function scopedAccountId(ctx: RequestContext, scope: AccountScope): string | undefined {
  const { store } = ctx.deps
  let accountId = scope.account_id
  if (accountId !== undefined && !store.accounts.has(accountId)) throw notFound('account', accountId, 'account_id')
  if (scope.api_key !== undefined) {
    const key = store.keys.get(scope.api_key)
    if (!key) throw new ApiError('resource_missing', `No account uses the key '${echoId(scope.api_key)}': a key gets its account with its first /v1 request, or from POST /_sandbox/keys.`, { param: 'api_key' })
    if (accountId !== undefined && key.account_id !== accountId) {
      throw new ApiError('parameter_invalid', `api_key belongs to account ${key.account_id}, not to account_id ${accountId}; give one of them.`, { param: 'account_id' })
    }
    accountId = key.account_id
  }
  if (accountId !== undefined) ctx.belongsTo(accountId)
  return accountId
}
