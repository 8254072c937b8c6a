import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * The package as users get it: `npm pack` (whose prepack builds dist/), the tarball installed into
 * an empty folder, then run through its bin and imported by name. Slow (a build and an install),
 * so everything is prepared once (about 20 s on an idle machine; the timeout leaves room for a busy one).
 *
 * The install reads the project's lockfile (its production entries) rather than resolving version
 * ranges, so that it needs no registry: `npm ci` has put every tarball in the npm cache, but not
 * the registry documents that resolving ranges would ask for.
 */

const run = promisify(execFile)
const ROOT = resolve(import.meta.dirname, '../..')
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'

let work: string
let consumer: string
let tarballFiles: string[]

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'wallet-sandbox-pack-'))

  // Pack a copy of the sources, so that the build inside `npm pack` starts from no dist/ and never
  // rewrites the dist/ that other tests may be running.
  const project = join(work, 'project')
  for (const entry of ['package.json', 'README.md', 'docs', 'tsconfig.json', 'tsconfig.build.json', 'src', 'scripts', 'bin', 'fixtures', 'dashboard', 'examples']) {
    cpSync(join(ROOT, entry), join(project, entry), { recursive: true })
  }
  symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'), 'dir')
  await run(npm, ['pack', '--pack-destination', work, '--no-audit', '--no-fund'], { cwd: project })
  const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'))!
  tarballFiles = (await run('tar', ['-tzf', join(work, tarball)])).stdout.split('\n').filter(Boolean).map((name) => name.replace(/^package\//, ''))

  consumer = join(work, 'consumer')
  cpSync(join(work, tarball), join(consumer, tarball))
  writeLockfileFor(consumer, tarball)
  await run(npm, ['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: consumer })
}, 300_000) // a build and two npm runs: minutes on a loaded CI machine

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true })
})

function writeLockfileFor(dir: string, tarball: string): void {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'))
  const integrity = `sha512-${createHash('sha512').update(readFileSync(join(dir, tarball))).digest('base64')}`
  const packages: Record<string, unknown> = {
    '': { name: 'consumer', dependencies: { 'wallet-sandbox': `file:${tarball}` } },
    'node_modules/wallet-sandbox': {
      version: pkg.version, resolved: `file:${tarball}`, integrity, license: pkg.license, dependencies: pkg.dependencies, bin: pkg.bin, engines: pkg.engines,
    },
  }
  for (const [path, entry] of Object.entries(lock.packages as Record<string, { dev?: boolean }>)) {
    if (path !== '' && !entry.dev) packages[path] = entry
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies: { 'wallet-sandbox': `file:${tarball}` } }))
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ name: 'consumer', lockfileVersion: 3, requires: true, packages }))
}

/** Starts the installed bin and waits for the banner (JSON, since stdout is a pipe) to name the URL. */
async function startBin(args: string[]): Promise<{ child: ChildProcessWithoutNullStreams; url: string; lines: string[] }> {
  const child = spawn(join(consumer, 'node_modules/.bin/wallet-sandbox'), args, { cwd: consumer })
  const lines: string[] = []
  let stderr = ''
  child.stderr.on('data', (chunk) => (stderr += chunk))
  const url = await new Promise<string>((resolveUrl, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line)
      if (line.startsWith('{') && JSON.parse(line).url) resolveUrl(JSON.parse(line).url)
    })
    child.once('exit', (code) => reject(new Error(`wallet-sandbox exited with ${code} before serving: ${stderr}`)))
  })
  return { child, url, lines }
}

const exitOf = (child: ChildProcessWithoutNullStreams) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) => child.once('exit', (code, signal) => resolveExit({ code, signal })))

describe('the packed package', () => {
  it('ships the compiled code, the bin, the fixtures, the dashboard, the docs the README links to and type declarations, and no sources or tests', () => {
    expect(tarballFiles).toEqual(expect.arrayContaining([
      'package.json', 'README.md', 'bin/wallet-sandbox.js', 'dist/cli/main.js', 'dist/public.js', 'dist/public.d.ts', 'fixtures/accounts.json',
      'dashboard/index.html', 'dashboard/app.js', 'dashboard/style.css', 'docs/README.md', 'docs/library.md',
      // The container's health check, the Testcontainers entry (wallet-sandbox/testcontainers) and the CI example.
      'bin/health-check.js', 'dist/health-check.js', 'dist/testcontainers/index.js', 'dist/testcontainers/index.d.ts', 'docs/testcontainers.md',
      'examples/github-actions/wallet-sandbox.yml',
    ]))
    expect(tarballFiles.filter((name) => /^(src|test|bench|scripts)\/|\.map$|^tsconfig/.test(name))).toEqual([])
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '')
    const linked = [...readme.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)].map(([, path]) => path!).filter((path) => !/^[a-z]+:/.test(path))
    expect(linked.length).toBeGreaterThan(0)
    expect(linked.filter((path) => !tarballFiles.includes(path))).toEqual([])
  })

  it('answers --version and --help through npx', async () => {
    const version = await run(npx, ['--no', '--', 'wallet-sandbox', '--version'], { cwd: consumer })
    expect(version.stdout.trim()).toBe(pkg.version)
    const help = await run(npx, ['--no', '--', 'wallet-sandbox', '--help'], { cwd: consumer })
    expect(help.stdout).toContain('--port <n>')
    expect(help.stdout).toContain('WALLET_SANDBOX_PORT')
    expect(help.stdout).toContain('fixtures')
  }, 20_000)

  it('prints the seeded default account with `wallet-sandbox fixtures`, the same on every run', async () => {
    const first = await run(join(consumer, 'node_modules/.bin/wallet-sandbox'), ['fixtures'], { cwd: consumer })
    const second = await run(join(consumer, 'node_modules/.bin/wallet-sandbox'), ['fixtures'], { cwd: consumer })
    expect(first.stdout).toBe(second.stdout)
    const [account] = JSON.parse(first.stdout).accounts
    expect(account.keys).toContainEqual({ key: 'sk_test_sandbox_default_key', type: 'secret', scopes: ['*'], allowed_ips: [] })
    expect(account.wallets.length).toBeGreaterThan(0)
    expect(account.wallets[0]).toMatchObject({ id: expect.stringMatching(/^wal_/), address: expect.any(String), balance: expect.any(String) })
  })

  it('serves through its bin on a free port, logs each request of the API (the control API\'s left out) and exits 0 on SIGTERM', async () => {
    const { child, url, lines } = await startBin(['--port', '0', '--log-format', 'json'])
    try {
      const health = await fetch(`${url}/_sandbox/health`)
      expect(health.status).toBe(200)
      expect(((await health.json()) as { data: unknown }).data).toMatchObject({ status: 'ok', version: pkg.version })
      const wallets = await fetch(`${url}/v1/wallets`, { headers: { authorization: 'Bearer sk_test_sandbox_default_key' } })
      expect(wallets.status).toBe(200)
      // The bundled CLI finds the dashboard's files in the installed package.
      const dashboard = await fetch(`${url}/_sandbox/ui/app.js`)
      expect([dashboard.status, dashboard.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8'])
    } finally {
      const exited = exitOf(child)
      const started = performance.now()
      child.kill('SIGTERM')
      expect(await exited).toEqual({ code: 0, signal: null })
      expect(performance.now() - started).toBeLessThan(1000)
    }
    expect(lines.every((line) => line.startsWith('{'))).toBe(true)
    const requests = lines.map((line) => JSON.parse(line)).filter((entry) => entry.message === 'request')
    expect(requests.map((entry) => [entry.method, entry.path, entry.status])).toEqual([['GET', '/v1/wallets', 200]])
    expect(requests[0]).toMatchObject({ key_suffix: '_key', request_id: expect.stringMatching(/^req_/), duration_ms: expect.any(Number) })
    expect(lines.join('\n')).not.toContain('Bearer')
  })

  it('is importable by name with type declarations: startSandbox() serves and closes', async () => {
    writeFileSync(join(consumer, 'use.ts'), [
      "import { startSandbox, type RunningSandbox } from 'wallet-sandbox'",
      'const sandbox: RunningSandbox = await startSandbox({ clock: "manual", settle: "manual" })',
      'const clock = await sandbox.control.advanceClock(1000)',
      'const now: string = clock.now',
      'const health = await fetch(`${sandbox.baseUrl}/_sandbox/health`)',
      'const dashboard = await fetch(`${sandbox.baseUrl}/_sandbox/ui`)',
      'console.log(JSON.stringify({ url: sandbox.url, apiKey: sandbox.apiKey, status: health.status, dashboard: dashboard.status, now }))',
      'await sandbox.close()',
    ].join('\n'))
    writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2023', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: ['node'], typeRoots: [join(ROOT, 'node_modules/@types')] },
      files: ['use.ts'],
    }))
    await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: consumer })
      .catch((error) => { throw new Error(`the consumer does not typecheck:\n${error.stdout}`) })

    const js = readFileSync(join(consumer, 'use.ts'), 'utf8').replace(', type RunningSandbox', '').replace(': RunningSandbox', '').replace(': string', '')
    writeFileSync(join(consumer, 'use.mjs'), js)
    const { stdout } = await run(process.execPath, ['use.mjs'], { cwd: consumer })
    expect(JSON.parse(stdout)).toEqual({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1$/), apiKey: 'sk_test_sandbox_default_key', status: 200, dashboard: 200, now: '2026-01-01T00:00:01.000Z' })
  }, 60_000)

  it('is requirable by name from CommonJS: the documented .cjs example serves and closes', async () => {
    cpSync(join(ROOT, 'test/e2e/fixtures/commonjs-example/sandbox.cjs'), join(consumer, 'sandbox.cjs'))
    const { stdout, stderr } = await run(process.execPath, ['sandbox.cjs'], { cwd: consumer })
    expect(JSON.parse(stdout)).toEqual({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1$/), status: 200, now: '2026-01-01T00:00:01.000Z' })
    expect(stderr).toBe('')
  }, 60_000)
})
