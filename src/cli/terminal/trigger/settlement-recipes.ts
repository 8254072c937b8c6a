import { SandboxControlError } from '../../../client/control-request.js'
import { advanceAccountClock, type ApiObject, type Recipe, type TriggerSteps } from './recipe.js'
import { overlay } from './sets.js'
import { fundedWallet, recipientOn } from './wallets.js'

/**
 * Settlements: 5.00 USDC from polygon to a USDC address on solana (unless `--set` says otherwise), so
 * two steps: a bridge, then a transfer. Control calls move them on; one meant to fail carries the
 * metadata outcome too, so that it ends the same way under `--settle instant` (where it runs at once),
 * and a call is skipped for a settlement that has ended.
 */

const SETTLEMENT_FIELDS = ['amount', 'destination_amount', 'currency', 'network', 'source_wallet', 'description', 'metadata.*', 'destination.*'] as const
const FINAL = ['completed', 'failed', 'refunded']

interface SettlementInput {
  amount?: string
  currency: string
  network: string
  source_wallet?: string
  destination: Record<string, unknown>
  [field: string]: unknown
}

const createSettlement = (metadata: Record<string, string> = {}) => async (steps: TriggerSteps, overrides: Record<string, unknown>): Promise<ApiObject> => {
  const defaults: SettlementInput = { amount: '5.00', currency: 'USDC', network: 'polygon', metadata, destination: { type: 'address', network: 'solana', currency: 'USDC' } }
  const { currency, network, ...input } = overlay(defaults, overrides)
  const destination = { ...input.destination }
  if (destination.type === 'address') destination.address ??= recipientOn(String(destination.network))
  const source = input.source_wallet ?? (await fundedWallet(steps, { currency, network, amount: String(Number(input.amount ?? input.destination_amount ?? 0) * 2) })).id
  const settlement = await steps.connection.api<ApiObject>('POST', '/settlements', { ...input, destination, source_wallet: source })
  await steps.created(settlement)
  return settlement
}

const current = (steps: TriggerSteps, id: string) => steps.connection.api<ApiObject>('GET', `/settlements/${id}`)

const ended = (settlement: ApiObject) => FINAL.includes(settlement.status) || Boolean(settlement.refund)

/**
 * A control call on a settlement that has not ended; false when it has, before the call or during
 * it: under `--settle instant` the sandbox finishes it on its own, which can happen between the
 * check and the call (the call is then refused as an invalid state transition).
 */
async function whileMoving(steps: TriggerSteps, id: string, action: 'advance' | 'fail'): Promise<boolean> {
  if (ended(await current(steps, id))) return false
  try {
    await steps.call(`POST /_sandbox/settlements/${id}/${action}`, () => (action === 'advance' ? steps.connection.control.advanceSettlement(id) : steps.connection.control.failSettlement(id)))
    return true
  } catch (error) {
    if (error instanceof SandboxControlError && error.code === 'invalid_state_transition' && ended(await current(steps, id))) return false
    throw error
  }
}

/** `advance` until the settlement has done `times` more steps, or until it ends (`times` Infinity). */
const advance = (times: number) => async (steps: TriggerSteps, { id }: ApiObject) => {
  for (let done = 0; done < times; done++) if (!(await whileMoving(steps, id, 'advance'))) return
}

async function fail(steps: TriggerSteps, { id }: ApiObject): Promise<void> {
  await whileMoving(steps, id, 'fail')
}

/** A step that fails after value left is refunded after its delay on the account's clock: that much of its time is moved on. */
const REFUND_DELAY_MS = 5000

async function failAfterValueLeft(steps: TriggerSteps, settlement: ApiObject): Promise<void> {
  if (settlement.status === 'pending') await advance(1)(steps, settlement)
  await fail(steps, settlement)
  if ((await current(steps, settlement.id)).status === 'refunded') return
  await advanceAccountClock(steps, REFUND_DELAY_MS)
}

const MOVING = ['pending', 'processing'] as const
const settlement = (describe: string, extra: Partial<Recipe> = {}): Recipe => ({ resource: 'settlement', describe, fields: SETTLEMENT_FIELDS, create: createSettlement(), ...extra })

export const SETTLEMENT_RECIPES = {
  'settlement.created': settlement('a settlement of 5.00 USDC from polygon to a USDC address on solana (a bridge, then a transfer)'),
  'settlement.processing': settlement('a settlement, then its first step done by a control call (the next starts)', { onStates: ['pending'], drive: advance(1) }),
  'settlement.step_completed': settlement('a settlement, then one step done by a control call', { onStates: MOVING, drive: advance(1) }),
  'settlement.completed': settlement('a settlement, then every step done by control calls', { onStates: MOVING, drive: advance(Infinity) }),
  'settlement.failed': settlement('a settlement (metadata: compliance_rejected on its first step), then failed before its first step starts', {
    onStates: ['pending'], create: createSettlement({ sandbox_outcome: 'failed', sandbox_fail_step: 'bridge', sandbox_failure_code: 'compliance_rejected' }), drive: fail,
  }),
  'settlement.refunded': settlement('a settlement (metadata: its transfer fails), its bridge done, its transfer failed, then the sandbox clock moved 5 s for the refund', {
    onStates: MOVING, create: createSettlement({ sandbox_outcome: 'failed', sandbox_fail_step: 'transfer' }), drive: failAfterValueLeft,
  }),
} satisfies Record<string, Recipe>
