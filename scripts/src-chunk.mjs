// The sandbox's own modules that a start and a test's first requests never load, in a chunk of their
// own beside the bundle (dist/later.chunk.cjs), for scripts/bundle-cli.mjs. Why: a start read,
// deserialised and evaluated the whole bundle's top level, and a fifth of it was the command line's
// program and commands (parity, record, the terminal's) and the OpenAPI document, which src loads
// with `import()` only when a command line or a request asks for them (issue 33, round 8).
//
// The chunk shares modules with the bundle (the errors, the ledger, the store, the HTTP helpers), and
// those must stay one instance (module state, classes and `instanceof`): the chunk carries no copy
// of a module the bundle holds, but reaches it through the bundle's `__bundleModules(path)`, which
// evaluates it there (as the bundle's own `import()` would) and answers its exports.
import { relative } from 'node:path'

/** The targets of src's `import()` that the chunk holds, with all they alone import. */
export const LATER_IMPORTS = [
  // The command line's program and commands (parity, record, the terminal's): a plain start reads its flags without them (src/cli/main.ts).
  'src/cli/program.ts',
  // The OpenAPI document's route (the document and the schemas only it describes).
  'src/api/v1/openapi.ts',
]
// Not here, measured (issue 33, round 8): the express app (a 404, HEAD, OPTIONS: a test's first 404 paid
// about 9 ms of CPU more for reading and evaluating the chunk), the data file's store (a start with
// --data would pay the same), and the route groups (a first GET /v1/orders 5 ms more).
export const LATER_CHUNK = 'later'
/** What the bundle exports for the chunk: scripts/bundle-cli.mjs and src/code-cache.ts leave it out of the library. */
export const BUNDLE_MODULES = '__bundleModules'

const SKIP = Symbol('resolving for src-chunk')
const resolveFile = async (build, args) => {
  const target = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: SKIP })
  return target.errors.length === 0 && target.namespace === 'file' && !target.external ? target.path : undefined
}

/** For the bundle: src's `import()` of a module in LATER_IMPORTS answers the chunk's evaluation of it. */
export function laterImportsFromChunk(root) {
  const later = new Set(LATER_IMPORTS)
  return {
    name: 'later-imports-from-chunk',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, async (args) => {
        if (args.kind !== 'dynamic-import' || args.pluginData === SKIP) return undefined
        const path = await resolveFile(build, args)
        const name = path && relative(root, path)
        return name && later.has(name) ? { path: name, namespace: 'later-chunk' } : undefined
      })
      build.onLoad({ filter: /.*/, namespace: 'later-chunk' }, (args) => ({
        loader: 'js',
        contents: `module.exports = require('./${LATER_CHUNK}.chunk.cjs').load(${JSON.stringify(args.path)})`,
      }))
    },
  }
}

/** The chunk's entry: each module of LATER_IMPORTS evaluated when first asked for, as the bundle's `import()` did. */
export const LATER_ENTRY = `const modules = {
${LATER_IMPORTS.map((name) => `  ${JSON.stringify(name)}: () => require(${JSON.stringify(`./${name}`)}),`).join('\n')}
}
export const load = (name) => modules[name]()
`

/**
 * For the chunk: an import of a file the bundle holds (`bundled`, paths relative to `root`) answers the
 * bundle's instance; each such file is added to `shared`.
 */
export function bundledModulesFromBundle(root, bundled, shared) {
  return {
    name: 'bundled-modules-from-bundle',
    setup(build) {
      build.onResolve({ filter: /^\.\/cli\.bundle\.cjs$/ }, (args) => ({ path: args.path, external: true }))
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === SKIP || args.kind === 'entry-point' || args.namespace !== 'file') return undefined
        const path = await resolveFile(build, args)
        const name = path && relative(root, path)
        if (!name || !bundled.has(name)) return undefined
        shared.add(name)
        return { path: name, namespace: 'from-bundle' }
      })
      build.onLoad({ filter: /.*/, namespace: 'from-bundle' }, (args) => ({
        loader: 'js',
        contents: `module.exports = require('./cli.bundle.cjs').${BUNDLE_MODULES}(${JSON.stringify(args.path)})`,
      }))
    },
  }
}

/** The bundle's entry's addition: the modules of `shared` (paths relative to `root`), each evaluated when the chunk first asks. */
export function bundleModulesExport(root, shared) {
  return `const bundleModules = {
${[...shared].sort().map((name) => `  ${JSON.stringify(name)}: () => require(${JSON.stringify(`${root}${name}`)}),`).join('\n')}
}
export const ${BUNDLE_MODULES} = (name) => bundleModules[name]()
`
}

/** The files of a build's metafile (file namespace only), relative to the folder it ran in. */
export const filesOf = (metafile) => new Set(Object.keys(metafile.inputs).filter((input) => !/^[\w-]+:/.test(input)))
