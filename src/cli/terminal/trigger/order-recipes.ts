import { TerminalError } from '../target.js'
import { advanceAccountClock, type ApiObject, type Recipe, type TriggerSteps } from './recipe.js'
import { overlay } from './sets.js'
import { fundedWallet } from './wallets.js'

/**
 * Orders: a limit order on ETH/USDC (unless `--set pair=…`) priced at half the market (a buy; a sell
 * at twice it), so that no price tick fills it, of twice the pair's smallest amount; control calls
 * then fill, reject or expire it.
 */

const ORDER_FIELDS = ['pair', 'side', 'amount', 'limit_price', 'base_wallet', 'quote_wallet', 'metadata.*'] as const

interface OrderInput {
  pair: string
  side: string
  type: 'limit'
  time_in_force: string
  amount?: string
  limit_price?: string
  base_wallet?: string
  quote_wallet?: string
  expires_at?: string
  [field: string]: unknown
}

const createOrder = (timeInForce: 'gtc' | 'gtd') => async (steps: TriggerSteps, overrides: Record<string, unknown>): Promise<ApiObject> => {
  const { api } = steps.connection
  const input = overlay<OrderInput>({ pair: 'ETH/USDC', side: 'buy', type: 'limit', time_in_force: timeInForce }, overrides)
  const pairs = await api<Array<{ pair: string; base: string; quote: string; min_amount: string }>>('GET', '/pairs')
  const pair = pairs.find((entry) => entry.pair === input.pair)
  if (!pair) throw new TerminalError(`pair ${input.pair} is not traded; the pairs are ${pairs.map((entry) => entry.pair).join(', ')}`)
  const [price] = await api<Array<{ bid: string; ask: string }>>('GET', `/prices?pairs=${encodeURIComponent(pair.pair)}`)
  const amount = input.amount ?? String(Number(pair.min_amount) * 2)
  const limit = input.limit_price ?? (input.side === 'sell' ? (Number(price!.bid) * 2).toFixed(2) : (Number(price!.ask) / 2).toFixed(2))
  // A buy spends the quote currency (amount × limit, and the fee: a tenth more covers it); a sell the base.
  const spend = input.side === 'sell' ? { currency: pair.base, amount } : { currency: pair.quote, amount: (Number(amount) * Number(limit) * 1.1).toFixed(2) }
  const base = input.base_wallet ?? (input.side === 'sell' ? (await fundedWallet(steps, spend)).id : (await fundedWallet(steps, { currency: pair.base, amount: '0' })).id)
  const quote = input.quote_wallet ?? (input.side === 'sell' ? (await fundedWallet(steps, { currency: pair.quote, amount: '0' })).id : (await fundedWallet(steps, spend)).id)
  if (timeInForce === 'gtd') input.expires_at = new Date(Date.parse((await steps.connection.control.clock()).now) + EXPIRES_AFTER_MS).toISOString()
  const order = await api<ApiObject>('POST', '/orders', { ...input, amount, limit_price: limit, base_wallet: base, quote_wallet: quote })
  await steps.created(order)
  return order
}

/** How long after the sandbox's now a `gtd` order of `trigger order.expired` lasts. */
const EXPIRES_AFTER_MS = 1000

/** Fills at the order's own limit, so that a fill is never refused for its price; `part` fills half of what is left. */
const fill = (part: 'half' | 'rest') => async (steps: TriggerSteps, order: ApiObject) => {
  const left = Number(order.amount) - Number(order.filled_amount)
  const amount = part === 'half' ? trim(left / 2) : undefined
  const body = { ...(amount ? { amount } : {}), price: order.limit_price as string }
  await steps.call(`POST /_sandbox/orders/${order.id}/fill ${JSON.stringify(body)}`, () => steps.connection.control.fillOrder(order.id, body))
}

/** A decimal without float noise: at most 8 decimals, no trailing zeros. */
const trim = (value: number) => value.toFixed(8).replace(/\.?0+$/, '')

async function cancel(steps: TriggerSteps, order: ApiObject): Promise<void> {
  await steps.call(`POST /v1/orders/${order.id}/cancel`, () => steps.connection.api('POST', `/orders/${order.id}/cancel`))
}

async function reject(steps: TriggerSteps, order: ApiObject): Promise<void> {
  await steps.call(`POST /_sandbox/orders/${order.id}/reject`, () => steps.connection.control.rejectOrder(order.id, 'Rejected by wallet-sandbox trigger.'))
}

/** Moves the account's clock to the order's expires_at (a gtd order expires the moment its account's clock reaches it). */
async function expire(steps: TriggerSteps, order: ApiObject): Promise<void> {
  if (order.time_in_force !== 'gtd' || typeof order.expires_at !== 'string') {
    throw new TerminalError(`order ${order.id} is ${order.time_in_force}: only a gtd order expires (time_in_force gtd with expires_at)`)
  }
  const scope = { api_key: steps.connection.target.apiKey }
  const ms = Math.max(0, Date.parse(order.expires_at) - Date.parse((await steps.connection.control.clock(scope)).now))
  await advanceAccountClock(steps, ms)
}

const OPEN = ['open', 'partially_filled'] as const
const order = (describe: string, extra: Partial<Recipe> = {}): Recipe => ({ resource: 'order', describe, fields: ORDER_FIELDS, create: createOrder('gtc'), ...extra })

export const ORDER_RECIPES = {
  'order.created': order('a limit buy on ETH/USDC at half the market, which rests'),
  'order.partially_filled': order('a resting limit order, then half of it filled by a control call', { onStates: OPEN, drive: fill('half') }),
  'order.filled': order('a resting limit order, then filled by a control call', { onStates: OPEN, drive: fill('rest') }),
  'order.cancelled': order('a resting limit order, then cancelled (POST /v1/orders/{id}/cancel)', { onStates: OPEN, drive: cancel }),
  'order.expired': order('a gtd limit order lasting 1 s of sandbox time, then the sandbox clock moved to its expiry (everything else due by then runs too)', { onStates: OPEN, create: createOrder('gtd'), drive: expire }),
  'order.rejected': order('a resting limit order, then rejected by a control call', { onStates: ['open'], drive: reject }),
} satisfies Record<string, Recipe>
