import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BUNDLE_WRAPPER, loadBundle } from '../../src/code-cache.js'

const SOURCE = "const path = require('node:path'); module.exports = { add: (a, b) => a + b, where: path.basename(__filename) }\n"

describe('loadBundle (V8 code cache for the CLI bundle)', () => {
  let dir: string
  let caches: string
  let copies = 0
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'code-cache-test-'))
    caches = join(dir, 'caches')
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  /**
   * The bundle's text in a file of its own. V8 keeps scripts it compiled in memory by text and file
   * name, and would answer a second load of the same file from there without reading any cache;
   * a new file name per load makes each one behave like a fresh process.
   */
  function bundleFile(source = SOURCE): string {
    const folder = join(dir, `copy-${++copies}`)
    mkdirSync(folder)
    writeFileSync(join(folder, 'bundle.cjs'), source)
    return join(folder, 'bundle.cjs')
  }

  const cacheFiles = () => readdirSync(caches).filter((file) => file.endsWith('.v8cache'))

  it('runs the bundle as CommonJS, makes a cache, and uses it on the next load', () => {
    const first = loadBundle(bundleFile(), [caches])
    expect(first.cache).toBe('none')
    expect((first.exports.add as (a: number, b: number) => number)(2, 3)).toBe(5)
    expect(first.exports.where).toBe('bundle.cjs')
    first.saveCache()
    expect(cacheFiles()).toHaveLength(1)

    const second = loadBundle(bundleFile(), [caches])
    expect(second.cache).toBe('accepted')
    expect((second.exports.add as (a: number, b: number) => number)(4, 5)).toBe(9)
  })

  it('names the first folder\'s cache after the runtime it was made for, and reads the next folders\' under the plain name', () => {
    // What loadSandboxBundle() does: its own caches in the temp folder keyed by Node and flags (runtimeKey), the shipped one in dist/ not.
    const shipped = join(dir, 'shipped')
    loadBundle(bundleFile(), [shipped]).saveCache()
    const [plain] = readdirSync(shipped)
    expect(plain).toMatch(/^bundle\.cjs\.[0-9a-f]+-[0-9a-f]{8}\.v8cache$/)
    // The shipped cache is found under its plain name; nothing is written for a runtime it fits.
    const fits = loadBundle(bundleFile(), [caches, shipped], { runtime: 'aaaaaaaa' })
    expect(fits.cache).toBe('accepted')
    fits.saveCache()
    expect(existsSync(caches)).toBe(false)
    // A cache of the first folder is read only by the runtime it is named for.
    rmSync(shipped, { recursive: true })
    loadBundle(bundleFile(), [caches, shipped], { runtime: 'aaaaaaaa' }).saveCache()
    expect(cacheFiles()).toEqual([plain!.replace(/\.v8cache$/, '.aaaaaaaa.v8cache')])
    expect(loadBundle(bundleFile(), [caches, shipped], { runtime: 'aaaaaaaa' }).cache).toBe('accepted')
    expect(loadBundle(bundleFile(), [caches, shipped], { runtime: 'bbbbbbbb' }).cache).toBe('none')
  })

  it("gives the bundle node's modules, and node's require() with its members for anything else", () => {
    // This test loads src/code-cache.ts as an ES module, which makes its require() only on first need (requireFrom).
    const source = `module.exports = {
      http: require('node:http') === process.getBuiltinModule('node:http'),
      unprefixed: require('path') === process.getBuiltinModule('node:path'),
      resolved: require.resolve('node:path'),
      members: [typeof require.cache, typeof require.extensions],
      missing: (() => { try { require('no-such-package-here') } catch (error) { return error.code } })(),
    }`
    expect(loadBundle(bundleFile(source), [caches]).exports).toEqual({ http: true, unprefixed: true, resolved: 'node:path', members: ['object', 'object'], missing: 'MODULE_NOT_FOUND' })
  })

  it('compiles a bundle written with the wrapper already around as it is (as scripts/bundle-cli.mjs writes it), and caches it', () => {
    const wrapped = `${BUNDLE_WRAPPER[0]}${SOURCE}${BUNDLE_WRAPPER[1]}`
    const first = loadBundle(bundleFile(wrapped), [caches])
    expect([first.cache, (first.exports.add as (a: number, b: number) => number)(2, 3), first.exports.where]).toEqual(['none', 5, 'bundle.cjs'])
    first.saveCache()
    expect(loadBundle(bundleFile(wrapped), [caches]).cache).toBe('accepted')
    // Wrapped twice, it would only define the function and export nothing.
    expect(loadBundle(bundleFile(` ${wrapped}`), [caches]).exports).toEqual({})
  })

  it('never reads a cache made for other text, even of the same length', () => {
    loadBundle(bundleFile(), [caches]).saveCache()
    const changed = loadBundle(bundleFile(SOURCE.replace('a + b', 'a - b')), [caches])
    expect(changed.cache).toBe('none')
    expect((changed.exports.add as (a: number, b: number) => number)(4, 5)).toBe(-1)
  })

  const memoFiles = () => readdirSync(caches).filter((file) => file.endsWith('.checksum'))

  it('remembers the checksum of a file not changed lately, and reads it on the next load', () => {
    const file = bundleFile()
    loadBundle(file, [caches], { settledMs: 0 }).saveCache()
    expect(memoFiles()).toHaveLength(1)
    const [memo] = memoFiles()
    const [stamp, checksum] = readFileSync(join(caches, memo!), 'latin1').split('\n')
    expect(checksum).toMatch(/^[0-9a-f]{8}$/)
    expect(cacheFiles()[0]).toContain(`-${checksum}.v8cache`)
    expect(loadBundle(file, [caches]).cache).toBe('accepted')
    // Read, not computed again: a remembered checksum of another text names no cache.
    writeFileSync(join(caches, memo!), `${stamp}\n00000000`)
    expect(loadBundle(file, [caches]).cache).toBe('none')
  })

  it('checksums a file edited in place again, and never remembers one changed within the last moments', () => {
    const file = bundleFile()
    loadBundle(file, [caches], { settledMs: 0 }).saveCache()
    // The same length, the same inode; the edit moves the file's times (here set apart explicitly,
    // as an edit in another tick of the file system's clock would).
    writeFileSync(file, SOURCE.replace('a + b', 'a - b'))
    utimesSync(file, new Date(0), new Date(0))
    const changed = loadBundle(file, [caches])
    expect(changed.cache).toBe('none')
    expect((changed.exports.add as (a: number, b: number) => number)(4, 5)).toBe(-1)

    rmSync(caches, { recursive: true })
    loadBundle(bundleFile(), [caches]).saveCache()
    expect(cacheFiles()).toHaveLength(1)
    expect(memoFiles()).toHaveLength(0)
  })

  it('compiles as usual when V8 rejects a cache, and replaces it', () => {
    loadBundle(bundleFile(), [caches]).saveCache()
    writeFileSync(join(caches, cacheFiles()[0]!), 'not a V8 code cache')
    const rejected = loadBundle(bundleFile(), [caches])
    expect(rejected.cache).toBe('rejected')
    expect((rejected.exports.add as (a: number, b: number) => number)(1, 1)).toBe(2)
    rejected.saveCache()
    expect(loadBundle(bundleFile(), [caches]).cache).toBe('accepted')
  })

  it('reads the folders in order and writes only to the first', () => {
    const shipped = join(dir, 'shipped')
    loadBundle(bundleFile(), [shipped]).saveCache()
    const fromShipped = loadBundle(bundleFile(), [caches, shipped])
    expect(fromShipped.cache).toBe('accepted')
    fromShipped.saveCache()
    expect(readdirSync(dir)).not.toContain('caches')
  })

  it('reads no cache from a folder that others may write to', () => {
    loadBundle(bundleFile(), [caches]).saveCache()
    chmodSync(caches, 0o777)
    expect(loadBundle(bundleFile(), [caches]).cache).toBe('none')
    chmodSync(caches, 0o700)
    expect(loadBundle(bundleFile(), [caches]).cache).toBe('accepted')
  })

  it("runs a chunk the bundle requires (./<name>.chunk.cjs) once, on first use, through a cache of its own", () => {
    const BUNDLE = "module.exports = { chunk: () => require('./extra.chunk.cjs'), sep: require('node:path').sep, resolves: typeof require.resolve }\n"
    const CHUNK = 'module.exports = { made: Symbol("one instance") }\n'
    const copy = () => {
      const file = bundleFile(BUNDLE)
      writeFileSync(join(dirname(file), 'extra.chunk.cjs'), CHUNK)
      return loadBundle(file, [caches])
    }
    const first = copy()
    expect([first.exports.sep, first.exports.resolves]).toEqual(['/', 'function'])
    first.saveCache()
    // Not required yet: not loaded, so no cache of its own.
    expect(cacheFiles()).toEqual([expect.stringMatching(/^bundle\.cjs\./)])
    const chunk = (first.exports.chunk as () => { made: symbol })()
    expect((first.exports.chunk as () => unknown)()).toBe(chunk)
    first.saveCache()
    const made = cacheFiles().sort()
    expect(made).toEqual([expect.stringMatching(/^bundle\.cjs\./), expect.stringMatching(/^extra\.chunk\.cjs\./)])
    const stats = made.map((file) => statSync(join(caches, file))).map(({ ino, mtimeMs }) => ({ ino, mtimeMs }))

    // The next load accepts both caches, so neither is written again.
    const second = copy()
    expect(second.cache).toBe('accepted')
    expect(((second.exports.chunk as () => { made: symbol })()).made.description).toBe('one instance')
    second.saveCache()
    expect(cacheFiles().sort()).toEqual(made)
    expect(made.map((file) => statSync(join(caches, file)))).toMatchObject(stats)
  })

  it('starts anyway when the cache folder cannot be written', () => {
    const notAFolder = join(dir, 'file')
    writeFileSync(notAFolder, '')
    const loaded = loadBundle(bundleFile(), [notAFolder])
    expect(() => loaded.saveCache()).not.toThrow()
    expect(loadBundle(bundleFile(), [notAFolder]).cache).toBe('none')
  })
})
