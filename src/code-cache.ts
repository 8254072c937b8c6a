import type { BigIntStats } from 'node:fs'
import { checksumOf, isTrusted, readIfPresent, SETTLED_MS, writeAtomically } from './code-cache-files.js'

// Node's modules from process.getBuiltinModule(), not imported: dist/library.mjs carries this module
// as an ES module, where an import of a built-in module is linked through an ES module made for it,
// which wraps each of its exports (node:fs has about a hundred).
const { isAscii } = process.getBuiltinModule('node:buffer')
const { closeSync, fstatSync, mkdirSync, openSync, readFileSync } = process.getBuiltinModule('node:fs')
const { basename, dirname, join } = process.getBuiltinModule('node:path')
const { Script } = process.getBuiltinModule('node:vm')

/**
 * What Node puts around a CommonJS module. scripts/bundle-cli.mjs writes the bundle with it already
 * around, so that V8 compiles the file's text as it was read: wrapping it here made V8 copy the 1.3
 * MB into one flat string on every start (issue 33).
 */
export const BUNDLE_WRAPPER = ['(function (exports, require, module, __filename, __dirname) {', '\n})'] as const

export interface LoadedBundle {
  /** What the bundle assigned to `module.exports`. */
  exports: Record<string, unknown>
  /** `accepted`: V8 used a cache and skipped compiling; `rejected`: a cache was found but made by another V8 or flags; `none`: no cache yet. */
  cache: 'accepted' | 'rejected' | 'none'
  /**
   * Writes the cache (only when none was accepted, and only the first time) into the first of the cache folders, and
   * the same for each chunk the bundle has loaded so far (see `CHUNK`). Call it once
   * the bundle has done its start-up work: V8 then includes every function compiled so far, not
   * only the top level. Best effort: a folder that cannot be written is skipped silently.
   */
  saveCache(): void
}

/**
 * What the bundle requires as a chunk of its own: a file beside it (`./<name>.chunk.cjs`, written by
 * scripts/bundle-cli.mjs) that holds packages a start never runs (zod, express, ws, commander,
 * faker). A chunk is run through its own code cache, as the bundle is, when first required; so a
 * start reads, deserialises and evaluates none of their code (issue 33, round 6).
 */
const CHUNK = /^\.\/[\w-]+\.chunk\.cjs$/

/**
 * Runs a CommonJS bundle through V8's code cache, which Node 20 offers for `vm.Script` only (Node
 * 22's `module.enableCompileCache()` does this for every module). Compiling the CLI bundle was the
 * largest single cost of a cold start; with a cache V8 deserialises the compiled code instead.
 *
 * Caches are named after the bundle's length and CRC-32, because V8 checks only the length of the
 * source against a cache: a cache is not read for another text (a change that kept both the length
 * and the checksum is one in four billion). The checksum is remembered in the first cache folder
 * under the file's identity and times (see `checksumOf`), so that only a start that meets the file
 * for the first time computes it. V8 itself rejects a
 * cache made by another V8 version or with other flags, and the bundle is then compiled as usual.
 * `cacheDirs` are tried in order; the first is where a new cache is written (and the checksum
 * remembered). `options.settledMs` replaces SETTLED_MS: 0 in tests, Infinity in the build, whose
 * folder ships. `options.runtime` (see runtimeKey) is added to the name of the first folder's cache,
 * `<bundle>.<length>-<checksum>.<runtime>.v8cache`, so that processes of other V8 flags or another
 * Node each keep a cache of their own there rather than replacing one another's.
 *
 * A cache is code that runs: one is read only from a folder that this user or root owns and nobody
 * else may write to, so that another user of a shared temp folder cannot plant one.
 */
export function loadBundle(bundleFile: string, cacheDirs: string[], options: { settledMs?: number; runtime?: string } = {}): LoadedBundle {
  const fd = openSync(bundleFile, 'r')
  let bytes: Buffer
  let identity: BigIntStats
  try {
    bytes = readFileSync(fd)
    // After reading: an edit made while the bytes were read shows in the file's ctime.
    identity = fstatSync(fd, { bigint: true })
  } finally {
    closeSync(fd)
  }
  // Each folder's trust is asked once a load (checksumOf asks the first folder's too): the first stat of it stands for both.
  const firstTrusted = cacheDirs.length > 0 ? isTrusted(cacheDirs[0]!) : false
  const cacheName = `${basename(bundleFile)}.${bytes.length.toString(16)}-${checksumOf(bundleFile, bytes, identity, cacheDirs[0], options.settledMs ?? SETTLED_MS, firstTrusted)}`
  const cacheFiles = cacheDirs.map((dir, index) => join(dir, `${cacheName}${index === 0 && options.runtime !== undefined ? `.${options.runtime}` : ''}.v8cache`))
  // Checksumming the bytes and decoding ASCII as latin1 (the same characters) is about 10 ms faster than
  // reading the file as UTF-8 and checksumming the string; esbuild escapes every other character.
  const text = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8')
  let cachedData: Buffer | undefined
  for (let index = 0; cachedData === undefined && index < cacheDirs.length; index++) if (index === 0 ? firstTrusted : isTrusted(cacheDirs[index]!)) cachedData = readIfPresent(cacheFiles[index]!, bytes)

  // A bundle not written wrapped (a plain CommonJS file) gets the wrapper here, so it sees what it would under require().
  const wrapped = text.startsWith(BUNDLE_WRAPPER[0]) && text.endsWith(BUNDLE_WRAPPER[1])
  const script = new Script(wrapped ? text : `${BUNDLE_WRAPPER[0]}${text}${BUNDLE_WRAPPER[1]}`, {
    filename: bundleFile,
    ...(cachedData ? { cachedData } : {}),
  })
  const cache = cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'accepted'
  const module = { exports: {} as Record<string, unknown> }
  let saved = false
  const chunks = new Map<string, LoadedBundle>()
  const plainRequire = requireFrom(bundleFile)
  // Node's own modules as they are (all the bundle requires but its chunks); node's require() for
  // everything else (a chunk's packages), its members (require.resolve) included.
  const bundleRequire = (id: string): unknown => {
    if (id.startsWith('node:')) return process.getBuiltinModule(id) ?? plainRequire()(id)
    if (!CHUNK.test(id)) return plainRequire()(id)
    let chunk = chunks.get(id)
    if (chunk === undefined) chunks.set(id, (chunk = loadBundle(join(dirname(bundleFile), id), cacheDirs, options)))
    return chunk.exports
  }
  for (const member of ['resolve', 'main', 'extensions', 'cache'] as const) Object.defineProperty(bundleRequire, member, { get: () => plainRequire()[member], enumerable: true })
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void
  wrapper.call(module.exports, module.exports, bundleRequire, module, bundleFile, dirname(bundleFile))

  return {
    exports: module.exports,
    cache,
    saveCache() {
      for (const chunk of chunks.values()) chunk.saveCache()
      const dir = cacheDirs[0]
      if (cache === 'accepted' || saved || dir === undefined) return
      saved = true
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 })
        if (!isTrusted(dir)) return
        writeAtomically(cacheFiles[0]!, script.createCachedData())
      } catch {
        // A read-only package folder or temp dir only costs the next start its compile time.
      }
    },
  }
}

/**
 * The sandbox's bundle (`dist/cli.bundle.cjs`: the CLI and the library alike), run through the cache
 * made at build time in `dist` or, when that one does not fit this Node, one in the temp folder,
 * made by the first start and used by the next ones of the same Node and options (runtimeKey).
 * `dist` is the folder of the bundle.
 */
export function loadSandboxBundle(dist: string): LoadedBundle {
  return loadBundle(join(dist, 'cli.bundle.cjs'), [join(tempFolder(), `wallet-sandbox-code-cache-${process.getuid?.() ?? 'user'}`), dist], { runtime: runtimeKey() })
}

/**
 * What a V8 code cache must match besides its source, as 8 hex digits: this Node (its V8) and the
 * options it runs with (process.execArgv and NODE_OPTIONS, where V8's flags come from). The temp
 * folder's cache is named with it, and it is tried before the shipped one: under one name, a start
 * with other flags (`--max-old-space-size`, which test runners often set, or a profiler's) found the
 * cache of the last start with other flags there, which V8 rejected, so it compiled the bundle and
 * replaced that cache, and so on at each change of flags: 358.7 M instructions until the first
 * health answer instead of 221.7 M (issue 33, round 9), though the shipped cache would have fitted.
 * An option that does not change V8's flags (or a script given with `-e`) only makes a name under
 * which nothing is written when the shipped cache is accepted. FNV-1a: node:crypto or node:zlib
 * would cost a start their loading.
 */
function runtimeKey(): string {
  const runtime = `${process.version} ${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`
  let hash = 0x811c9dc5
  for (let i = 0; i < runtime.length; i++) hash = Math.imul(hash ^ runtime.charCodeAt(i), 0x01000193)
  return (hash >>> 0).toString(16).padStart(8, '0')
}

/** Where loadSandboxLibrary() keeps the library it loaded, by bundle file, for the whole process. */
const LIBRARIES = Symbol.for('wallet-sandbox.libraries')

/**
 * The library's exports (the bundle's, less the command line's `main`) for its entries,
 * dist/library.cjs (require) and dist/library.mjs (import), which scripts/bundle-cli.mjs writes:
 * `startSandbox()` also writes the code cache when the shipped one did not fit this Node (as the
 * CLI's first start does). The import entry carries this module itself rather than requiring
 * dist/code-cache.cjs, which went through node's CommonJS loader twice (dist/library.cjs, then this
 * file: resolving, reading and compiling each without a cache, about 3 ms of an import, issue 33);
 * so the library is kept on the global object under a registered symbol, and a suite that loads
 * the package both ways gets one instance (one bundle evaluated, `instanceof ConfigError` either way).
 */
export function loadSandboxLibrary(dist: string): Record<string, unknown> {
  const loaded = ((globalThis as { [LIBRARIES]?: Map<string, Record<string, unknown>> })[LIBRARIES] ??= new Map())
  const file = join(dist, 'cli.bundle.cjs')
  let library = loaded.get(file)
  if (library === undefined) {
    const bundle = loadSandboxBundle(dist)
    const { main: _cli, ...exports } = bundle.exports
    const start = exports.startSandbox as (options?: unknown) => Promise<unknown>
    exports.startSandbox = async (options?: unknown) => {
      const sandbox = await start(options)
      bundle.saveCache()
      return sandbox
    }
    loaded.set(file, (library = exports))
  }
  return library
}

/**
 * A require() that resolves from the bundle's folder, made on first need. dist/code-cache.cjs, this
 * module as CommonJS, sits beside the bundle, so its own require() is that one; elsewhere (the ES
 * module build, dist/library.mjs, and tests) node:module makes one, which the bundle needs only
 * for a chunk's packages: its own requires are of node's modules, and making a require() cost an
 * import through dist/library.mjs about 3.5 M instructions (issue 33, round 7). Loading node:module
 * (it brings part of the ES module loader) and node:os cost a start about 1.5 ms of CPU (issue 33).
 */
function requireFrom(file: string): () => NodeJS.Require {
  if (typeof require === 'function' && typeof __dirname === 'string' && dirname(file) === __dirname) return () => require
  let made: NodeJS.Require | undefined
  return () => (made ??= process.getBuiltinModule('node:module').createRequire(file))
}

/** os.tmpdir(), which on Linux and macOS reads these variables in this order. */
function tempFolder(): string {
  if (process.platform === 'win32') return process.getBuiltinModule('node:os').tmpdir()
  const folder = process.env.TMPDIR || process.env.TMP || process.env.TEMP || '/tmp'
  return folder.length > 1 && folder.endsWith('/') ? folder.slice(0, -1) : folder
}
