import { Agent, request } from 'node:http'
import fc from 'fast-check'
import { loadConfig } from '../../src/config.js'
import { findLedgerViolations } from '../../src/ledger/ledger-check.js'
import type { Logger } from '../../src/logger.js'
import type { OpenApiDocument } from '../../src/openapi/document.js'
import { createSandbox, type SandboxOptions } from '../../src/sandbox.js'
import { ConformanceChecker } from '../helpers/conformance.js'
import { operationsOf } from './operations.js'
import { requestFor, unknownRoute, type FuzzRequest } from './requests.js'

/**
 * The fuzzer: a sandbox in this process (manual clock, payments settling on it, rate limit off),
 * and `requests` generated requests over every operation of its OpenAPI document, sent one after
 * another. Every answer must be a 4xx in the error shape or a 2xx, each matching the document
 * (test/helpers/conformance.ts); none may be a 5xx. Afterwards every account's balances must still
 * recompute from its postings. The same seed sends the same requests and gets the same answers.
 */

export const FUZZ_KEYS = ['sk_test_sandbox_default_key', 'sk_test_fuzz_second_account'] as const

export interface Finding {
  request: FuzzRequest
  status: number | null
  problem: string
}

export interface FuzzReport {
  seed: number
  requests: number
  operations: number
  /** Answers by status class: `2xx`, `4xx`, `5xx`, and `none` for no answer. */
  byClass: Record<string, number>
  /** Operations that answered 2xx at least once (how deep the fuzzer got). */
  succeeded: Set<string>
  serverErrors: Finding[]
  schemaViolations: Finding[]
  /** Errors the sandbox logged (an internal error's stack). */
  logged: string[]
  ledgerViolations: string[]
}

/** An id the sandbox gave out, as it appears in a JSON answer. */
const ID_IN_ANSWER = /"((?:acct|wal|pay|po|evt|whk|dlv|wla|rule|flt|[a-z]{2,5})_[A-Za-z0-9]{24})"/g
const POOL_LIMIT = 400

export interface FuzzOptions {
  requests: number
  seed: number
  onProgress?: (done: number) => void
  /** Middleware ahead of the routes (the fuzzer's own tests break the sandbox on purpose with it). */
  beforeRoutes?: SandboxOptions['beforeRoutes']
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const logged: string[] = []
  const logger: Logger = { info: () => {}, warn: () => {}, error: (message, error) => logged.push(`${message}: ${error instanceof Error ? error.stack : String(error)}`) }
  const config = loadConfig({ flags: { port: 0, clock: 'manual', settle: 'auto', rateLimit: 0, quiet: true, seed: `fuzz-${options.seed}`, webhookTimeout: 200, webhookRetries: 'none' } as never })
  const sandbox = await createSandbox(config, { logger, beforeRoutes: options.beforeRoutes })
  const { port } = await sandbox.listen()
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const report: FuzzReport = { seed: options.seed, requests: 0, operations: 0, byClass: {}, succeeded: new Set(), serverErrors: [], schemaViolations: [], logged, ledgerViolations: [] }
  try {
    // Fetched on a connection of its own: building the checker and the generators can take longer than the server keeps an idle connection open.
    const document = JSON.parse((await send(port, false, { operationId: 'getOpenApiDocument', method: 'GET', path: '/v1/openapi.json', headers: {} })).text) as OpenApiDocument
    const checker = new ConformanceChecker(document)
    const { operations, resolve } = operationsOf(document as never)
    report.operations = operations.length
    const pool: string[] = []
    const context = { resolve, pool: () => pool, keys: FUZZ_KEYS }
    const arbitrary = fc.oneof({ weight: 30, arbitrary: fc.oneof(...operations.map((operation) => requestFor(operation, context))) }, { weight: 1, arbitrary: unknownRoute() })

    for (let i = 0; i < options.requests; i++) {
      // One sample at a time, so ids harvested from earlier answers feed later requests.
      const [fuzzRequest] = fc.sample(arbitrary, { numRuns: 1, seed: options.seed + i })
      const answer = await send(port, agent, fuzzRequest!).catch((error: Error) => ({ status: null, text: '', requestId: undefined, error }))
      report.requests++
      const statusClass = answer.status === null ? 'none' : `${Math.floor(answer.status / 100)}xx`
      report.byClass[statusClass] = (report.byClass[statusClass] ?? 0) + 1
      if (answer.status === null || answer.status >= 500) {
        report.serverErrors.push({ request: fuzzRequest!, status: answer.status, problem: 'error' in answer ? String(answer.error) : answer.text.slice(0, 300) })
      } else {
        const problems = checker.problems({ method: fuzzRequest!.method, path: fuzzRequest!.path, status: answer.status, body: answer.text, requestId: answer.requestId })
        if (problems.length > 0) report.schemaViolations.push({ request: fuzzRequest!, status: answer.status, problem: problems.join('; ') })
      }
      if (answer.status !== null && answer.status < 300) {
        report.succeeded.add(fuzzRequest!.operationId)
        for (const [, id] of answer.text.matchAll(ID_IN_ANSWER)) if (pool.length < POOL_LIMIT && !pool.includes(id!)) pool.push(id!)
        // A fault rule would break the requests after it (dropped connections, timeouts): the fuzzer removes it at once.
        if (fuzzRequest!.method === 'POST' && fuzzRequest!.path.startsWith('/_sandbox/faults')) await send(port, agent, { operationId: 'sandboxClearFaults', method: 'DELETE', path: '/_sandbox/faults', headers: {} })
      }
      if (options.onProgress && (i + 1) % 1000 === 0) options.onProgress(i + 1)
    }
    await sandbox.webhooks.idle()
    for (const account of sandbox.store.accounts.values()) report.ledgerViolations.push(...findLedgerViolations(account).map((problem) => `${account.account.id}: ${problem}`))
  } finally {
    agent.destroy()
    await sandbox.close()
  }
  return report
}

interface Answer {
  status: number
  text: string
  requestId: string | undefined
}

function send(port: number, agent: Agent | false, fuzzRequest: FuzzRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = fuzzRequest.body === undefined ? undefined : Buffer.from(fuzzRequest.body, 'utf8')
    const headers = { ...fuzzRequest.headers, ...(body ? { 'content-length': String(body.length) } : {}) }
    const req = request({ host: '127.0.0.1', port, method: fuzzRequest.method, path: fuzzRequest.path, headers, agent, timeout: 15_000 }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        const requestId = res.headers['x-request-id']
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), requestId: typeof requestId === 'string' ? requestId : undefined })
      })
      res.on('error', reject)
    })
    req.on('timeout', () => req.destroy(new Error('no answer within 15 s')))
    req.on('error', reject)
    req.end(body)
  })
}

/** The findings of a report, one line each, with the request that caused them (enough to replay it with curl). */
export function describeFindings(report: FuzzReport, limit = 20): string[] {
  const line = (kind: string) => (finding: Finding) =>
    `${kind} ${finding.status ?? 'no answer'} ← ${finding.request.method} ${finding.request.path} ${JSON.stringify(finding.request.headers)} ${finding.request.body === undefined ? '' : JSON.stringify(finding.request.body.slice(0, 300))}: ${finding.problem}`
  return [...report.serverErrors.map(line('5xx')), ...report.schemaViolations.map(line('schema')), ...report.ledgerViolations.map((v) => `ledger ${v}`), ...report.logged.map((l) => `logged ${l.slice(0, 500)}`)].slice(0, limit)
}
