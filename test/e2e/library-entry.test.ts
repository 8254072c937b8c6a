import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildIfNeeded, ROOT } from '../helpers/cli-process.js'
import * as sources from '../../src/public.js'

/**
 * The package's entries (package.json "exports"), as built: the bundle dist/cli.bundle.cjs through
 * its code cache, for import and for require() alike (issue 33: the import was tsc output, hundreds of
 * modules). pack.test.ts runs them installed from the tarball; this checks what they are.
 */

beforeAll(buildIfNeeded, 180_000)

const pkg = createRequire(join(ROOT, 'package.json'))('./package.json') as { version: string; exports: Record<string, Record<string, string>> }
const entry = (condition: 'import' | 'require') => join(ROOT, pkg.exports['.']![condition]!)
const runtimeNames = Object.keys(sources).sort()

/** Runs an ES module script in a plain node (vitest would load the entries through its own module runner), answering its JSON. */
const inNode = (script: string) => JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' }))
const loadBoth = `
  import { createRequire } from 'node:module'
  const imported = await import(${JSON.stringify(pathToFileURL(entry('import')).href)})
  const required = createRequire(import.meta.url)(${JSON.stringify(entry('require'))})
`

describe('the library entries', () => {
  it('export what src/public.ts exports, by import and by require()', () => {
    const names = inNode(`${loadBoth}
      process.stdout.write(JSON.stringify({ imported: Object.keys(imported).sort(), required: Object.keys(required).sort() }))`)
    expect(names).toEqual({ imported: runtimeNames, required: runtimeNames })
  })

  it('are one module instance: an error class is the same object whichever way it was loaded', () => {
    const same = inNode(`${loadBoth}
      const names = ['ConfigError', 'SandboxControlError', 'EventWaitTimeoutError', 'VERSION', 'startSandbox']
      let thrown
      try { required.attachSandbox({}) } catch (error) { thrown = error }
      process.stdout.write(JSON.stringify({ same: names.filter((name) => imported[name] === required[name]), caught: thrown instanceof imported.ConfigError }))`)
    expect(same).toEqual({ same: ['ConfigError', 'SandboxControlError', 'EventWaitTimeoutError', 'VERSION', 'startSandbox'], caught: true })
  })

  it('are one module instance when required first, too, and the import goes through no CommonJS file', () => {
    const loaded = inNode(`
      import { createRequire } from 'node:module'
      const require = createRequire(import.meta.url)
      const imported = await import(${JSON.stringify(pathToFileURL(entry('import')).href)})
      // The import entry carries the loader (src/code-cache.ts, loadSandboxLibrary): no file of dist/ went through require().
      const requiredByImport = Object.keys(require.cache)
      const required = require(${JSON.stringify(entry('require'))})
      process.stdout.write(JSON.stringify({ requiredByImport, same: Object.keys(imported).filter((name) => imported[name] === required[name]).sort() }))`)
    expect(loaded).toEqual({ requiredByImport: [], same: runtimeNames })
    const requiredFirst = inNode(`
      import { createRequire } from 'node:module'
      const required = createRequire(import.meta.url)(${JSON.stringify(entry('require'))})
      const imported = await import(${JSON.stringify(pathToFileURL(entry('import')).href)})
      process.stdout.write(JSON.stringify(Object.keys(imported).filter((name) => imported[name] === required[name]).sort()))`)
    expect(requiredFirst).toEqual(runtimeNames)
  })

  it('run the bundle through the code cache the build made: a process that imports the package compiles none of it', () => {
    // What a suite's process does, then what the bundle's loader says of the cache it found.
    const { cache, names } = inNode(`
      import { createRequire } from 'node:module'
      const { loadSandboxBundle } = createRequire(import.meta.url)(${JSON.stringify(join(ROOT, 'dist/code-cache.cjs'))})
      const bundle = loadSandboxBundle(${JSON.stringify(join(ROOT, 'dist'))})
      process.stdout.write(JSON.stringify({ cache: bundle.cache, names: Object.keys(bundle.exports).sort() }))`)
    expect(cache).toBe('accepted')
    expect(names).toEqual([...runtimeNames, 'main'].sort())
  })

  it('evaluate zod only when a first schema is built: not for the import, a start or a health check', () => {
    // zod's core marks the global object as it is evaluated (core.js, `__zod_globalConfig`).
    const evaluated = inNode(`
      const { startSandbox } = await import(${JSON.stringify(pathToFileURL(entry('import')).href)})
      const seen = []
      const see = () => seen.push('__zod_globalConfig' in globalThis)
      see()
      const sandbox = await startSandbox()
      see()
      const get = (path) => fetch(sandbox.baseUrl + path, { headers: { authorization: 'Bearer ' + sandbox.apiKey } })
      const health = await get('/_sandbox/health')
      see()
      // A query the wallets route parses with its zod schema; a bad one answers zod's problem in the contract's shape.
      const wallets = await get('/v1/wallets?limit=0')
      see()
      await sandbox.close()
      process.stdout.write(JSON.stringify({ seen, health: health.status, wallets: [wallets.status, (await wallets.json()).error.param] }))`)
    expect(evaluated).toEqual({ seen: [false, false, false, true], health: 200, wallets: [400, 'limit'] })
  })

  it('start listening without loading node:cluster or node:dns, and a host name still binds', () => {
    // A start binds its IP address itself (src/http/server-guards.ts, listenOn): node's listen loaded
    // both modules, and what they brought, to look up an address and to learn it was no cluster worker.
    const started = inNode(`
      const { startSandbox } = await import(${JSON.stringify(pathToFileURL(entry('import')).href)})
      const loaded = () => process.moduleLoadList.filter((name) => /^NativeModule (cluster|dns)$/.test(name))
      const sandbox = await startSandbox()
      const health = await fetch(sandbox.baseUrl + '/_sandbox/health')
      const before = loaded()
      await sandbox.close()
      const named = await startSandbox({ host: 'localhost' })
      const namedHealth = await fetch(named.baseUrl + '/_sandbox/health')
      await named.close()
      process.stdout.write(JSON.stringify({ before, health: health.status, named: namedHealth.status, after: loaded() }))`)
    expect(started).toEqual({ before: [], health: 200, named: 200, after: ['NativeModule dns', 'NativeModule cluster'] })
  })

  it('answer the routes of the modules a first payment never runs, which the bundle declares in functions of their own', () => {
    // scripts/bundle-groups.mjs: each group of them is declared when one of its modules is first
    // used. Routes of several groups, each first used here, in one process.
    const bundleText = readFileSync(join(ROOT, 'dist', 'cli.bundle.cjs'), 'latin1')
    expect(bundleText.match(/function __group\d+\(\)\{__group\d+=__esmRan;/g)?.length).toBeGreaterThan(10)
    const statuses = inNode(`
      const { startSandbox } = await import(${JSON.stringify(pathToFileURL(entry('import')).href)})
      const sandbox = await startSandbox({ clock: 'manual' })
      const call = async (path, init = {}) => (await fetch(sandbox.baseUrl + path, { ...init, headers: { authorization: 'Bearer ' + sandbox.apiKey, 'content-type': 'application/json' } })).status
      const statuses = {
        orders: await call('/v1/orders'),
        webhooks: await call('/v1/webhooks'),
        advance: await call('/_sandbox/clock/advance', { method: 'POST', body: JSON.stringify({ ms: 1000 }) }),
        openapi: await call('/v1/openapi.json'),
        snapshot: await call('/_sandbox/snapshot'),
        payouts: await call('/v1/payouts'),
      }
      await sandbox.close()
      process.stdout.write(JSON.stringify(statuses))`)
    expect(statuses).toEqual({ orders: 200, webhooks: 200, advance: 200, openapi: 200, snapshot: 200, payouts: 200 })
  })

  it('find the package files from a folder whose path a file URL must escape', () => {
    // The bundle's file URL is `file://` and its path when the path is plain characters, node's pathToFileURL otherwise.
    const tmp = mkdtempSync(join(tmpdir(), 'library entry #%-'))
    try {
      for (const part of ['dist', 'fixtures', 'package.json']) cpSync(join(ROOT, part), join(tmp, part), { recursive: true })
      const { version, wallets } = inNode(`
        const { startSandbox, VERSION } = await import(${JSON.stringify(pathToFileURL(join(tmp, pkg.exports['.']!.import!)).href)})
        const sandbox = await startSandbox()
        const answer = await fetch(sandbox.baseUrl + '/v1/wallets?limit=100', { headers: { authorization: 'Bearer ' + sandbox.apiKey } })
        const wallets = (await answer.json()).data.length
        await sandbox.close()
        process.stdout.write(JSON.stringify({ version: VERSION, wallets }))`)
      expect({ version, wallets }).toEqual({ version: pkg.version, wallets: 14 })
    } finally {
      rmSync(tmp, { recursive: true, force: true })
    }
  })

  it('make a cache of their own on the first startSandbox() when the shipped one does not fit this Node, and use it next time', () => {
    // --max-old-space-size changes V8's flags, which a code cache must match: V8 rejects the shipped one.
    const tmp = mkdtempSync(join(tmpdir(), 'library-entry-'))
    try {
      const start = (flags = ['--max-old-space-size=500']) => execFileSync(process.execPath, [...flags, '--input-type=module', '-e', `
        const { startSandbox } = await import(${JSON.stringify(pathToFileURL(entry('import')).href)})
        await (await startSandbox()).close()`], { cwd: ROOT, env: { ...process.env, TMPDIR: tmp } })
      // The folder also holds the bundle's remembered checksum (src/code-cache.ts, checksumOf).
      const caches = () => readdirSync(tmp).flatMap((dir) => readdirSync(join(tmp, dir)).filter((file) => !file.endsWith('.checksum')).map((file) => join(tmp, dir, file)))
      start()
      const [made, ...others] = caches()
      // Named after the bundle and after the Node and options that made it (src/code-cache.ts, runtimeKey).
      expect([made, others]).toEqual([expect.stringMatching(/cli\.bundle\.cjs\.[0-9a-f]+-[0-9a-f]{8}\.[0-9a-f]{8}\.v8cache$/), []])
      // A start that found its cache accepted writes none (a rejected one would write it anew: another inode).
      const { ino } = statSync(made!)
      start()
      expect(caches()).toEqual([made])
      expect(statSync(made!).ino).toBe(ino)
      // A start without the flag uses the shipped cache, which fits it, and leaves the other one be: the
      // next start with the flag still finds its own (issue 33, round 9: under one name, each change of
      // flags compiled the bundle and replaced the cache).
      start([])
      expect(caches()).toEqual([made])
      start()
      expect(caches()).toEqual([made])
      expect(statSync(made!).ino).toBe(ino)
    } finally {
      rmSync(tmp, { recursive: true, force: true })
    }
  })
})
