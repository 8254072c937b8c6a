import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIN, buildIfNeeded, cleanEnv, ROOT } from '../helpers/cli-process.js'

/**
 * The CLI's code cache in the temp folder, made when the shipped one does not fit this Node. The
 * bin changes one of V8's flags once the CLI serves (bin/wallet-sandbox.js, tierUpSooner), and V8
 * accepts a cache only under the flags it was made with: the cache must be written before that, or
 * every later start would reject it and compile the whole bundle again. Its name carries this Node and
 * these options (src/code-cache.ts, runtimeKey), so that starts with other flags keep caches of their own.
 */

beforeAll(buildIfNeeded, 180_000)

const tmp = mkdtempSync(join(tmpdir(), 'cli-code-cache-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/** A CLI start under other V8 flags than the build's (so the shipped cache is rejected), stopped once it has answered a request. */
async function startAndStop(...flags: string[]): Promise<void> {
  // --max-old-space-size changes V8's flags, which a code cache must match.
  const child = spawn(process.execPath, ['--max-old-space-size=500', BIN, '--ready-json', '--quiet', '--port', '0', ...flags], { cwd: ROOT, env: cleanEnv({ TMPDIR: tmp }), stdio: ['ignore', 'pipe', 'inherit'] })
  const exited = new Promise((resolve) => child.on('exit', resolve))
  let out = ''
  const ready = await new Promise<{ url: string }>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!) as { url: string })
    })
    child.on('exit', (code) => reject(new Error(`the CLI exited with ${code} before its ready line`)))
  })
  const health = await fetch(new URL('/_sandbox/health', ready.url))
  expect(health.status).toBe(200)
  child.kill('SIGTERM')
  await exited
}

// The folder also holds the bundle's remembered checksum (src/code-cache.ts, checksumOf).
const caches = () => readdirSync(tmp).flatMap((dir) => readdirSync(join(tmp, dir)).filter((file) => !file.endsWith('.checksum')).map((file) => join(tmp, dir, file)))

describe('the CLI code cache in the temp folder', () => {
  it('is written by the first start and accepted by the next (written once: a rejected one would be written anew)', async () => {
    await startAndStop()
    // The bundle's alone: a plain start's flags are read without commander (src/cli/main.ts), so no chunk is loaded.
    const made = caches().sort()
    expect(made).toEqual([expect.stringMatching(/\/cli\.bundle\.cjs\.[0-9a-f]+-[0-9a-f]{8}\.[0-9a-f]{8}\.v8cache$/)])
    const stats = made.map((file) => statSync(file)).map(({ ino, mtimeMs }) => ({ ino, mtimeMs }))
    await startAndStop()
    expect(caches().sort()).toEqual(made)
    expect(made.map((file) => statSync(file))).toMatchObject(stats)
  }, 60_000)

  it('gets the cache of commander\'s chunk from a start that commander reads (a flag given twice), and keeps the bundle\'s', async () => {
    await startAndStop()
    const [bundle] = caches()
    const { ino, mtimeMs } = statSync(bundle!)
    await startAndStop('--quiet')
    const made = caches().sort()
    expect(made).toEqual([bundle, expect.stringMatching(/\/commander\.chunk\.cjs\.[0-9a-f]+-[0-9a-f]{8}\.[0-9a-f]{8}\.v8cache$/)])
    expect(statSync(bundle!)).toMatchObject({ ino, mtimeMs })
    const commander = statSync(made[1]!)
    await startAndStop('--quiet')
    expect(statSync(made[1]!)).toMatchObject({ ino: commander.ino, mtimeMs: commander.mtimeMs })
  }, 60_000)
})
