// `npm run test:contract`: contract tests generated from GET /v1/openapi.json by Portman
// (@apideck/portman) and run by newman against a fresh sandbox on the default key, offline.
// Every operation is called once, with the examples of the document; an operation passes when it
// answers 2xx and Portman's checks (status, content type, JSON body, schema, X-Request-Id) hold.
// Every answer, whatever its status, must also match the document for its status; none may be a 5xx.
// Writes .contract-report.json ({passed, failed}, one test per operation) for .ci/run.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { ROOT, SANDBOX_BIN, fetchJson, printTable, startServer } from '../../bench/lib.mjs'

const require = createRequire(import.meta.url)
const newman = require('newman')
const addFormats = addFormatsModule.default ?? addFormatsModule
const DEFAULT_KEY = 'sk_test_sandbox_default_key'
/** At least this share of the operations must succeed (CONTRACT.md via issue 16). */
const REQUIRED_SHARE = 0.9
/** Operations that undo what the others need: run after everything else, resets last of all. */
const LAST = ['sandboxReset', 'sandboxRestore']

const work = mkdtempSync(join(tmpdir(), 'wallet-sandbox-contract-'))
// Manual settlement keeps the example payments pending until the control calls move them.
const server = await startServer(SANDBOX_BIN, ['--rate-limit', '0', '--settle', 'manual', '--webhook-timeout', '500', '--quiet'], '/_sandbox/health')
const baseUrl = `http://127.0.0.1:${server.port}`
let exitCode = 1
try {
  const document = (await fetchJson(server.port, '/v1/openapi.json')).body
  const operations = listOperations(document)
  const plan = await planIds(document, operations, server.port)
  await pinUnpinnedExamples(document, operations, server.port)
  const collection = join(work, 'collection.json')
  // One folder, so that orderOfOperations orders the whole run, not each tag on its own.
  const flat = structuredClone(document)
  for (const { path, method } of operations) flat.paths[path][method].tags = ['contract']
  writeFileSync(join(work, 'openapi.json'), JSON.stringify(flat))
  writeFileSync(join(work, 'portman-config.json'), JSON.stringify(portmanConfig(operations, plan)))
  writeFileSync(join(work, 'postman-config.json'), JSON.stringify({ folderStrategy: 'Tags', requestParametersResolution: 'Example', exampleParametersResolution: 'Example', enableOptionalParameters: false }))
  execFileSync(process.execPath, [join(ROOT, 'node_modules/@apideck/portman/bin/portman'), '-l', join(work, 'openapi.json'), '-b', baseUrl, '-o', collection, '-c', join(work, 'portman-config.json'), '-s', join(work, 'postman-config.json')], { cwd: work, stdio: ['ignore', process.env.CONTRACT_VERBOSE ? 'inherit' : 'ignore', 'inherit'] })

  const summary = await new Promise((resolve, reject) => newman.run({ collection: JSON.parse(readFileSync(collection, 'utf8')), reporters: [], timeoutRequest: 20_000 }, (error, result) => (error ? reject(error) : resolve(result))))
  const results = judge(summary.run.executions, operations, document)
  const passed = results.filter((r) => r.ok).length
  const serverErrors = results.filter((r) => r.status >= 500).length
  const violations = results.reduce((sum, r) => sum + r.schemaProblems.length, 0)
  printTable(`Contract tests: ${operations.length} operations of GET /v1/openapi.json, Portman + newman against a fresh sandbox`, ['operation', 'status', 'result'], results.map((r) => [r.operationId, r.status ?? 'none', r.ok ? 'passed' : r.problems.join('; ').slice(0, 160)]))
  printTable('Totals', ['operations', 'passed', 'failed', 'share passed', '5xx', 'schema violations'], [[operations.length, passed, operations.length - passed, `${Math.round((passed / operations.length) * 100)}%`, serverErrors, violations]])
  writeFileSync(join(ROOT, '.contract-report.json'), JSON.stringify({ passed, failed: operations.length - passed }))
  exitCode = passed >= REQUIRED_SHARE * operations.length && serverErrors === 0 && violations === 0 && results.length === operations.length ? 0 : 1
} finally {
  await server.stop()
  rmSync(work, { recursive: true, force: true })
}
process.exit(exitCode)

function listOperations(document) {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operationId: operation.operationId, operation, pattern: templatePattern(path) })),
  )
}

function templatePattern(template) {
  return new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '[^/]+')}$`)
}

/** The kind of resource a path parameter names: the segment before it (`/_sandbox/payments/{id}/fail` → payments). */
function kindOf(path) {
  return path.split('/')[path.split('/').indexOf('{id}') - 1]
}

/**
 * Where each `{id}` comes from. An example that exists on the fresh sandbox (a seeded wallet, the
 * default account) is used as it is. Otherwise the id comes from what the run itself creates: the
 * `data.id` of the operation that creates that kind (`POST` on the collection), the ids a create
 * answers in a `<kind>_ids` list (a payout's payments), or the first item of the kind's list. An
 * action on a resource (`…/{id}/fail`) gets an id no other action used, since most actions end
 * what they act on; when the run creates too few of a kind (three order actions, one order
 * create), the set-up creates the rest with the create's own example.
 */
async function planIds(document, operations, port) {
  const exists = async (path) => (await fetchJson(port, path, { headers: { authorization: `Bearer ${DEFAULT_KEY}` } })).status === 200
  const sources = new Map() // kind → [{ operationId, prop }]
  const add = (kind, source) => sources.set(kind, [...(sources.get(kind) ?? []), source])
  for (const { path, method, operationId, operation } of operations) {
    const created = operation.responses['201']
    const properties = created?.content?.['application/json']?.schema?.properties?.data
    if (method === 'post' && created) {
      add(path.split('/').pop(), { operationId, prop: 'data.id' })
      const resource = properties?.$ref ? resolve(document, properties.$ref) : properties
      for (const [name, schema] of Object.entries(resource?.properties ?? {})) {
        if (name.endsWith('_ids') && schema.type === 'array') for (const i of [0, 1, 2]) add(`${name.slice(0, -4)}s`, { operationId, prop: `data.${name}[${i}]` })
      }
    }
  }
  for (const { path, method, operationId } of operations) if (method === 'get' && !path.includes('{') && !sources.has(path.split('/').pop())) add(path.split('/').pop(), { operationId, prop: 'data[0].id' })

  const used = new Map()
  const plan = new Map() // operationId → value for {id}
  const fresh = [] // [operationId, kind]: actions the run creates too few of their kind for
  for (const { path, method, operationId, operation } of operations) {
    const param = (operation.parameters ?? []).find((p) => p.in === 'path' && p.name === 'id')
    if (!param) continue
    const kind = kindOf(path)
    const sameTemplateGet = document.paths[path].get ? path : `/v1/${kind}/{id}`
    if (param.example && document.paths[sameTemplateGet]?.get && (await exists(sameTemplateGet.replace('{id}', param.example)))) continue
    const candidates = sources.get(kind) ?? []
    if (candidates.length === 0) continue
    const action = !path.endsWith('{id}') && method === 'post'
    const taken = used.get(kind) ?? 0
    if (action) used.set(kind, taken + 1)
    if (action && taken >= candidates.length && creatorOf(operations, kind)) fresh.push([operationId, kind])
    else plan.set(operationId, action ? candidates[Math.min(taken, candidates.length - 1)] : candidates[0])
  }
  // Created only now, after every example id was looked up: the first of a kind gets its example id.
  for (const [operationId, kind] of fresh) plan.set(operationId, { value: await createForSetUp(document, creatorOf(operations, kind), port) })
  return plan
}

/** The operation that creates a kind (`POST /v1/orders` for orders), if it has a body example to send. */
function creatorOf(operations, kind) {
  return operations.find((o) => o.method === 'post' && o.path === `/v1/${kind}` && o.operation.responses['201'])
}

/**
 * One more resource of a kind for an action that ends what it acts on (an order can be filled,
 * rejected or cancelled only once): created with the same example the run sends, before the run.
 */
async function createForSetUp(document, creator, port) {
  const answer = await fetchJson(port, creator.path, { method: 'POST', headers: { authorization: `Bearer ${DEFAULT_KEY}` }, body: bodyExampleOf(document, creator.operation) })
  if (answer.status !== 201) throw new Error(`set-up: ${creator.operationId} with its example answered ${answer.status}: ${JSON.stringify(answer.body)}`)
  return answer.body.data.id
}

/**
 * Each way of removing a price pin names its own example pair; the run pins only the create
 * example's pair, so the set-up pins the others (at the create example's price).
 */
async function pinUnpinnedExamples(document, operations, port) {
  const creator = operations.find((o) => o.method === 'post' && o.path === '/_sandbox/prices')
  const { pair: createdPair, price } = bodyExampleOf(document, creator.operation)
  for (const { path, method, operation } of operations) {
    if (method !== 'delete' || !path.startsWith('/_sandbox/prices/')) continue
    const pair = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.example).join('/')
    if (pair === createdPair) continue
    const answer = await fetchJson(port, '/_sandbox/prices', { method: 'POST', body: { pair, price } })
    if (answer.status !== 201) throw new Error(`set-up: pinning ${pair} answered ${answer.status}: ${JSON.stringify(answer.body)}`)
  }
}

function bodyExampleOf(document, operation) {
  const body = operation.requestBody.$ref ? resolve(document, operation.requestBody.$ref) : operation.requestBody
  return body.content['application/json'].schema.example
}

function resolve(document, ref) {
  return ref.replace(/^#\//, '').split('/').reduce((node, part) => node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], document)
}

function variableOf({ operationId, prop }) {
  return `${operationId}.${prop}`.replace(/[^\w.]/g, '_')
}

function portmanConfig(operations, plan) {
  const sources = [...new Map([...plan.values()].filter((source) => source.value === undefined).map((source) => [variableOf(source), source])).values()]
  const byOperation = new Map()
  for (const source of sources) byOperation.set(source.operationId, [...(byOperation.get(source.operationId) ?? []), source])
  // Deletes after everything else: of one resource first, then of a whole collection (which would leave nothing to delete one of).
  const isDelete = (o) => o.method === 'delete' && !LAST.includes(o.operationId)
  const order = [
    ...operations.filter((o) => !isDelete(o) && !LAST.includes(o.operationId)),
    ...operations.filter((o) => isDelete(o) && o.path.includes('{')),
    ...operations.filter((o) => isDelete(o) && !o.path.includes('{')),
    ...operations.filter((o) => LAST.includes(o.operationId)),
  ]
  return {
    version: 1.0,
    tests: {
      contractTests: [
        { openApiOperation: '*::/*', statusSuccess: { enabled: true } },
        { openApiOperation: '*::/*', contentType: { enabled: true } },
        { openApiOperation: '*::/*', jsonBody: { enabled: true } },
        { openApiOperation: '*::/*', schemaValidation: { enabled: true } },
        { openApiOperation: '*::/*', headersPresent: { enabled: true } },
      ],
    },
    assignVariables: [...byOperation].map(([openApiOperationId, list]) => ({ openApiOperationId, collectionVariables: list.map((source) => ({ responseBodyProp: source.prop, name: variableOf(source) })) })),
    overwrites: [
      ...[...plan].map(([openApiOperationId, source]) => ({ openApiOperationId, overwriteRequestPathVariables: [{ key: 'id', value: source.value ?? `{{${variableOf(source)}}}`, overwrite: true }] })),
      // A path example with a slash (a pair, ETH/USD) goes URL-encoded, as the document says; raw, it would reach another route.
      ...operations.flatMap(({ operationId, operation }) => {
        const slashed = (operation.parameters ?? []).filter((p) => p.in === 'path' && String(p.example).includes('/'))
        return slashed.length === 0 ? [] : [{ openApiOperationId: operationId, overwriteRequestPathVariables: slashed.map((p) => ({ key: p.name, value: encodeURIComponent(p.example), overwrite: true })) }]
      }),
    ],
    globals: { collectionVariables: { bearerToken: DEFAULT_KEY, baseUrl }, orderOfOperations: order.map(({ method, path }) => `${method.toUpperCase()}::${path}`) },
  }
}

/** One result per operation: its answer, Portman's failed checks, and this script's check of the answer against the document. */
function judge(executions, operations, document) {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats(ajv)
  ajv.addSchema(document, 'urn:wallet-sandbox:contract')
  return executions.map((execution) => {
    const method = execution.request.method.toLowerCase()
    const path = `/${execution.request.url.path.join('/')}`
    const entry = operations.find((o) => o.method === method && o.pattern.test(path))
    const status = execution.response?.code
    const problems = (execution.assertions ?? []).filter((a) => a.error).map((a) => a.error.message.split('\n')[0])
    const schemaProblems = []
    if (!entry) schemaProblems.push(`${method.toUpperCase()} ${path} is no operation of the document`)
    else if (status === undefined) problems.push('no answer')
    else {
      const documented = entry.operation.responses[String(status)]
      if (!documented) schemaProblems.push(`status ${status} is not documented`)
      else {
        const pointer = documented.$ref ? `${documented.$ref.slice(1)}/content/application~1json/schema` : `/paths/${encodeURIComponent(entry.path.replace(/~/g, '~0').replace(/\//g, '~1'))}/${method}/responses/${status}/content/application~1json/schema`
        const validate = ajv.compile({ $ref: `urn:wallet-sandbox:contract#${pointer}` })
        let body
        try {
          body = JSON.parse(execution.response.stream.toString('utf8'))
        } catch {
          body = undefined
        }
        if (!validate(body)) schemaProblems.push(...validate.errors.map((e) => `${e.instancePath || '(body)'} ${e.message}`))
      }
    }
    return { operationId: entry?.operationId ?? `${method} ${path}`, status, ok: problems.length === 0 && schemaProblems.length === 0 && status >= 200 && status < 300, problems: [...problems, ...schemaProblems], schemaProblems }
  })
}
