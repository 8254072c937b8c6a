// Bundles the command line and the library into one CommonJS file, dist/cli.bundle.cjs (with the
// packages a start never runs in chunks beside it, dist/<name>.chunk.cjs: see CHUNKS), and makes
// the V8 code caches that ship next to them; bin/wallet-sandbox.js and the library's entries
// (dist/library.cjs for require(), dist/library.mjs for import, both written here) run the bundle
// through that cache (see src/code-cache.ts). Why: a cold start was mostly loading code. express's
// dependencies and zod ship as hundreds of small modules (about 320 ms to a first answer unbundled,
// 220 ms bundled), and then compiling the bundle was the largest cost left (about 160 ms with the
// cache, against 150 ms for a minimal express app, on this project's machines). The library's
// import was tsc output, hundreds of modules, until issue 33: 460 to 590 ms on a quiet machine.
import { execFileSync } from 'node:child_process'
import { isAscii } from 'node:buffer'
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { en } from '@faker-js/faker'
import { build } from 'esbuild'
import ts from 'typescript'
import { groupNeverRunModules } from './bundle-groups.mjs'

const dist = fileURLToPath(new URL('../dist/', import.meta.url))
const bundleFile = `${dist}cli.bundle.cjs`

/**
 * An esbuild plugin that bundles a stand-in for `dependency` instead of the package: `members`
 * (module.exports of the stand-in, as source) reach the real package through `load()`, which
 * requires it from express's own dependencies on first use.
 */
function onFirstUse(dependency, members) {
  return {
    name: `${dependency}-on-first-use`,
    setup(build) {
      build.onResolve({ filter: new RegExp(`^${dependency}$`) }, () => ({ path: dependency, namespace: `${dependency}-on-first-use` }))
      build.onLoad({ filter: /.*/, namespace: `${dependency}-on-first-use` }, () => ({
        loader: 'js',
        contents: `const expressPackage = 'express' // not a literal in require.resolve(), which esbuild would try to bundle
let real
const load = () => (real ??= require('node:module').createRequire(require.resolve(expressPackage))(${JSON.stringify(dependency)}))
module.exports = ${members}`,
      }))
    },
  }
}

/**
 * express re-exports body-parser's parsers as it loads, which loads body-parser and, under it,
 * iconv-lite's encoding tables (a third of the bundle). The sandbox never calls those parsers
 * (src/http/middleware/body.ts reads request bodies).
 */
const bodyParserOnFirstUse = onFirstUse('body-parser', `{
  json: (options) => load().json(options),
  raw: (options) => load().raw(options),
  text: (options) => load().text(options),
  urlencoded: (options) => load().urlencoded(options),
}`)

/**
 * mime-types builds its maps from mime-db (about 2,000 types) as it loads, and express, send,
 * accepts and type-is all load it at the top. The sandbox sets its own Content-Type headers
 * (express calls mime-types from res.type/res.set, which the sandbox's answers do not go through).
 */
const mimeTypesOnFirstUse = onFirstUse('mime-types', `{
  charset: (type) => load().charset(type),
  charsets: { lookup: (type) => load().charset(type) },
  contentType: (type) => load().contentType(type),
  extension: (type) => load().extension(type),
  lookup: (path) => load().lookup(path),
  get extensions() { return load().extensions },
  get types() { return load().types },
  get _extensionConflicts() { return load()._extensionConflicts },
}`)

/**
 * express requires qs as it loads, for its "extended" query parser; qs brings side-channel,
 * object-inspect, get-intrinsic and their helpers (51 modules, 83 KB of the bundle, evaluated at
 * every start). The sandbox sets the "simple" parser (src/http/app.ts), so express never calls qs.
 */
const qsOnFirstUse = onFirstUse('qs', `{
  parse: (text, options) => load().parse(text, options),
  stringify: (object, options) => load().stringify(object, options),
}`)

/**
 * Node's own modules that bundled packages require as they load but use only for what the sandbox
 * never does: ws requires `tls` and `https` for client connections (the stream is a server), and
 * commander `child_process` for subcommands run as executables. Loading them is about 12 ms of a
 * cold start (`child_process` brings `dgram` along). The stand-in loads the module on first use of
 * any member.
 */
const BUILTINS_ON_FIRST_USE = ['tls', 'https', 'child_process']
const builtinsOnFirstUse = {
  name: 'builtins-on-first-use',
  setup(build) {
    build.onResolve({ filter: new RegExp(`^(node:)?(${BUILTINS_ON_FIRST_USE.join('|')})$`) }, (args) => ({ path: args.path.replace(/^node:/, ''), namespace: 'builtins-on-first-use' }))
    build.onLoad({ filter: /.*/, namespace: 'builtins-on-first-use' }, (args) => ({
      loader: 'js',
      // process.getBuiltinModule, not require(): this plugin would resolve that to the stand-in itself.
      contents: `let real
const load = () => (real ??= process.getBuiltinModule(${JSON.stringify(`node:${args.path}`)}))
// ownKeys and descriptors too: an ES import of the module (\`exec\`'s child_process) copies its members.
module.exports = new Proxy({}, {
  get: (_, member) => load()[member],
  has: (_, member) => member in load(),
  ownKeys: () => Reflect.ownKeys(load()),
  getOwnPropertyDescriptor: (_, member) => {
    const descriptor = Reflect.getOwnPropertyDescriptor(load(), member)
    return descriptor && { ...descriptor, configurable: true }
  },
})`,
    }))
  },
}

/**
 * faker's English locale (names, streets, products, lorem, …) was a third of the bundle, built as it
 * loads; the sandbox draws only person names from it (src/ledger/seeded-people.ts). The bundle's faker
 * gets the locale's `person` section alone, so a seed gives the same names as with the whole
 * locale (test/e2e/cli.test.ts compares them with the library's). And it is made on first use: a
 * start seeds only the default account, whose names need no faker, so faker (its chunk, with the
 * names) waits for the first other account.
 */
const FAKER_CHUNK = `import { Faker } from '@faker-js/faker'
export const makeFaker = () => new Faker({ locale: [${JSON.stringify({ metadata: en.metadata, person: en.person })}] })`
const fakerPersonNamesOnly = {
  name: 'faker-person-names-only',
  setup(build) {
    build.onResolve({ filter: /^@faker-js\/faker\/locale\/en$/ }, () => ({ path: 'faker-en-person', namespace: 'faker-person-names-only' }))
    build.onLoad({ filter: /^faker-en-person$/, namespace: 'faker-person-names-only' }, () => ({
      loader: 'js',
      contents: `let real
export const faker = new Proxy({}, { get: (_, member) => (real ??= require('./faker.chunk.cjs').makeFaker())[member] })`,
    }))
  },
}

/**
 * zod waits for its first use. The modules a start evaluates (the config, the fixtures, the request
 * pipeline, the presenters) import it for schemas they build on first use (src/lazily.ts), but a
 * static import still evaluated zod itself at every start: its classes, made by `$constructor`
 * (about 2.5 ms and 350 KB of a library start, issue 33). In the bundle, src's `import * as z from
 * 'zod'` becomes an object of getters for the members src uses, which require zod's ES build
 * (bundled, one instance, and still only those members: its locales stay out) when the first schema
 * is built. The members are read from src's syntax trees; a use of `z` other than `z.<member>`, or
 * another value import of zod, fails the build.
 */
const ZOD_IMPORT = "import * as z from 'zod'"
const ROOT = fileURLToPath(new URL('..', import.meta.url))

function zodMembersOf(file, source) {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const members = new Set()
  const visit = (node) => {
    if (ts.isIdentifier(node) && node.text === 'z') {
      const { parent } = node
      if (ts.isPropertyAccessExpression(parent) && parent.expression === node) members.add(parent.name.text)
      else if (!(ts.isQualifiedName(parent) && parent.left === node) && !ts.isNamespaceImport(parent)) throw new Error(`bundle-cli: ${file} uses z otherwise than as z.<member>`)
    }
    ts.forEachChild(node, visit)
  }
  visit(tree)
  return members
}

const zodImporters = new Set()
const zodMembers = new Set()
for (const entry of readdirSync(`${ROOT}src`, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.ts')) continue
  const file = `${entry.parentPath}/${entry.name}`
  const source = readFileSync(file, 'utf8')
  const imports = source.match(/^import (?!type ).*from 'zod(\/.*)?'$/gm) ?? []
  if (imports.length === 0) continue
  if (imports.some((line) => line !== ZOD_IMPORT)) throw new Error(`bundle-cli: ${file} imports zod otherwise than as \`${ZOD_IMPORT}\``)
  zodImporters.add(file)
  for (const member of zodMembersOf(file, source)) zodMembers.add(member)
}
const zodValues = Object.keys(await import('zod')).filter((name) => zodMembers.has(name)).sort()

const zodOnFirstUse = {
  name: 'zod-on-first-use',
  setup(build) {
    build.onLoad({ filter: /\/src\/.*\.ts$/ }, (args) => {
      if (!zodImporters.has(args.path)) return undefined
      return { loader: 'ts', contents: readFileSync(args.path, 'utf8').replace(ZOD_IMPORT, "import { z } from 'zod-on-first-use'") }
    })
    build.onResolve({ filter: /^zod-on-first-use$/ }, (args) => ({ path: args.path, namespace: 'zod-on-first-use' }))
    build.onLoad({ filter: /^zod-on-first-use$/, namespace: 'zod-on-first-use' }, () => ({
      loader: 'js',
      contents: `let real
const load = () => (real ??= require('./zod.chunk.cjs'))
export const z = { ${zodValues.map((name) => `get ${name}() { return load().${name} }`).join(', ')} }`,
    }))
  },
}

/**
 * @scure/base builds every codec it exports as it loads (base16 to bech32m, base58's three alphabets,
 * a TextDecoder for utf8, which loads node's encoding code): about 2 M instructions of every start
 * (issue 33, round 9: library-start), for the two codecs the sandbox uses only to make or check a
 * Solana or Stellar address. The stand-in keeps the package in the bundle (its code under the code
 * cache) but evaluates it on the first encode or decode; a member it does not list fails the build.
 */
const scureBaseOnFirstUse = {
  name: 'scure-base-on-first-use',
  setup(build) {
    build.onResolve({ filter: /^@scure\/base$/ }, (args) => (args.namespace === 'scure-base-on-first-use' ? undefined : { path: args.path, namespace: 'scure-base-on-first-use' }))
    build.onLoad({ filter: /.*/, namespace: 'scure-base-on-first-use' }, () => ({
      loader: 'js',
      resolveDir: ROOT,
      contents: `let real
const load = () => (real ??= require('@scure/base'))
export const base58 = { encode: (bytes) => load().base58.encode(bytes), decode: (text) => load().base58.decode(text) }
export const base32nopad = { encode: (bytes) => load().base32nopad.encode(bytes), decode: (text) => load().base32nopad.decode(text) }`,
    }))
  },
}

/**
 * The packages a start never runs, each in a chunk of its own beside the bundle (`dist/<name>.chunk.cjs`),
 * which src/code-cache.ts runs through a code cache of its own when the bundle first requires it:
 * zod (the first schema built), faker (the first account seeded after the default one), express
 * (src/http/express-app.ts: HEAD, OPTIONS, 404, the dashboard), ws (the first stream client) and
 * commander (a command line other than a plain start's: src/cli/program.ts). They were 0.6 of the
 * bundle's 1.35 MB, which every start read, decoded, and whose top level (zod's is not wrapped) it
 * deserialised and evaluated (issue 33, round 6). Each is a leaf (it imports nothing of src), so a
 * chunk shares no module with the bundle.
 */
const CHUNKS = {
  zod: `export { ${zodValues.join(', ')} } from 'zod'`,
  faker: FAKER_CHUNK,
  express: `module.exports = require('express')`,
  ws: `module.exports = require('ws')`,
  commander: `module.exports = require('commander')`,
}
const packagesAsChunks = {
  name: 'packages-as-chunks',
  setup(build) {
    build.onResolve({ filter: /^(express|ws|commander)$/ }, (args) => ({ path: args.path, namespace: 'packages-as-chunks' }))
    build.onLoad({ filter: /.*/, namespace: 'packages-as-chunks' }, (args) => ({ loader: 'js', contents: `module.exports = require('./${args.path}.chunk.cjs')` }))
    build.onResolve({ filter: /^\.\/[\w-]+\.chunk\.cjs$/ }, (args) => ({ path: args.path, external: true }))
  },
}

/**
 * The package's version as the bundle's own constant: src/version.ts reads package.json, which a
 * start then read and parsed through a URL (about 0.5 ms); the bundle ships with that package.json.
 */
const VERSION_READ = "JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version"
const versionAsBuilt = {
  name: 'version-as-built',
  setup(build) {
    build.onLoad({ filter: /\/src\/version\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8')
      if (!source.includes(VERSION_READ)) throw new Error(`bundle-cli: ${args.path} no longer reads the version as ${VERSION_READ}`)
      const { version } = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8'))
      return { loader: 'ts', contents: source.replace(VERSION_READ, JSON.stringify(version)) }
    })
  },
}

/**
 * The library's exports (src/public.ts), and the command line's `main`, whose modules (commander and
 * the commands) are evaluated only when it is called: a test suite's import does not pay for them.
 */
const ENTRY = `export * from './src/public.ts'
export const main = async (argv) => (await import('./src/cli/main.ts')).main(argv)
`

const { metafile } = await build({
  metafile: true,
  stdin: { contents: ENTRY, resolveDir: '.', loader: 'ts', sourcefile: 'sandbox-entry.ts' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outfile: bundleFile,
  plugins: [packagesAsChunks, fakerPersonNamesOnly, builtinsOnFirstUse, zodOnFirstUse, scureBaseOnFirstUse, versionAsBuilt],
  // Names are not minified, so stack traces in the logs stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
  // src/ finds package.json and fixtures/ relative to its own file; in the bundle that is dist/.
  // A path of plain characters is its file URL after `file://` (pathToFileURL's first call runs cold).
  // import.meta.dirname is the bundle's folder, as node gives an ES module its own.
  define: { 'import.meta.url': '__bundleUrl', 'import.meta.dirname': '__dirname' },
  banner: { js: "const __bundleUrl = /^[\\w/.-]+$/.test(__filename) ? `file://${__filename}` : require('node:url').pathToFileURL(__filename).href;" },
})

const chunked = Object.keys(metafile.inputs).filter((input) => /node_modules\/(zod|express|ws|commander|@faker-js)\//.test(input))
if (chunked.length > 0) throw new Error(`bundle-cli: the bundle holds modules that belong in a chunk: ${chunked.slice(0, 5).join(', ')}`)


/**
 * esbuild wraps each module a dynamic import() can reach as `init_x = __esm({"src/x.ts"() {…}})`, so
 * that the module's name is its function's name: an object literal of its own key at each of the
 * bundle's 336 modules, which every start evaluated. V8 makes each such literal a map of its own (a
 * transition from the one-property literal map, whose transition array grows by one at each), and
 * `__esm` listed the object's keys to find the function when the module first ran. Here each becomes
 * a named function expression, `__esm(function src$x$ts() {…})`: the name is the path with `/` and
 * `.` (and a package's `@`) as `$` and `-` as `_` (bench/start-profile.mjs reads it back), what a stack trace shows.
 * Instructions until the CLI's first health answer: see docs/benchmarks.md, "Issue 33, round 9: start-load".
 *
 * Nor is `__esm` itself kept: it made each of those functions a second closure, with a context of
 * its own for `fn` and `res`, at every start for every module (about 110 bytes each, 37 KB of young
 * allocation before the first answer, run or not). Each module's function is assigned to its
 * `init_x` directly and, first thing when called (after its "use strict"), replaces it with one
 * shared function that does nothing: what `__esm` did by clearing `fn` before the call, so a module
 * re-entered through an import cycle, or whose body threw, is not run again. The bundle never uses
 * what an `init_x()` answers (checked below: a call as a statement or in a comma expression; `__esm`
 * answered `res` for a module with top-level await, which the sandbox has none of) (issue 33, round 10).
 */
const ESM_HELPER = 'var __esm=(fn,res)=>function(){return fn&&(res=(0,fn[__getOwnPropNames(fn)[0]])(fn=0)),res};'
function esmInitsAsFunctions(text) {
  if (!text.includes(ESM_HELPER)) throw new Error('bundle-cli: esbuild no longer writes __esm as expected')
  const tree = ts.createSourceFile('cli.bundle.cjs', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS)
  const edits = []
  const inits = []
  if (text.includes('__esmRan')) throw new Error('bundle-cli: __esmRan is not a fresh identifier')
  // A module that a dynamic import() reaches has an exports object, filled at the bundle's top level
  // by `__export(x_exports, { name: () => name, … })`: a getter closure and a property for each
  // export, at every start, for the 31 such modules whose only reader is `(init_x(), x_exports)`
  // (or `__toCommonJS(x_exports)` after it). Each such statement moves into the start of its
  // module's function, after `init_x=__esmRan;`: the object is filled when the module first runs,
  // which is before anything reads it (issue 33, round 10).
  const movedExports = new Map()
  const findExports = (node) => {
    if (ts.isExpressionStatement(node) && ts.isCallExpression(node.expression) && ts.isIdentifier(node.expression.expression) && node.expression.expression.text === '__export') {
      const [target] = node.expression.arguments
      if (!ts.isIdentifier(target)) return
      const uses = [...text.matchAll(new RegExp(`(?<![\\w$])${target.text.replaceAll('$', '\\$')}(?![\\w$])`, 'g'))].map((use) => use.index)
      const reader = uses.map((index) => /\((init_[\w$]+)\(\),(?:__toCommonJS\()?$/.exec(text.slice(index - 80, index))).filter(Boolean)
      if (uses.length !== 3 || !text.slice(0, uses[0]).endsWith('var ') || !text.startsWith('={};', uses[0] + target.text.length) || reader.length !== 1) return
      const init = reader[0][1]
      edits.push([node.getStart(tree), node.end, ''])
      movedExports.set(init, (movedExports.get(init) ?? '') + text.slice(node.getStart(tree), node.end).replace(/;?$/, ';'))
      return
    }
    ts.forEachChild(node, findExports)
  }
  findExports(tree)
  const visit = (node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === '__esm') {
      const [wrapped] = node.arguments
      const method = node.arguments.length === 1 && ts.isObjectLiteralExpression(wrapped) && wrapped.properties.length === 1 ? wrapped.properties[0] : undefined
      if (!method || !ts.isMethodDeclaration(method) || !ts.isStringLiteral(method.name) || method.parameters.length > 0 || !method.body) throw new Error(`bundle-cli: an __esm call of another form at ${node.pos}`)
      const name = method.name.text.replace(/^.*node_modules\//, 'node_modules/').replace(/-/g, '_').replace(/[^\w$]/g, '$')
      if (!/^[A-Za-z_$][\w$]*\$\w+$/.test(name) || text.includes(name)) throw new Error(`bundle-cli: ${method.name.text} gives the name ${name}, not a fresh identifier`)
      const declaration = node.parent
      if (!ts.isVariableDeclaration(declaration) || !ts.isIdentifier(declaration.name) || !/^init_[\w$]+$/.test(declaration.name.text)) throw new Error(`bundle-cli: an __esm call not assigned to an init_ variable at ${node.pos}`)
      const init = declaration.name.text
      inits.push(init)
      // After the body's directives ("use strict" must stay first to keep the module strict).
      const directives = method.body.statements.filter((statement, index, all) => all.slice(0, index + 1).every((s) => ts.isExpressionStatement(s) && ts.isStringLiteral(s.expression)))
      const bodyStart = method.body.getStart(tree) + 1
      const at = directives.length > 0 ? directives[directives.length - 1].end : bodyStart
      const prologue = text.slice(bodyStart, at)
      const separator = directives.length > 0 && !prologue.trimEnd().endsWith(';') ? ';' : ''
      edits.push([node.getStart(tree), node.end, `function ${name}(){${prologue}${separator}${init}=__esmRan;${movedExports.get(init) ?? ''}${text.slice(at, method.body.end)}`])
      movedExports.delete(init)
      return // esbuild's module wrappers are not nested
    }
    ts.forEachChild(node, visit)
  }
  visit(tree)
  if (movedExports.size > 0) throw new Error(`bundle-cli: no module function for ${[...movedExports.keys()].join(', ')}`)
  edits.sort((a, b) => a[0] - b[0])
  let out = ''
  let at = 0
  for (const [start, end, replacement] of edits) {
    out += text.slice(at, start) + replacement
    at = end
  }
  out += text.slice(at)
  // Every use of an init_ variable is a call whose answer is dropped (see above).
  for (const init of inits) {
    for (const use of out.matchAll(new RegExp(`(?<![\\w$])${init.replaceAll('$', '\\$')}(?![\\w$])`, 'g'))) {
      const before = out.slice(Math.max(use.index - 3, 0), use.index)
      const after = out.slice(use.index + init.length, use.index + init.length + 3)
      if (/^=function |^=__esmRan/.test(out.slice(use.index + init.length, use.index + init.length + 10))) continue
      if (!after.startsWith('()') || !/^[;},]/.test(after.slice(2)) || !/[;{}(,]$/.test(before)) throw new Error(`bundle-cli: ${init} used as ${JSON.stringify(out.slice(use.index - 20, use.index + init.length + 10))}, not as a call whose answer is dropped`)
    }
  }
  return out.replace(ESM_HELPER, 'var __esmRan=()=>{};')
}
writeFileSync(bundleFile, esmInitsAsFunctions(readFileSync(bundleFile, 'latin1')), 'latin1')
for (const file of readdirSync(dist)) if (file.endsWith('.chunk.cjs')) rmSync(`${dist}${file}`)
for (const [name, contents] of Object.entries(CHUNKS)) {
  await build({
    stdin: { contents, resolveDir: ROOT, loader: 'js', sourcefile: `${name}-chunk.js` },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: `${dist}${name}.chunk.cjs`,
    plugins: [bodyParserOnFirstUse, mimeTypesOnFirstUse, qsOnFirstUse, builtinsOnFirstUse],
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    logLevel: 'warning',
  })
}

/**
 * What the shipped code cache is made from, and the probe below runs too: the CLI's start (`main()`),
 * then a library sandbox and what a test sends first (the health check, its wallets, a payment).
 * `bundle` is a loadBundle() answer; the steps leave `sandbox` defined.
 */
const FIRST_STEPS = `
await bundle.exports.main(['node', 'wallet-sandbox', '--host', '127.0.0.1', '--port', '0', '--quiet'])
const sandbox = await bundle.exports.startSandbox({ host: '127.0.0.1', port: 0 })
const send = async (path, init = {}) => {
  const answer = await fetch(sandbox.baseUrl + path, { ...init, headers: { authorization: 'Bearer ' + sandbox.apiKey, 'content-type': 'application/json' } })
  if (!answer.ok) throw new Error('bundle-cli: ' + path + ' answered ' + answer.status)
  return answer.json()
}
await send('/_sandbox/health')
const wallets = await send('/v1/wallets?limit=100')
const source = wallets.data.find((wallet) => wallet.type === 'institutional' && wallet.network === 'polygon' && wallet.currency === 'USDC')
const payment = { amount: '0.000001', currency: 'USDC', source_wallet: source.id, recipient: '0x000000000000000000000000000000000000dEaD' }
await send('/v1/payments', { method: 'POST', body: JSON.stringify(payment) })
`

// The probe: a copy of the bundle that records each module function as it first runs, put through
// FIRST_STEPS; the modules it did not see run are declared in functions of their own
// (scripts/bundle-groups.mjs says why and how).
const probeFile = `${dist}cli.bundle.probe.cjs`
const ranFile = `${dist}cli.bundle.probe.json`
const unprobed = readFileSync(bundleFile, 'latin1')
writeFileSync(probeFile, unprobed.replace(/(init_[\w$]+)=__esmRan;/g, (marked, init) => `${marked}(globalThis.__bundleRan??=[]).push(${JSON.stringify(init)});`), 'latin1')
try {
  execFileSync(process.execPath, ['--input-type=module', '-e', `
import { writeFileSync } from 'node:fs'
import { loadBundle } from ${JSON.stringify(pathToFileURL(`${dist}code-cache.js`).href)}
const bundle = loadBundle(${JSON.stringify(probeFile)}, [])
${FIRST_STEPS}
writeFileSync(${JSON.stringify(ranFile)}, JSON.stringify(globalThis.__bundleRan))
process.exit(0)
`], { stdio: 'inherit' })
  const { text } = groupNeverRunModules(unprobed, new Set(JSON.parse(readFileSync(ranFile, 'utf8'))))
  writeFileSync(bundleFile, text, 'latin1')
} finally {
  rmSync(probeFile, { force: true })
  rmSync(ranFile, { force: true })
}

// loadBundle() reads the bundle as latin1 when it is ASCII, which is what esbuild writes by default,
// and compiles it as it is when it is already wrapped as Node wraps a CommonJS module (a start then
// makes no copy of it with the wrapper around). The chunks alike.
const { BUNDLE_WRAPPER, loadBundle } = await import(pathToFileURL(`${dist}code-cache.js`).href)
for (const file of [bundleFile, ...Object.keys(CHUNKS).map((name) => `${dist}${name}.chunk.cjs`)]) {
  const bundled = readFileSync(file)
  if (!isAscii(bundled)) throw new Error(`bundle-cli: ${file} is not ASCII`)
  writeFileSync(file, `${BUNDLE_WRAPPER[0]}${bundled.toString('latin1')}${BUNDLE_WRAPPER[1]}`, 'latin1')
}

// loadBundle() as CommonJS as well, for the library's require() entry and the CLI's bin (tsc makes
// dist/code-cache.js, an ES module). node's CommonJS loader compiles this file without a code cache
// on every start: so its exports are one plain object, where esbuild's CommonJS output of an ES
// module defines a getter for each through helpers (__export, __copyProps, __toCommonJS) that V8
// compiled at every start, and its whitespace is minified (the names stay, for stack traces).
const LOADER_EXPORTS = ['BUNDLE_WRAPPER', 'loadBundle', 'loadSandboxBundle', 'loadSandboxLibrary']
await build({
  stdin: {
    contents: `import { ${LOADER_EXPORTS.join(', ')} } from './src/code-cache.ts'\nmodule.exports = { ${LOADER_EXPORTS.join(', ')} }\n`,
    resolveDir: ROOT,
    loader: 'ts',
    sourcefile: 'code-cache-entry.ts',
  },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outfile: `${dist}code-cache.cjs`,
  banner: { js: "'use strict';" },
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
})
if (/__toCommonJS|__export\(/.test(readFileSync(`${dist}code-cache.cjs`, 'latin1'))) throw new Error('bundle-cli: dist/code-cache.cjs should export one plain object')

/**
 * The library's entries: the bundle's exports less the command line's `main`, for require() and for
 * import, both from loadSandboxLibrary() (src/code-cache.ts), which keeps one instance a process, so
 * `instanceof ConfigError` holds whichever way a suite loaded the package. dist/library.mjs carries
 * the loader itself (src/code-cache.ts as an ES module, its names listed from the bundle): requiring
 * dist/library.cjs from it, as until round 7 of issue 33, took an import through node's CommonJS
 * loader for that file and dist/code-cache.cjs. Importing a CommonJS file is worse still: node's
 * translator first parses it for the names it exports.
 */
const { main: _cli, ...library } = loadBundle(bundleFile, []).exports
// dist/library.cjs carries the loader too: its require('./code-cache.cjs') was a second trip through
// node's CommonJS loader, whose resolution of any request from a file inside a package first reads
// the package's package.json for a self-reference (trySelf): 31 KB of young allocation and
// instructions before the first answer, which a bare server never spends (issue 33, round 10).
await build({
  stdin: {
    contents: `import { loadSandboxLibrary } from './src/code-cache.ts'\nmodule.exports = loadSandboxLibrary(__dirname)\n`,
    resolveDir: ROOT,
    loader: 'ts',
    sourcefile: 'library-entry.cjs.ts',
  },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outfile: `${dist}library.cjs`,
  banner: { js: `'use strict';\n// The library's entry for require() (package.json "exports"): dist/cli.bundle.cjs through its V8 code\n// cache, src/code-cache.ts bundled in (as in dist/code-cache.cjs). Written by scripts/bundle-cli.mjs.` },
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
})
if (/__toCommonJS|__export\(|require\("\.\//.test(readFileSync(`${dist}library.cjs`, 'latin1'))) throw new Error('bundle-cli: dist/library.cjs should set module.exports itself and require no file of its own')
await build({
  stdin: {
    contents: `import { loadSandboxLibrary } from './src/code-cache.ts'
export const { ${Object.keys(library).sort().join(', ')} } = loadSandboxLibrary(import.meta.dirname)
`,
    resolveDir: ROOT,
    loader: 'ts',
    sourcefile: 'library-entry.ts',
  },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: `${dist}library.mjs`,
  // An ES module has no require(): the loader makes one with node:module (src/code-cache.ts, requireFrom).
  define: { require: 'undefined' },
  banner: { js: `// The library's entry for import (package.json "exports"): dist/cli.bundle.cjs through its V8 code\n// cache, src/code-cache.ts bundled in. Written by scripts/bundle-cli.mjs.` },
  // An ES module has no code cache in node 20: every import parses this file. Its whitespace minified
  // (the names stay, for stack traces), as dist/library.cjs's: 7.5 -> 6.0 KB to parse (issue 33, round 11).
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
})
if (!/(^|[;}])export ?\{/m.test(readFileSync(`${dist}library.mjs`, 'latin1')) || /(^|[;}])import[ {*"]/m.test(readFileSync(`${dist}library.mjs`, 'latin1'))) throw new Error('bundle-cli: dist/library.mjs should export the library and import nothing')

/**
 * The loader's files have no code cache: dist/library.mjs is an ES module (node 20 caches none) and
 * node's CommonJS loader compiles dist/library.cjs and dist/code-cache.cjs without one. So each of
 * their functions that a start calls (9 of the 10 declared at their top level) was parsed twice, once with the file and again,
 * with a lazy compile of its own, at its first call. V8 compiles a function that a parenthesis
 * opens along with the code around it (its guess at a function called at once): each top-level
 * `function f(…) {…}` of theirs becomes `var f=(function f(…) {…});`. A library start, the health
 * asked from another process: compiling the ES modules 1.15 -> 2.01 M instructions, lazy compiles
 * 53.3-54.2 -> 51.8-51.9 M, the whole start 180.4-181.5 -> 179.7-180.3 M (3 rounds each, in turns);
 * through require() 175.3 -> 174.6 M, the CLI's 182.4 -> 181.9 M (issue 33, round 11).
 * Their other top-level statements run before anything calls one of those functions (checked here:
 * none names one before its declaration), so the functions not being hoisted any more changes nothing.
 */
function compiledWithTheFile(file) {
  const text = readFileSync(file, 'latin1')
  const tree = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS)
  const declared = tree.statements.filter((statement) => ts.isFunctionDeclaration(statement) && statement.name && statement.body)
  // `export function f` cannot become `var f=(…)` as it stands: esbuild writes these files' exports as one `export {…}`.
  const exported = declared.find((statement) => statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword || modifier.kind === ts.SyntaxKind.DefaultKeyword))
  if (exported) throw new Error(`bundle-cli: ${file} exports ${exported.name.text} at its declaration, which compiledWithTheFile cannot wrap`)
  const names = new Set(declared.map((statement) => statement.name.text))
  const seen = new Set()
  for (const statement of tree.statements) {
    if (ts.isFunctionDeclaration(statement)) {
      seen.add(statement.name?.text)
      continue
    }
    const visit = (node) => {
      if (ts.isFunctionLike(node)) return
      if (ts.isIdentifier(node) && names.has(node.text) && !seen.has(node.text)) throw new Error(`bundle-cli: ${file} names ${node.text} before its declaration`)
      ts.forEachChild(node, visit)
    }
    visit(statement)
  }
  let out = ''
  let at = 0
  for (const statement of declared) {
    const start = statement.getStart(tree)
    out += `${text.slice(at, start)}var ${statement.name.text}=(${text.slice(start, statement.end)});`
    at = statement.end
  }
  writeFileSync(file, out + text.slice(at), 'latin1')
}
for (const file of ['code-cache.cjs', 'library.cjs', 'library.mjs']) compiledWithTheFile(`${dist}${file}`)

// The shipped code cache: start the CLI once through the bundle, as bin/wallet-sandbox.js does, then
// send what a test sends first (the health check, its wallets, a payment) to a library sandbox in
// the same process, and write the cache: it then holds the start-up code and the first requests'
// (the request pipeline, the route groups they load), which V8 would otherwise compile while the
// first requests wait (issue 33, docs/benchmarks.md).
for (const file of readdirSync(dist)) if (file.endsWith('.v8cache')) rmSync(`${dist}${file}`)
const makeCache = `
import { loadBundle } from ${JSON.stringify(pathToFileURL(`${dist}code-cache.js`).href)}
const bundle = loadBundle(${JSON.stringify(bundleFile)}, [${JSON.stringify(dist)}], { settledMs: Infinity }) // no checksum remembered in dist/: it would ship
${FIRST_STEPS}
bundle.saveCache()
// The chunks a test's first requests do not load get caches of their own, not added to the bundle's
// (saved above): express (a 404), faker (an account of another key), ws (a stream client), commander
// (a command line that main() leaves to it: here a flag given twice, which starts a second CLI sandbox).
await bundle.exports.main(['node', 'wallet-sandbox', '--host', '127.0.0.1', '--port', '0', '--quiet', '--quiet'])
const notFound = await fetch(sandbox.baseUrl + '/no-such-path', { headers: { authorization: 'Bearer ' + sandbox.apiKey } })
if (notFound.status !== 404) throw new Error('bundle-cli: /no-such-path answered ' + notFound.status)
const other = await fetch(sandbox.baseUrl + '/v1/wallets', { headers: { authorization: 'Bearer sk_test_bundle_cli_other' } })
if (!other.ok) throw new Error('bundle-cli: the wallets of another key answered ' + other.status)
const { WebSocket } = await import('ws')
await new Promise((opened, failed) => {
  const client = new WebSocket(sandbox.baseUrl.replace(/^http/, 'ws') + '/v1/stream', { headers: { authorization: 'Bearer ' + sandbox.apiKey } })
  client.on('open', () => client.close())
  client.on('close', opened)
  client.on('error', failed)
})
bundle.saveCache()
await sandbox.close()
process.kill(process.pid, 'SIGTERM') // the CLI's own clean stop
`
execFileSync(process.execPath, ['--input-type=module', '-e', makeCache], { stdio: 'inherit' })
for (const name of ['cli.bundle', ...Object.keys(CHUNKS).map((chunk) => `${chunk}.chunk`)]) {
  if (!readdirSync(dist).some((file) => file.startsWith(`${name}.cjs.`) && file.endsWith('.v8cache'))) throw new Error(`bundle-cli: no code cache for ${name}.cjs was written to dist/`)
}
