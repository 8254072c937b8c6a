import type { RequestHandler } from 'express'
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../src/errors.js'
import { startTestSandbox } from '../helpers/start-test-sandbox.js'
import { operationsOf } from './operations.js'
import { describeFindings, runFuzz } from './run-fuzz.js'

/**
 * The short run of the fuzzer (`npm run bench:fuzz` is the long one, 10,000 requests): a few hundred
 * generated requests over every operation of the OpenAPI document. FUZZ_SEED and FUZZ_REQUESTS
 * change the run; a failure prints the requests that caused it.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261125)
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 300)

describe('the fuzzer', () => {
  it(`finds no 5xx, no answer outside the OpenAPI document and no ledger drift in ${REQUESTS} requests (seed ${SEED})`, async () => {
    const report = await runFuzz({ requests: REQUESTS, seed: SEED })
    expect(describeFindings(report, 20)).toEqual([])
    expect(report.requests).toBe(REQUESTS)
    expect(report.byClass['5xx'] ?? 0).toBe(0)
    // Deep enough to matter: many answers are successes, and a good part of the operations got one.
    expect(report.byClass['2xx'] ?? 0).toBeGreaterThan(REQUESTS / 5)
    expect(report.byClass['4xx'] ?? 0).toBeGreaterThan(REQUESTS / 3)
    expect(report.succeeded.size).toBeGreaterThan(report.operations / 3)
  }, 180_000)

  it('reports a 5xx, with the request that got it', async () => {
    // Reads that fail whatever they are sent: the fuzzer must notice. Every /v1 read but the document
    // (which the fuzzer starts from), so that 60 requests spread over all the operations surely meet one.
    const broken: RequestHandler = (req, _res, next) =>
      next(req.method === 'GET' && req.path.startsWith('/v1/') && req.path !== '/v1/openapi.json' ? new Error('broken on purpose') : undefined)
    const report = await runFuzz({ requests: 60, seed: SEED, beforeRoutes: [broken] })
    expect(report.serverErrors.length).toBeGreaterThan(0)
    expect(report.serverErrors[0]!.request.path).toMatch(/^\/v1\//)
    expect(describeFindings(report)[0]).toMatch(/^5xx 500 ← GET \/v1\//)
  }, 60_000)

  it('reports an answer outside the document', async () => {
    // Every /v1 route but the wallets' (where a 409 wallet_not_empty is documented) and the document:
    // 60 requests spread over all the operations surely meet one, however many operations there are.
    const undocumented: RequestHandler = (req, _res, next) =>
      next(req.path.startsWith('/v1/') && !req.path.startsWith('/v1/wallets') && req.path !== '/v1/openapi.json' ? new ApiError('wallet_not_empty', 'not a possible answer of these routes') : undefined)
    const report = await runFuzz({ requests: 60, seed: SEED, beforeRoutes: [undocumented] })
    expect(report.schemaViolations.some((finding) => /error code 'wallet_not_empty' is not documented|status 409 is not documented/.test(finding.problem))).toBe(true)
  }, 60_000)

  it('covers every route of the sandbox, read from its OpenAPI document', async () => {
    const sb = await startTestSandbox()
    try {
      const document = (await sb.api.get('/v1/openapi.json').expect(200)).body
      const fuzzed = operationsOf(document).operations.map((operation) => `${operation.method} ${operation.path}`)
      expect(fuzzed.sort()).toEqual((await sb.sandbox.loadRoutes()).map((route) => `${route.method.toUpperCase()} ${route.path}`).sort())
    } finally {
      await sb.close()
    }
  })
})
