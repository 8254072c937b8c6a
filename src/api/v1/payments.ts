import { ApiError } from '../../errors.js'
import { CURRENCIES } from '../../model/networks.js'
import { PaymentIdParams } from '../../schemas/path-params.js'
import { CreatePaymentSchema, ListPaymentsQuery, PaymentSchema } from '../../schemas/payment.js'
import { presentPayment } from '../../ledger/present.js'
import type { RequestContext } from '../../http/context.js'
import { defineRoute, presentPage } from '../../http/route.js'

const tag = 'Payments'
/** Each upper case (networks.ts): for these, `toUpperCase()` answers the text itself. */
const KNOWN_CURRENCIES = new Set(CURRENCIES)

/**
 * The variants of the API's introductory example (CONTRACT.md section 5): a JSON number amount, a
 * lower-case currency and `destination` for `recipient`. Accepted with --lenient; otherwise each is
 * refused with a message that names the flag.
 */
export function adaptLenientPayment(raw: unknown, ctx: RequestContext): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw
  const given = raw as Record<string, unknown>
  // The body as it came when it has none of the variants (every strict client's): no copy to make.
  // A currency the sandbox knows is upper case already: no upper-case copy made to compare (a call
  // into V8's case conversion for every payment, issue 33, round 9).
  const lowerCurrency = typeof given.currency === 'string' && !KNOWN_CURRENCIES.has(given.currency) && given.currency !== given.currency.toUpperCase()
  if (typeof given.amount !== 'number' && !lowerCurrency && !('destination' in given && !('recipient' in given))) return raw
  const lenient = ctx.deps.config.lenient
  const body = { ...given }
  const refuse = (param: string, message: string) => {
    throw new ApiError('parameter_invalid', `${message}; this variant is accepted only when the sandbox runs with --lenient.`, { param })
  }
  if (typeof body.amount === 'number') {
    if (!lenient) refuse('amount', 'amount must be a decimal string such as "10.50", not a JSON number')
    body.amount = Number.isFinite(body.amount) ? String(body.amount) : body.amount
  }
  if (typeof body.currency === 'string' && body.currency !== body.currency.toUpperCase() && CURRENCIES.includes(body.currency.toUpperCase())) {
    if (!lenient) refuse('currency', `currency must be upper case ('${body.currency.toUpperCase()}')`)
    body.currency = body.currency.toUpperCase()
  }
  if ('destination' in body && !('recipient' in body)) {
    if (!lenient) refuse('destination', 'the field is called recipient, not destination')
    body.recipient = body.destination
    delete body.destination
  }
  return body
}

export const paymentRoutes = [
  defineRoute({
    method: 'post', path: '/v1/payments', operationId: 'createPayment', summary: 'Create a payment', tag, scope: 'payments:write',
    request: { body: CreatePaymentSchema },
    prepareBody: adaptLenientPayment,
    status: 201, response: PaymentSchema,
    errors: ['resource_missing', 'wallet_inactive', 'recipient_not_whitelisted', 'insufficient_funds', 'idempotency_key_reused', 'idempotency_key_in_use'],
    handler: ({ body }, ctx) => ctx.deps.services.payments.createPresented(ctx.account, body),
  }),
  defineRoute({
    method: 'get', path: '/v1/payments', operationId: 'listPayments', summary: 'List payments, newest first', tag, scope: 'payments:read',
    request: { query: ListPaymentsQuery },
    status: 200, response: PaymentSchema, list: true,
    handler: ({ query: { limit, offset, ...filter } }, ctx) => presentPage(ctx.deps.services.payments.list(ctx.account, filter, offset, limit), presentPayment),
  }),
  defineRoute({
    method: 'get', path: '/v1/payments/{id}', operationId: 'getPayment', summary: 'Retrieve a payment', tag, scope: 'payments:read',
    request: { params: PaymentIdParams },
    status: 200, response: PaymentSchema, errors: ['resource_missing'],
    handler: ({ params }, ctx) => presentPayment(ctx.deps.services.payments.get(ctx.account, params.id)),
  }),
]
