// Helpers shared by the bench/*.bench.mjs scripts: free ports, child servers, polling, tables.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { request } from 'node:http'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('..', import.meta.url))
export const SANDBOX_BIN = fileURLToPath(new URL('../bin/wallet-sandbox.js', import.meta.url))
export const FIXTURE = (name) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url))

/** A port that was free a moment ago: listen on 0, read it, close. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** One GET on a fresh connection; resolves with the status, rejects on a connection error. */
export function get(port, path, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

/** Same as `get`, with a JSON body in the answer (`agent`: a keep-alive agent to reuse connections). */
export function fetchJson(port, path, { method = 'GET', headers = {}, body, agent = false } = {}) {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body)
    const req = request(
      { host: '127.0.0.1', port, path, method, agent, headers: { ...headers, ...(text ? { 'content-type': 'application/json' } : {}) } },
      (res) => {
        let data = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => (data += chunk))
        res.on('end', () => resolve({ status: res.statusCode, body: data ? JSON.parse(data) : undefined }))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(text)
  })
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Polls `GET path` every `intervalMs` until it answers 200. Rejects if the child exits first or
 * nothing answers within `timeoutMs`.
 */
export async function waitUntilAnswering(child, port, path, { intervalMs = 2, timeoutMs = 15_000 } = {}) {
  const deadline = performance.now() + timeoutMs
  let exited = null
  const onExit = (code, signal) => (exited = { code, signal })
  child.once('exit', onExit)
  try {
    for (;;) {
      if (exited) throw new Error(`the server exited (code ${exited.code}, signal ${exited.signal}) before answering GET ${path}${describeOutput(child)}`)
      try {
        const status = await get(port, path)
        if (status === 200) return
      } catch {
        // not listening yet
      }
      if (performance.now() > deadline) throw new Error(`nothing answered GET ${path} on port ${port} within ${timeoutMs} ms${describeOutput(child)}`)
      await pause(intervalMs)
    }
  } finally {
    child.off('exit', onExit)
  }
}

function describeOutput(child) {
  const text = (child.output ?? []).join('').trim()
  return text ? `:\n${text}` : ''
}

/** Spawns `node ...nodeArgs script ...args` with its stderr kept for error messages. */
export function spawnNode(script, args, nodeArgs = [], env = process.env) {
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] })
  child.output = []
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (chunk) => child.output.length < 50 && child.output.push(chunk))
  return child
}

/** Stops a child server and waits for it to be gone. */
export function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    child.kill('SIGTERM')
  })
}

/** Starts `node script --port <free port> ...args` and resolves once `GET readyPath` answers 200. */
export async function startServer(script, args, readyPath, { timeoutMs } = {}) {
  const port = await freePort()
  const child = spawnNode(script, ['--port', String(port), ...args])
  try {
    await waitUntilAnswering(child, port, readyPath, { intervalMs: 20, timeoutMs })
  } catch (error) {
    await stop(child)
    throw error
  }
  return { port, child, stop: () => stop(child) }
}

const SCALE_SERVER = fileURLToPath(new URL('./scale-server.mjs', import.meta.url))

/**
 * Starts bench/scale-server.mjs (a sandbox seeded through the ledger) and resolves with what it
 * reports once it serves: url, rss, seed and compaction times; `wallMs` from spawn to that.
 */
export function startScaleServer(args) {
  const started = performance.now()
  const child = spawn(process.execPath, ['--expose-gc', '--max-old-space-size=4096', SCALE_SERVER, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk
      const line = out.split('\n').find((l) => l.startsWith('{'))
      if (line) resolve({ child, wallMs: performance.now() - started, ...JSON.parse(line) })
    })
    child.once('exit', (code) => reject(new Error(`scale-server exited with ${code}`)))
  })
}

export const stopScaleServer = (child) => new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM')))

/** The largest value; a loop, not Math.max(...values): a quiet machine takes more samples than a call's arguments may hold. */
export const maximum = (values) => values.reduce((a, b) => (b > a ? b : a), -Infinity)

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.ceil((p / 100) * sorted.length) - 1
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))]
}

const NUMERIC = /^[<≤≥>]?\s?[\d.,]+\s?(%|×|ms)?$/

/** Prints rows (arrays of cells) under a title, columns padded; numbers (and '87%', '1.2×') right-aligned. */
export function printTable(title, header, rows) {
  const cells = [header, ...rows].map((row) => row.map((cell) => String(cell)))
  const widths = header.map((_, i) => Math.max(...cells.map((row) => row[i].length)))
  const right = (value) => typeof value === 'number' || (typeof value === 'string' && NUMERIC.test(value))
  const rightColumn = header.map((_, i) => rows.some((row) => right(row[i])))
  const line = (row) => row.map((cell, i) => (rightColumn[i] ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  ').trimEnd()
  const out = [title, line(cells[0]), widths.map((w) => '-'.repeat(w)).join('  ')]
  for (const row of cells.slice(1)) out.push(line(row))
  console.log(`${out.join('\n')}\n`)
}

export const fixed = (value, digits = 1) => Number(value.toFixed(digits))

/** User + system CPU ms of a live process, from /proc (undefined where there is none). */
export function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 // utime + stime, in USER_HZ (100) ticks
  } catch {
    return undefined
  }
}
