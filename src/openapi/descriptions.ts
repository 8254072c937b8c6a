import type { AnyRoute } from '../http/route.js'

/** The document's prose: tags, security schemes, the API's and each operation's description. */

export const CONTROL_TAG = 'Sandbox control'
export const WEBHOOKS_TAG = 'Webhook events'

/** Every tag a route may use; a route with a tag missing here fails the document's test (Redocly's tag-description). */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  Prices: 'Current prices of the price feed, the same numbers as the stream\'s `prices` channel.',
  Trading: 'Trading pairs and quotes: a conversion rate between two currencies, held for --quote-ttl of sandbox time.',
  Wallets: 'Wallets of the account, their balances, and closing them.',
  Payments: 'Payments from a wallet to another wallet of the account or to an external address.',
  Payouts: 'Bulk payouts: many payments from one wallet, validated and funded all or nothing.',
  Orders: 'Market and limit orders on a trading pair, filled from the price feed on the ticks of the sandbox clock.',
  Settlements: 'Cross-border settlements: value from a wallet to a wallet, an address on any network or a bank account abroad, in ordered steps (conversion, bridge, transfer).',
  'Whitelisted addresses': 'External addresses payments may go to when the account enforces its whitelist.',
  'Webhook endpoints': 'Where the sandbox delivers events (see the webhooks section for the payloads).',
  OpenAPI: 'This document.',
  [WEBHOOKS_TAG]: 'What the sandbox POSTs to webhook endpoints, one operation per event type.',
  [CONTROL_TAG]: 'The sandbox-only control API under /_sandbox. No API key; with --control-token it needs Authorization: Bearer <token>. Answers always use the {data, request_id} envelope.',
}

export const SECURITY_SCHEMES = {
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'sk_test_… or rk_test_…',
    description:
      'A sandbox API key: `sk_test_` (secret) or `rk_test_` (restricted, with scopes) followed by at least 8 letters, digits or underscores. ' +
      'With --auth open (the default) any well-formed sk_test_ key gets its own freshly seeded account.',
  },
  controlToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'The token given to --control-token. Without that flag the control API needs no credentials.',
  },
}

export const INFO_DESCRIPTION = [
  'A local emulator of a digital-asset wallet and payments API, for integration tests.',
  '',
  'Success bodies are `{data, request_id}`; lists are `{data: [...], pagination: {limit, offset, total, has_more}, request_id}`. ' +
    'With `--envelope bare` single resources are returned bare; lists and errors keep their shape.',
  'Errors are `{error: {type, code, message, param?}, request_id}`; each error response lists its possible codes.',
  'Every response carries `X-Request-Id`. Every POST under /v1 accepts `Idempotency-Key`.',
].join('\n')

export function successDescription(route: AnyRoute, underV1: boolean): string {
  if (route.list === 'cursor') return 'The results after the cursor: `{data: [...], has_more, request_id}`.'
  if (route.list) return 'A page of results: `{data: [...], pagination, request_id}` (the same with --envelope bare).'
  if (!underV1) return 'The result in the `{data, request_id}` envelope (whatever --envelope says).'
  return 'The resource in the `{data, request_id}` envelope. With --envelope bare the body is the resource itself.'
}

export function describeOperation(route: AnyRoute, auth: 'key' | 'none' | 'control'): string {
  const lines = [route.summary + '.']
  if (auth === 'key' && route.scope) lines.push(`Restricted keys need the scope \`${route.scope}\` (a \`:write\` scope includes its \`:read\`).`)
  if (auth === 'none') lines.push('No API key needed.')
  return lines.join(' ')
}
