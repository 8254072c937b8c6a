import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { operationOf } from '../../../src/parity/ids.js'
import { startSandbox, type RunningSandbox } from '../../../src/public.js'
import { afterAll, beforeAll } from 'vitest'
import { buildIfNeeded, killAll, launch } from '../../helpers/cli-process.js'

/**
 * What the parity tests share: a "hosted" sandbox of their own (in this process, another seed),
 * an account on it with its funded wallet, the CLI run as a user runs it, and a proxy in front of the
 * hosted side that counts what reaches it and plants differences in its answers.
 */

/** Payments stay pending on both sides (`--settle manual`), and neither side's rate limit is what a test measures. */
export const LOCAL_SETTINGS = ['--settle', 'manual', '--rate-limit', '1000']
/** Fast, for the tests that do not measure the pacing. */
export const FAST = ['--rate', '50']

export const startHosted = (options: Parameters<typeof startSandbox>[0] = {}): Promise<RunningSandbox> =>
  startSandbox({ seed: 'parity-hosted', settle: 'manual', rateLimit: 1000, ...options })

/** A fresh account on a sandbox, and its seeded funded wallet of USDC on polygon. */
export async function accountOn(sandbox: RunningSandbox): Promise<{ key: string; source: string }> {
  const { key } = await sandbox.control.createKey()
  const res = await fetch(`${sandbox.url}/wallets?type=institutional&currency=USDC&network=polygon`, { headers: { authorization: `Bearer ${key}` } })
  const { data } = (await res.json()) as { data: Array<{ id: string }> }
  return { key, source: data[0]!.id }
}

/**
 * For a test file: dist/ built, a "hosted" sandbox of this seed behind a proxy of the test's own, and
 * an account on it; all stopped after the file.
 */
export function useHostedBehindProxy(seed: string): { hosted: RunningSandbox; proxy: TestProxy; account: { key: string; source: string } } {
  const context = {} as ReturnType<typeof useHostedBehindProxy>
  beforeAll(async () => {
    buildIfNeeded()
    context.hosted = await startHosted({ seed })
    context.proxy = await startProxy(context.hosted.baseUrl)
    context.account = await accountOn(context.hosted)
  }, 180_000)
  afterAll(async () => {
    killAll()
    await context.proxy?.close()
    await context.hosted?.close()
  })
  return context
}

/** `wallet-sandbox <args>` to its end. */
export async function cli(args: string[], env: Record<string, string> = {}, timeoutMs = 90_000) {
  const proc = launch(args, { env })
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), timeoutMs)
  const { code } = await proc.exited
  clearTimeout(timer)
  return { code, stdout: proc.stdout(), stderr: proc.stderr() }
}

/** An answer on its way back, which a plant may change. */
export interface PassingAnswer {
  status: number
  headers: Map<string, string>
  body: unknown
}

/** A difference planted in the answers to one operation (`GET /v1/wallets/{id}`). */
export interface Plant {
  operation: string
  edit(answer: PassingAnswer): void
}

export interface TestProxy {
  /** The API URL, ending in /v1. */
  url: string
  /** What reached the proxy, in order. */
  requests: Array<{ method: string; path: string; at: number; authorization: string | undefined }>
  plants: Plant[]
  /** Operations whose next request is answered 429 with `Retry-After: 0`, once, without forwarding it. */
  tooMany: Set<string>
  close(): Promise<void>
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'host', 'accept-encoding'])

export async function startProxy(targetRoot: string): Promise<TestProxy> {
  const requests: TestProxy['requests'] = []
  const plants: Plant[] = []
  const tooMany = new Set<string>()
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://proxy')
      const method = req.method ?? 'GET'
      requests.push({ method, path: url.pathname, at: performance.now(), authorization: req.headers.authorization })
      const operation = operationOf(method, url.pathname)
      if (tooMany.delete(operation)) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' }).end(JSON.stringify({ error: { type: 'rate_limit_error', code: 'rate_limit_exceeded', message: 'planted' } }))
        return
      }
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !HOP_BY_HOP.has(name)).map(([name, value]) => [name, String(value)]))
      const body = Buffer.concat(chunks)
      const hosted = await fetch(`${targetRoot}${url.pathname}${url.search}`, { method, headers, body: body.length > 0 ? body : undefined })
      const text = await hosted.text()
      const answer: PassingAnswer = { status: hosted.status, headers: new Map(), body: text === '' ? null : (JSON.parse(text) as unknown) }
      hosted.headers.forEach((value, name) => void (HOP_BY_HOP.has(name) || answer.headers.set(name, value)))
      for (const plant of plants) if (plant.operation === operation) plant.edit(answer)
      res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(answer.body === null ? '' : JSON.stringify(answer.body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    plants,
    tooMany,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/** The data of a planted answer, when it is an object with `data`. */
export const dataOf = (answer: PassingAnswer): Record<string, unknown> | undefined => {
  const data = (answer.body as { data?: unknown } | null)?.data
  return data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined
}

/** The `new:` and `fixed:` lines of a human output. */
export const linesStarting = (stdout: string, prefix: string): string[] =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith(prefix))
    .map((line) => line.slice(prefix.length))
