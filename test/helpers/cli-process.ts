import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The real command line as a child process: `node bin/wallet-sandbox.js …`, as a user runs it. */

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))
export const BIN = join(ROOT, 'bin/wallet-sandbox.js')

/** Builds dist/ when src/ changed (the CLI runs compiled); for a beforeAll. */
export const buildIfNeeded = () => execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: ROOT, stdio: 'inherit' })

/** Environment without any WALLET_SANDBOX_* variable of the developer's shell. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('WALLET_SANDBOX_')))
  return { ...env, ...extra }
}

export interface CliProcess {
  child: ChildProcess
  stdout: () => string
  stderr: () => string
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

const running = new Set<ChildProcess>()

/** Starts the CLI with piped output; `killAll()` (in an afterEach) ends whatever a test left running. */
export function launch(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): CliProcess {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, env: cleanEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] })
  running.add(child)
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk) => (stdout += chunk))
  child.stderr!.on('data', (chunk) => (stderr += chunk))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })))
  return { child, exited, stdout: () => stdout, stderr: () => stderr }
}

export function killAll(): void {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  running.clear()
}

/** Runs the CLI to its end (it is expected to stop by itself within 15 s). */
export async function runToExit(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}) {
  const proc = launch(args, options)
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), 15_000)
  const { code, signal } = await proc.exited
  clearTimeout(timer)
  return { code, signal, stdout: proc.stdout(), stderr: proc.stderr() }
}

/** Resolves with the first line the process writes (on stdout, or `stream`) that `accept` takes, or rejects when it exits first. */
export function lineOf<T>(proc: CliProcess, accept: (line: string) => T | undefined, options: { timeoutMs?: number; stream?: 'stdout' | 'stderr' } = {}): Promise<T> {
  const { timeoutMs = 15_000, stream = 'stdout' } = options
  const text = stream === 'stdout' ? proc.stdout : proc.stderr
  const source = proc.child[stream]!
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no such line within ${timeoutMs} ms:\n${proc.stdout()}\n${proc.stderr()}`)), timeoutMs)
    const check = () => {
      for (const line of text().split('\n').slice(0, -1)) {
        const found = accept(line)
        if (found === undefined) continue
        clearTimeout(timer)
        source.off('data', check)
        resolve(found)
        return
      }
    }
    source.on('data', check)
    void proc.exited.then(({ code }) => {
      clearTimeout(timer)
      reject(new Error(`exited with ${code} first:\n${proc.stdout()}\n${proc.stderr()}`))
    })
    check()
  })
}

export interface ReadyLine {
  url: string
  base_url: string
  api_key: string
  port: number
  pid: number
}

/** A real sandbox as a child process (`--ready-json --port 0` unless a port is given), resolved once it listens. */
export async function startCli(args: string[] = [], options: { env?: Record<string, string> } = {}): Promise<CliProcess & { ready: ReadyLine }> {
  const proc = launch(['--ready-json', '--quiet', ...(args.includes('--port') ? [] : ['--port', '0']), ...args], options)
  const ready = await lineOf(proc, (line) => JSON.parse(line) as ReadyLine)
  return { ...proc, ready }
}
