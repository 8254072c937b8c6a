import * as z from 'zod'
import { ApiError, echoId } from '../../errors.js'
import { defineRoute } from '../../http/route.js'
import { CountSchema } from '../../schemas/common.js'
import { FAILURE_MESSAGES, DEFAULT_FAILURE_CODE, type FailureCode } from '../../model/failures.js'
import { presentWallet } from '../../ledger/present.js'
import type { PresentedPayment } from '../../payment-json.js'
import { CreateOutcomeRuleSchema, OutcomeRuleSchema } from '../../schemas/outcome-rules.js'
import { OutcomeRuleIdParams, PaymentIdParams, WalletIdParams } from '../../schemas/path-params.js'
import { DepositSchema, FailPaymentSchema, MagicAddressSchema, ScreeningResultSchema, ScreeningSchema } from '../../schemas/control.js'
import { PaymentSchema } from '../../schemas/payment.js'
import { WalletSchema } from '../../schemas/wallet.js'
import { describeAddressFormat, isValidAddress } from '../../chain/networks.js'
import type { RequestContext } from '../../http/context.js'
import type { PaymentRecord } from '../../model/records.js'
import type { AccountState } from '../../store/account-state.js'
import { PRE_START_FAILURES } from '../../lifecycle/settlement-outcomes.js'
import { AccountScopeQuery } from '../../schemas/account-scope.js'
import { scopedAccountId } from './account-scope.js'

const tag = 'Sandbox control'
const auth = 'control' as const

/**
 * A control call decides the payment's fate from here on (CONTRACT.md section 8, layer 1): its plan
 * is dropped, so automatic settlement, and a restart on the data file, leave it alone. The answer is
 * the payment as its last event carries it (the plan is not part of it), so that its JSON, written
 * for the event log and the webhooks, is not written again.
 */
function takeOver(ctx: RequestContext, id: string, act: (account: AccountState, payment: PaymentRecord) => PresentedPayment) {
  const { account, payment } = ctx.deps.control.findPayment(id)
  const presented = act(account, payment)
  ctx.deps.control.dropPlan(account, payment)
  return presented
}

/** Control calls that move money and decide outcomes (CONTRACT.md sections 8 and 10). */
export const paymentControlRoutes = [
  defineRoute({
    method: 'post', path: '/_sandbox/wallets/{id}/deposit', operationId: 'sandboxDeposit', summary: 'Credit a wallet with funds from outside', tag, auth,
    request: { params: WalletIdParams, body: DepositSchema },
    status: 200, response: WalletSchema, errors: ['resource_missing', 'wallet_inactive'],
    handler: ({ params, body }, ctx) => {
      const { account } = ctx.deps.control.findWallet(params.id)
      const wallet = account.wallets.get(params.id)!
      if (body.from_address !== undefined && !isValidAddress(wallet.network, body.from_address)) {
        throw new ApiError('parameter_invalid', `from_address must be ${describeAddressFormat(wallet.network)}.`, { param: 'from_address' })
      }
      return presentWallet(ctx.deps.services.wallets.deposit(account, params.id, body.amount, body.from_address))
    },
  }),
  defineRoute({
    method: 'post', path: '/_sandbox/payments/{id}/process', operationId: 'sandboxProcessPayment', summary: 'Move a pending payment to processing', tag, auth,
    request: { params: PaymentIdParams },
    status: 200, response: PaymentSchema, errors: ['resource_missing', 'invalid_state_transition'],
    handler: ({ params }, ctx) => {
      return takeOver(ctx, params.id, (account, payment) => ctx.deps.services.payments.process(account, payment))
    },
  }),
  defineRoute({
    method: 'post', path: '/_sandbox/payments/{id}/complete', operationId: 'sandboxCompletePayment', summary: 'Complete a payment (a pending one passes through processing)', tag, auth,
    request: { params: PaymentIdParams },
    status: 200, response: PaymentSchema, errors: ['resource_missing', 'invalid_state_transition'],
    handler: ({ params }, ctx) => {
      return takeOver(ctx, params.id, (account, payment) => ctx.deps.services.payments.complete(account, payment))
    },
  }),
  defineRoute({
    method: 'post', path: '/_sandbox/payments/{id}/fail', operationId: 'sandboxFailPayment', summary: 'Fail a pending or processing payment', tag, auth,
    request: { params: PaymentIdParams, body: FailPaymentSchema },
    status: 200, response: PaymentSchema, errors: ['resource_missing', 'invalid_state_transition'],
    handler: ({ params, body }, ctx) => {
      const code = (body.failure_code ?? DEFAULT_FAILURE_CODE) as FailureCode
      return takeOver(ctx, params.id, (account, payment) => ctx.deps.services.payments.fail(account, payment, code, body.failure_message ?? FAILURE_MESSAGES[code]))
    },
  }),
  defineRoute({
    method: 'get', path: '/_sandbox/outcomes', operationId: 'sandboxListOutcomeRules', summary: 'Outcome rules, in the order they are tried (all, or one account’s)', tag, auth,
    request: { query: AccountScopeQuery },
    status: 200, response: z.array(OutcomeRuleSchema), errors: ['resource_missing'],
    handler: ({ query }, ctx) => ctx.deps.control.rules.list(scopedAccountId(ctx, query)),
  }),
  defineRoute({
    method: 'post', path: '/_sandbox/outcomes', operationId: 'sandboxCreateOutcomeRule', summary: 'Decide the outcome of matching payments (of every account, or of one)', tag, auth,
    request: { body: CreateOutcomeRuleSchema },
    status: 201, response: OutcomeRuleSchema, errors: ['resource_missing'],
    handler: ({ body }, ctx) => {
      const accountId = scopedAccountId(ctx, body)
      if (accountId !== undefined && body.match.account_id !== undefined && body.match.account_id !== accountId) {
        throw new ApiError('parameter_invalid', `match.account_id is ${body.match.account_id}, but the rule is for account ${accountId}; give one of them.`, { param: 'match.account_id' })
      }
      return ctx.deps.control.rules.add({ ...body, match: { ...body.match, ...(accountId && { account_id: accountId }) } })
    },
  }),
  defineRoute({
    method: 'delete', path: '/_sandbox/outcomes', operationId: 'sandboxClearOutcomeRules', summary: 'Remove every outcome rule, or one account’s', tag, auth,
    request: { query: AccountScopeQuery },
    status: 200, response: z.object({ deleted: CountSchema }), errors: ['resource_missing'],
    handler: ({ query }, ctx) => ({ deleted: ctx.deps.control.rules.clear(scopedAccountId(ctx, query)) }),
  }),
  defineRoute({
    method: 'delete', path: '/_sandbox/outcomes/{id}', operationId: 'sandboxDeleteOutcomeRule', summary: 'Remove one outcome rule', tag, auth,
    request: { params: OutcomeRuleIdParams },
    status: 200, response: z.object({ id: z.string(), object: z.literal('outcome_rule'), deleted: z.literal(true) }), errors: ['resource_missing'],
    handler: ({ params }, ctx) => {
      if (!ctx.deps.control.rules.remove(params.id)) throw new ApiError('resource_missing', `No such outcome rule: '${echoId(params.id)}'.`)
      return { id: params.id, object: 'outcome_rule', deleted: true }
    },
  }),
  defineRoute({
    method: 'post', path: '/_sandbox/screening', operationId: 'sandboxFlagAddress', summary: 'Flag an address (for every account, or one): payments to it fail with screening_rejected', tag, auth,
    request: { body: ScreeningSchema },
    status: 200, response: ScreeningResultSchema, errors: ['resource_missing'],
    handler: ({ body }, ctx) => {
      if (!isValidAddress(body.network, body.address)) {
        throw new ApiError('parameter_invalid', `address must be ${describeAddressFormat(body.network)}.`, { param: 'address' })
      }
      const accountId = scopedAccountId(ctx, body)
      ctx.deps.control.screening.flag(body.network, body.address, accountId)
      return { network: body.network, address: body.address, flagged: true, account_id: accountId ?? null }
    },
  }),
  defineRoute({
    method: 'delete', path: '/_sandbox/screening', operationId: 'sandboxUnflagAddress', summary: 'Unflag an address flagged through the control API', tag, auth,
    request: { body: ScreeningSchema },
    status: 200, response: ScreeningResultSchema, errors: ['resource_missing'],
    handler: ({ body }, ctx) => {
      const accountId = scopedAccountId(ctx, body)
      if (!ctx.deps.control.screening.unflag(body.network, body.address, accountId)) {
        const whose = accountId === undefined ? 'for every account' : `for account ${accountId}`
        throw new ApiError('resource_missing', `${echoId(body.address)} was not flagged through the control API on ${body.network} ${whose} (fixture entries cannot be removed).`, { param: 'address' })
      }
      return { network: body.network, address: body.address, flagged: false, account_id: accountId ?? null }
    },
  }),
  defineRoute({
    method: 'get', path: '/_sandbox/magic', operationId: 'sandboxMagicAddresses', summary: 'Payment recipients and settlement destinations with a fixed outcome', tag, auth,
    status: 200, response: z.array(MagicAddressSchema),
    handler: (_input, ctx) => [
      ...ctx.deps.fixtures.magic.map(({ network, address, outcome, failure_code, description }) => ({ applies_to: 'payments' as const, network, address, outcome, failure_code, description })),
      ...ctx.deps.fixtures.settlementMagic.map((entry) => ({
        applies_to: 'settlements' as const,
        destination_type: entry.destination_type,
        network: entry.destination_type === 'address' ? entry.network : null,
        address: entry.destination_type === 'address' ? entry.address : null,
        currency: entry.destination_type === 'bank_account' ? entry.currency : null,
        field: entry.destination_type === 'bank_account' ? entry.field : null,
        value: entry.destination_type === 'bank_account' ? entry.value : null,
        failure_code: entry.failure_code,
        ends: PRE_START_FAILURES.has(entry.failure_code) ? ('failed' as const) : ('refunded' as const),
        description: entry.description,
      })),
    ],
  }),
]
