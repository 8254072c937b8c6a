import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { promisify } from 'node:util'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'

/**
 * `npm start` as the README's quick start runs it, in a copy of the checkout without dist/: the
 * first start builds and says so; SIGTERM sent to the npm process stops the server too (npm passes
 * the signal to its child, which must be the server itself, not a shell that leaves it orphaned).
 * The build makes it slow: about 20 s on an idle machine, a minute on a busy one (which is why the
 * build says its steps rather than a figure).
 */

const run = promisify(execFile)
const ROOT = resolve(import.meta.dirname, '../..')
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

let project: string
const started = new Set<number>()

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'wallet-sandbox-npm-start-'))
  for (const entry of ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'src', 'scripts', 'bin', 'fixtures', 'dashboard']) {
    cpSync(join(ROOT, entry), join(project, entry), { recursive: true })
  }
  symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'), 'dir')
})

afterEach(() => {
  for (const pid of started) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // already gone, as it should be
    }
  }
  started.clear()
})

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true })
})

interface NpmStart {
  npmProcess: ChildProcessWithoutNullStreams
  url: string
  stderr: () => string
  exited: Promise<unknown>
}

/** `npm start -- --port 0 …`, resolved once the JSON banner names the URL. */
async function npmStart(): Promise<NpmStart> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('WALLET_SANDBOX_') && !name.startsWith('npm_')))
  const npmProcess = spawn(npm, ['start', '--', '--port', '0', '--log-format', 'json'], { cwd: project, env })
  started.add(npmProcess.pid!)
  let stderr = ''
  npmProcess.stderr.on('data', (chunk) => (stderr += chunk))
  const exited = new Promise((resolveExit) => npmProcess.once('exit', resolveExit))
  const url = await new Promise<string>((resolveUrl, reject) => {
    createInterface({ input: npmProcess.stdout }).on('line', (line) => {
      if (line.startsWith('{') && JSON.parse(line).url) resolveUrl(JSON.parse(line).url)
    })
    void exited.then(() => reject(new Error(`npm start exited before serving:\n${stderr}`)))
  })
  return { npmProcess, url, stderr: () => stderr, exited }
}

/** The processes whose parent is `pid`, with their command lines. */
async function childrenOf(pid: number): Promise<Array<{ pid: number; command: string }>> {
  const { stdout } = await run('ps', ['-o', 'pid=,args=', '--ppid', String(pid)]).catch(() => ({ stdout: '' }))
  return stdout.split('\n').filter((line) => line.trim()).map((line) => {
    const [, childPid, command] = /^\s*(\d+)\s+(.*)$/.exec(line)!
    return { pid: Number(childPid), command: command! }
  })
}

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function waitUntil(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; ) {
    if (await condition()) return
    await new Promise((next) => setTimeout(next, 20))
  }
  throw new Error(`timed out waiting until ${what}`)
}

// Not skipped on Windows: `exec` in the start script needs a POSIX shell, so there this test fails as
// `npm start` does (docs/cli.md gives the command to use instead).
describe('npm start', () => {
  it('builds on the first start and says so, stops the server when npm gets SIGTERM, and starts silently once built', async () => {
    const first = await npmStart()
    // Each step as it starts and ends, and no figure for how long it takes, which a busy machine makes wrong.
    expect(first.stderr().split('\n').filter((line) => line.startsWith('wallet-sandbox: '))).toEqual([
      'wallet-sandbox: building dist/ (dist/ is missing), in 2 steps; a start builds again only when src/ changes',
      'wallet-sandbox: 1/2 compiling src/ to dist/ (tsc)…',
      expect.stringMatching(/^wallet-sandbox: 1\/2 done in \d+\.\d s$/),
      'wallet-sandbox: 2/2 bundling the command line and the library, making their code cache (scripts/bundle-cli.mjs)…',
      expect.stringMatching(/^wallet-sandbox: 2\/2 done in \d+\.\d s$/),
      expect.stringMatching(/^wallet-sandbox: built in \d+\.\d s$/),
    ])
    expect((await fetch(`${first.url}/_sandbox/health`)).status).toBe(200)

    // npm's own child is the server (no shell in between), so the signal npm forwards reaches it.
    const children = await childrenOf(first.npmProcess.pid!)
    for (const child of children) started.add(child.pid)
    expect(children).toEqual([{ pid: expect.any(Number), command: expect.stringMatching(/^node bin\/wallet-sandbox\.js --port 0/) }])
    const [server] = children

    first.npmProcess.kill('SIGTERM')
    await first.exited
    await waitUntil(() => !isRunning(server!.pid), `the server (pid ${server!.pid}) has exited`)
    await expect(fetch(`${first.url}/_sandbox/health`)).rejects.toThrow()

    // dist/ is now up to date: the next start neither builds nor says anything about it.
    const again = await npmStart()
    expect(again.stderr()).not.toContain('building')
    again.npmProcess.kill('SIGTERM')
    await again.exited
  }, 180_000)
})
