import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import type { AnyRoute } from '../../src/http/route.js'
import type { OpenApiDocument } from '../../src/openapi/document.js'
import { EXAMPLE_IDS } from '../../src/schemas/path-params.js'
import { DEFAULT_KEY, institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/**
 * The isolation sweep, generated from the route table: every `/v1` operation that takes an id (in
 * its path, or in its body's example) is called with another account's key and one of Alice's ids of
 * each kind it takes, then with an unknown id of that kind. The answers must be the same (the id
 * aside), and neither may change anything. A new route with an id is swept without a change here,
 * or fails until CREATORS says how to make one of its kind.
 */

const ALICE = 'sk_test_isolation_sweep_alice'
/** The intruder is the default account: the document's body examples name its resources, so they get as far as they can. */
const INTRUDER = DEFAULT_KEY
const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'

type Creator = (sb: TestSandbox, key: string) => Promise<string>

const post = async (sb: TestSandbox, key: string, path: string, body: object) => (await sb.api.post(path).set(sb.auth(key)).send(body).expect(201)).body.data.id as string
const treasury = (sb: TestSandbox, key: string) => institutionalWallet(sb, 'polygon', 'USDC', key)

/** How to make one resource of each kind that a `/v1` path names before `{id}`. A route whose kind is missing fails the sweep. */
const CREATORS: Record<string, Creator> = {
  wallets: (sb, key) => post(sb, key, '/v1/wallets', { name: 'Alice savings', currency: 'USDC', network: 'polygon' }),
  payments: async (sb, key) => post(sb, key, '/v1/payments', { amount: '1.00', currency: 'USDC', source_wallet: (await treasury(sb, key)).id, recipient: EVM }),
  payouts: async (sb, key) => post(sb, key, '/v1/payouts', { source_wallet: (await treasury(sb, key)).id, currency: 'USDC', items: [{ amount: '1.00', recipient: EVM }] }),
  webhooks: (sb, key) => post(sb, key, '/v1/webhooks', { url: 'http://127.0.0.1:9/alice' }),
  whitelisted_addresses: (sb, key) => post(sb, key, '/v1/whitelisted_addresses', { address: EVM, network: 'polygon', label: 'Alice exchange' }),
  quotes: (sb, key) => post(sb, key, '/v1/quotes', { source_currency: 'USDC', destination_currency: 'ETH', source_amount: '100.00' }),
  // A limit order far below the market, so that it stays open (a cancel probe could otherwise end it).
  orders: async (sb, key) =>
    post(sb, key, '/v1/orders', { pair: 'ETH/USDC', side: 'buy', type: 'limit', amount: '0.01', limit_price: '1000.00', base_wallet: (await institutionalWallet(sb, 'ethereum', 'ETH', key)).id, quote_wallet: (await treasury(sb, key)).id }),
  settlements: async (sb, key) => post(sb, key, '/v1/settlements', { source_wallet: (await treasury(sb, key)).id, amount: '1.00', destination: { type: 'address', network: 'polygon', currency: 'USDC', address: EVM } }),
}

/**
 * Bodies beside the document's example that carry ids the example does not: a quote behind an
 * order or a settlement, a wallet as a settlement's destination. Every id in them is swept too.
 */
const MORE_BODIES: Record<string, object[]> = {
  createOrder: [{ pair: 'ETH/USDC', side: 'buy', quote_id: EXAMPLE_IDS.quote, base_wallet: EXAMPLE_IDS.ethWallet, quote_wallet: EXAMPLE_IDS.wallet }],
  createSettlement: [
    { source_wallet: EXAMPLE_IDS.wallet, quote_id: EXAMPLE_IDS.quote, amount: '100.00', destination: { type: 'address', network: 'ethereum', currency: 'ETH', address: EVM } },
    { source_wallet: EXAMPLE_IDS.wallet, amount: '1.00', destination: { type: 'wallet', wallet_id: EXAMPLE_IDS.emptyWallet } },
  ],
}

/** The resource kind of a path parameter: the segment before it (`/v1/wallets/{id}/balance` → wallets). */
function kindOf(path: string, param: string): string {
  const segments = path.split('/')
  return segments[segments.indexOf(`{${param}}`) - 1]!
}

interface Probe {
  name: string
  kind: string
  send: (sb: TestSandbox, id: string) => Promise<{ status: number; body: any }>
}

/** Every probe the route table and the document's examples yield. */
function probesOf(routes: readonly AnyRoute[], document: OpenApiDocument, idKinds: Map<string, string>): Probe[] {
  const probes: Probe[] = []
  for (const route of routes) {
    if (!route.path.startsWith('/v1/') || (route.auth ?? 'key') !== 'key') continue
    const operation = document.paths[route.path]![route.method]!
    const example = bodyExample(document, operation) ?? {}
    const call = (sb: TestSandbox, path: string, body: unknown) => {
      const request = sb.api[route.method](path).set(sb.auth(INTRUDER))
      return route.request?.body ? request.send(body as object) : request
    }
    for (const [, param] of route.path.matchAll(/\{(\w+)\}/g)) {
      const kind = kindOf(route.path, param!)
      probes.push({ name: `${route.method.toUpperCase()} ${route.path} {${param}}`, kind, send: (sb, id) => call(sb, route.path.replace(`{${param}}`, encodeURIComponent(id)), example) })
    }
    // Ids inside the body: every string of the example (or of MORE_BODIES) that is an id of a kind the sweep can make.
    const bodies = [example, ...(MORE_BODIES[route.operationId] ?? [])]
    bodies.forEach((body, index) => {
      for (const { pointer, kind } of idsIn(body, idKinds)) {
        const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => exampleOf(operation, name))
        const which = index === 0 ? '' : ` (body ${index + 1})`
        probes.push({ name: `${route.method.toUpperCase()} ${route.path} body ${pointer.join('.')}${which}`, kind, send: (sb, id) => call(sb, path, withValue(body, pointer, id)) })
      }
    })
  }
  return probes
}

function bodyExample(document: OpenApiDocument, operation: Record<string, unknown>): unknown {
  let body = operation.requestBody as { $ref?: string; content?: Record<string, { schema: { example?: unknown } }> } | undefined
  if (body?.$ref) body = document.components.requestBodies![body.$ref.split('/').pop()!] as typeof body
  return body?.content?.['application/json']?.schema.example
}

function exampleOf(operation: Record<string, unknown>, name: string): string {
  const parameter = (operation.parameters as Array<{ name: string; in: string; example?: string }>).find((p) => p.in === 'path' && p.name === name)
  return parameter?.example ?? name
}

function idsIn(value: unknown, idKinds: Map<string, string>, pointer: string[] = []): Array<{ pointer: string[]; kind: string }> {
  if (typeof value === 'string') {
    const kind = idKinds.get(value.split('_')[0]!)
    return kind && /^[a-z]+_\w{24}$/.test(value) ? [{ pointer, kind }] : []
  }
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, inner]) => idsIn(inner, idKinds, [...pointer, key]))
  return []
}

function withValue(value: unknown, pointer: string[], replacement: string): unknown {
  if (pointer.length === 0) return replacement
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) }
  copy[pointer[0]!] = withValue(copy[pointer[0]!], pointer.slice(1), replacement)
  return copy
}

/** The answer with the id replaced, so a foreign id and an unknown one can be compared. */
const shape = (res: { status: number; body: any }, id: string) => ({ status: res.status, body: JSON.parse(JSON.stringify(res.body?.error ?? res.body).replaceAll(id, '<id>')) })

let sb: TestSandbox
let probes: Probe[]
const alice: Record<string, string> = {}

beforeAll(async () => {
  sb = await startTestSandbox({ seed: loadConfig({}).seed })
  for (const [kind, create] of Object.entries(CREATORS)) alice[kind] = await create(sb, ALICE)
  const idKinds = new Map(Object.entries(alice).map(([kind, id]) => [id.split('_')[0]!, kind]))
  const document = (await sb.api.get('/v1/openapi.json').expect(200)).body as OpenApiDocument
  probes = probesOf((await sb.sandbox.loadRoutes()), document, idKinds)
})
afterAll(() => sb.close())

describe('the isolation sweep', () => {
  it('knows how to make a resource of every kind a /v1 route takes an id of', () => {
    const missing = [...new Set(probes.map((probe) => probe.kind).filter((kind) => !CREATORS[kind]))]
    expect(missing, `add a creator to CREATORS in ${import.meta.filename} for: ${missing.join(', ')}`).toEqual([])
  })

  it('answers a foreign id exactly like an unknown id, on every operation that takes one, and changes nothing', async () => {
    const leaks: string[] = []
    for (const probe of probes) {
      const foreignId = alice[probe.kind]!
      const unknownId = `${foreignId.split('_')[0]}_000000000000000000000000`
      const before = JSON.stringify(sb.sandbox.store.toData())
      const foreign = await probe.send(sb, foreignId)
      const unknown = await probe.send(sb, unknownId)
      if (JSON.stringify(shape(foreign, foreignId)) !== JSON.stringify(shape(unknown, unknownId))) leaks.push(`${probe.name}: ${JSON.stringify(shape(foreign, foreignId))} ≠ ${JSON.stringify(shape(unknown, unknownId))}`)
      else if (foreign.status !== 404) leaks.push(`${probe.name}: answered ${foreign.status}, not 404`)
      if (JSON.stringify(sb.sandbox.store.toData()) !== before) leaks.push(`${probe.name}: the state changed`)
    }
    console.log(`isolation sweep: ${probes.length} probes (${new Set(probes.map((p) => p.kind)).size} resource kinds), ${leaks.length} leaks`)
    expect(leaks).toEqual([])
    // The sweep covers at least every id route there is today.
    expect(probes.length).toBeGreaterThanOrEqual(25)
  })
})
