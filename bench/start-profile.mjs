// Where a cold start's milliseconds go: starts a server STARTS times under `node --cpu-prof`, each
// until its first answered health request, and splits the profiles' samples into the phases of a
// start (docs/benchmarks.md, "Where a cold start's time goes"). Not part of `npm run bench`: a
// profiled start is slower than a real one; read the shares, not the milliseconds.
//
//   node bench/start-profile.mjs                    # the CLI (bin/wallet-sandbox.js --quiet)
//   node bench/start-profile.mjs --library          # import { startSandbox } from 'wallet-sandbox', then one start
//   node bench/start-profile.mjs --bare             # the floor: a bare node:http server
//   node bench/start-profile.mjs --modules 25       # also the 25 costliest modules' own top level
//   STARTS=20 node bench/start-profile.mjs          # more starts (default 10)
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FIXTURE, SANDBOX_BIN, fixed, freePort, printTable, spawnNode, stop, waitUntilAnswering } from './lib.mjs'

const STARTS = Number(process.env.STARTS ?? 10)
const library = process.argv.includes('--library')
const bare = process.argv.includes('--bare')
const modulesShown = process.argv.includes('--modules') ? Number(process.argv[process.argv.indexOf('--modules') + 1]) : 0
const INTERVAL_US = 200
const script = bare ? FIXTURE('node-http.mjs') : library ? FIXTURE('library-start.mjs') : SANDBOX_BIN
const args = library || bare ? [] : ['--quiet']

/**
 * The phases, tried in order on each sample's stack (innermost frame first): the first whose test
 * matches a frame names the sample. Garbage collection and V8's own work ("(program)") have no stack:
 * they count for the phase of the sample before them.
 */
const PHASES = [
  ['serving the health polls and stopping (left out)', (f) => (/^(stop|close|listener|answerClientErrors)$/.test(f.functionName) && isOurs(f)) || /parserOnIncoming|connectionListener/.test(f.functionName)],
  ['createSandbox: seeding the default account', (f) => /^(ensureDefault|seedAccount)$/.test(f.functionName)],
  ['createSandbox: fixtures and prices', (f) => /^(loadFixtures|readPriceFixture|createPriceModel|createTradingPairs)$/.test(f.functionName)],
  ['createSandbox: routes, app and OpenAPI', (f) => /^(createApp|openApiRoute)$/.test(f.functionName)],
  ['listening', (f) => f.functionName === 'listen' && isOurs(f)],
  ['createSandbox: the rest', (f) => f.functionName === 'createSandbox'],
  ['parsing the command line and config', (f) => /^(parseAsync|buildProgram|loadConfig|startSandbox)$/.test(f.functionName) && isOurs(f)],
  ['evaluating: zod schemas (src/schemas, config, routes)', (f) => /^src\/(schemas|api|config|control\/.*-schema)/.test(moduleOf(f) ?? '')],
  ['evaluating: zod itself', (f) => /node_modules\/zod\//.test(moduleOf(f) ?? '')],
  ['evaluating: express and its dependencies', (f) => /node_modules\/(express|router|body-parser|send|serve-static|finalhandler|accepts|type-is|mime|qs|debug|depd|http-errors|side-channel|get-intrinsic|call-bind|es-|gopd|has-|dunder|function-bind|math-intrinsics|statuses|content-|cookie|encodeurl|escape-html|etag|fresh|merge-descriptors|on-finished|parseurl|path-to-regexp|proxy-addr|range-parser|vary|ipaddr|forwarded|negotiator|media-typer|ee-first|unpipe|bytes|raw-body|iconv|safer-buffer|setprototypeof|inherits|toidentifier|once|wrappy|ms|object-inspect)/.test(moduleOf(f) ?? '')],
  ['evaluating: faker', (f) => /faker/.test(moduleOf(f) ?? '')],
  ['evaluating: other modules', (f) => moduleOf(f) !== undefined],
  ["evaluating: the bundle's top level (module wrappers, zod's core)", (f) => /\.bundle\.c?js$/.test(f.url) && f.lineNumber === 0 && f.functionName === ''],
  ['node: loading built-in modules', (f) => /^(compileForInternalLoader|requireBuiltin|loadBuiltinModule)$/.test(f.functionName)],
  ['compiling the bundle (reading the code cache)', (f) => f.functionName === 'Script' && f.url === 'node:vm'],
  ['reading and hashing the bundle', (f) => f.functionName === 'loadBundle'],
  ['loading modules (ES module loader, tsc output)', (f) => /esm\/|cjs\/loader|modules\//.test(f.url)],
  ['node: its own start', () => true],
]
const LEFT_OUT = PHASES[0][0]

/** esbuild names a bundled module's wrapper after its path; tsc output is a file per module. */
function moduleOf(frame) {
  const name = frame.functionName
  if (/^(src\/|\.\.\/|node_modules\/|faker-)/.test(name) && /\.(m?[jt]s|cjs|json)$|faker-en-person/.test(name)) return name.replace(/^.*node_modules\//, 'node_modules/')
  // The bundle names a module's function after its path, `src/a-b.ts` as `src$a_b$ts` (scripts/bundle-cli.mjs, esmInitsAsFunctions).
  if (/^(src|node_modules|faker_)[\w$]*\$((m?[jt]s|cjs|json)|faker_en_person)$/.test(name)) return name.replace(/\$(?=(m?[jt]s|cjs|json)$)/, '.').replace(/\$\$/g, '/@').replace(/\$/g, '/').replace(/_/g, '-').replace(/^node-modules\//, 'node_modules/')
  const match = /\/(dist\/.*|node_modules\/.*)\.c?js$/.exec(frame.url)
  // The bundle and the entries that load it (the library's, code-cache) are loaders, not modules evaluated.
  if (match && frame.functionName === '' && frame.lineNumber === 0 && !/bundle|^dist\/(library|code-cache)$/.test(match[1])) return match[1].replace(/^dist\//, 'src/').replace(/^.*node_modules\//, 'node_modules/')
  return undefined
}
const isOurs = (frame) => /dist\//.test(frame.url)

async function profiledStart(dir) {
  const port = await freePort()
  const child = spawnNode(script, ['--port', String(port), ...args], ['--cpu-prof', '--cpu-prof-interval', String(INTERVAL_US), '--cpu-prof-dir', dir])
  try {
    await waitUntilAnswering(child, port, bare ? '/' : '/_sandbox/health', { intervalMs: 2 })
  } finally {
    await stop(child)
  }
}

function classify(profile, totals, modules) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
  const parents = new Map()
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id)
  let previous = 'node: its own start'
  for (let i = 0; i < profile.samples.length; i++) {
    // A sample's time is wall-clock time: a process that waited for a core (a busy machine) shows one
    // sample of many ms. Each counts for at most two sampling intervals.
    const ms = Math.min(profile.timeDeltas[i + 1] ?? 0, 2 * INTERVAL_US) / 1000
    const leaf = nodes.get(profile.samples[i])
    const name = leaf.callFrame.functionName
    if (name === '(idle)') continue
    let phase = previous
    if (name !== '(garbage collector)' && name !== '(program)') {
      const stack = []
      for (let id = leaf.id; id !== undefined; id = parents.get(id)) stack.push(nodes.get(id).callFrame)
      phase = PHASES.find(([, test]) => stack.some(test))[0]
      const module = stack.map(moduleOf).find(Boolean)
      if (module && phase.startsWith('evaluating')) modules.set(module, (modules.get(module) ?? 0) + ms)
    }
    previous = phase
    totals.set(phase, (totals.get(phase) ?? 0) + ms)
  }
}

const dir = mkdtempSync(join(tmpdir(), 'start-profile-'))
try {
  for (let i = 0; i < STARTS; i++) await profiledStart(dir)
  const totals = new Map()
  const modules = new Map()
  const files = readdirSync(dir).filter((file) => file.endsWith('.cpuprofile'))
  for (const file of files) classify(JSON.parse(readFileSync(join(dir, file), 'utf8')), totals, modules)
  const counted = [...totals].filter(([phase]) => phase !== LEFT_OUT)
  const sum = counted.reduce((total, [, ms]) => total + ms, 0)
  printTable(
    `Where a ${bare ? 'bare node:http server start' : library ? 'library import and first startSandbox()' : 'CLI cold start'}'s CPU goes (${files.length} profiled starts, node ${process.version}; mean ms per start, profiler on)`,
    ['phase', 'ms', 'share'],
    [...counted.sort((a, b) => b[1] - a[1]).map(([phase, ms]) => [phase, fixed(ms / files.length, 1), `${((100 * ms) / sum).toFixed(0)} %`]), ['total (profiled, until the first answer)', fixed(sum / files.length, 1), '100 %']],
  )
  if (modulesShown > 0) {
    printTable(
      'The costliest modules to evaluate (their own top level, the schemas they build included; mean ms per start)',
      ['module', 'ms'],
      [...modules].sort((a, b) => b[1] - a[1]).slice(0, modulesShown).map(([module, ms]) => [module, fixed(ms / files.length, 1)]),
    )
  }
} finally {
  if (process.env.KEEP_PROFILES) console.log(`profiles kept in ${dir}`)
  else rmSync(dir, { recursive: true, force: true })
}
