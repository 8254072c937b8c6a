import type { ApiObject, Recipe, TriggerSteps } from './recipe.js'
import { overlay } from './sets.js'
import { fundedWallet, recipientOn } from './wallets.js'

/**
 * Payments and bulk payouts: created from a funded USDC wallet on polygon unless `--set` says
 * otherwise, then driven by control calls. A payment meant to fail also carries metadata
 * `sandbox_outcome: failed`, so that it fails under `--settle instant` too, where it ends before any
 * control call; a call is skipped for a payment that has already ended.
 */

const PAYMENT_FIELDS = ['amount', 'currency', 'network', 'source_wallet', 'recipient', 'description', 'metadata.*'] as const
const PAYOUT_FIELDS = ['amount', 'currency', 'network', 'source_wallet', 'recipient', 'metadata.*'] as const

interface PaymentInput {
  amount: string
  currency: string
  network: string
  source_wallet?: string
  recipient?: string
  [field: string]: unknown
}

const FAILS = { sandbox_outcome: 'failed' }
const FINAL = ['completed', 'failed']

const createPayment = (metadata: Record<string, string> = {}) => async (steps: TriggerSteps, overrides: Record<string, unknown>): Promise<ApiObject> => {
  const { network, ...input } = overlay<PaymentInput>({ amount: '1.00', currency: 'USDC', network: 'polygon', metadata }, overrides)
  const source = input.source_wallet ?? (await fundedWallet(steps, { currency: input.currency, network, amount: input.amount })).id
  const payment = await steps.connection.api<ApiObject>('POST', '/payments', { ...input, source_wallet: source, recipient: input.recipient ?? recipientOn(network) })
  await steps.created(payment)
  return payment
}

const paymentControl = (action: 'process' | 'complete' | 'fail') => async (steps: TriggerSteps, { id }: ApiObject) => {
  const payment = await steps.connection.api<ApiObject>('GET', `/payments/${id}`)
  if (FINAL.includes(payment.status) || (action === 'process' && payment.status !== 'pending')) return
  const control = steps.connection.control
  await steps.call(`POST /_sandbox/payments/${payment.id}/${action}`, () =>
    action === 'process' ? control.processPayment(payment.id) : action === 'complete' ? control.completePayment(payment.id) : control.failPayment(payment.id))
}

/** Two items, so that one can complete while the other fails; `itemMetadata[i]` for item i. */
const createPayout = (itemMetadata: Array<Record<string, string>> = [{}, {}]) => async (steps: TriggerSteps, overrides: Record<string, unknown>): Promise<ApiObject> => {
  const { network, amount, recipient, ...input } = overlay<PaymentInput>({ amount: '1.00', currency: 'USDC', network: 'polygon' }, overrides)
  const source = input.source_wallet ?? (await fundedWallet(steps, { currency: input.currency, network, amount: String(Number(amount) * 2) })).id
  const to = recipient ?? recipientOn(network)
  const payout = await steps.connection.api<ApiObject & { payment_ids: string[] }>('POST', '/payouts', { ...input, source_wallet: source, items: itemMetadata.map((metadata) => ({ amount, recipient: to, metadata })) })
  await steps.created(payout, ...payout.payment_ids.map((id) => ({ id, object: 'payment', status: 'pending' })))
  return payout
}

/** Ends every item of a payout: `outcomes[i]` for item i, the last outcome for the rest. */
const endItems = (outcomes: Array<'complete' | 'fail'>) => async (steps: TriggerSteps, payout: ApiObject) => {
  const ids = payout.payment_ids as string[]
  for (const [index, id] of ids.entries()) await paymentControl(outcomes[Math.min(index, outcomes.length - 1)]!)(steps, { id, object: 'payment', status: '' })
}

const payment = (describe: string, extra: Partial<Recipe> = {}): Recipe => ({ resource: 'payment', describe, fields: PAYMENT_FIELDS, create: createPayment(), ...extra })
const payout = (describe: string, extra: Partial<Recipe> = {}): Recipe => ({ resource: 'payout', describe, fields: PAYOUT_FIELDS, create: createPayout(), ...extra })

export const PAYMENT_RECIPES = {
  'payment.created': payment('a payment of 1.00 USDC on polygon'),
  'payment.processing': payment('a payment, then processed by a control call', { onStates: ['pending'], drive: paymentControl('process') }),
  'payment.succeeded': payment('a payment, then completed by a control call', { onStates: ['pending', 'processing'], drive: paymentControl('complete') }),
  'payment.failed': payment('a payment (metadata sandbox_outcome failed), then failed by a control call (network_congestion)', { onStates: ['pending', 'processing'], create: createPayment(FAILS), drive: paymentControl('fail') }),
  'payout.created': payout('a bulk payout of two 1.00 USDC payments on polygon'),
  'payout.completed': payout('a bulk payout, then each payment completed', { onStates: ['pending', 'processing'], drive: endItems(['complete']) }),
  'payout.failed': payout('a bulk payout (items with metadata sandbox_outcome failed), then each payment failed', { onStates: ['pending', 'processing'], create: createPayout([FAILS, FAILS]), drive: endItems(['fail']) }),
  'payout.partially_failed': payout('a bulk payout (its second item with metadata sandbox_outcome failed), then its first payment completed and the others failed', {
    onStates: ['pending', 'processing'], create: createPayout([{}, FAILS]), drive: endItems(['complete', 'fail']),
  }),
} satisfies Record<string, Recipe>
