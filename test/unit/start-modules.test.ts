import { build, type Metafile } from 'esbuild'
import { describe, expect, it } from 'vitest'

/**
 * What a start evaluates (issue 33): the bundle runs every module that its entry reaches by static
 * imports, while a dynamic `import()` (a route group's module, src/api/route-table.ts) waits for its
 * first use. Building zod schemas was a third of a cold start's CPU, so no route's schemas may be on
 * a start's path: a value imported from a schemas module (a constant will do) puts them back there.
 */

/** The schemas modules that a start needs: the config's, and what every request's pipeline uses. */
const START_SCHEMAS = ['src/schemas/json-depth.ts', 'src/schemas/messages.ts', 'src/schemas/validate.ts', 'src/schemas/webhook-url.ts']

async function staticallyReached(entry: string): Promise<{ modules: string[]; packages: string[] }> {
  const { metafile } = await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', packages: 'external', write: false, metafile: true, logLevel: 'silent' })
  const inputs: Metafile['inputs'] = metafile.inputs
  const reached = new Set([entry])
  const packages = new Set<string>()
  const queue = [entry]
  for (let module = queue.shift(); module !== undefined; module = queue.shift()) {
    for (const imported of inputs[module]?.imports ?? []) {
      if (imported.kind === 'dynamic-import' || reached.has(imported.path)) continue
      if (imported.external) {
        packages.add(imported.path)
        continue
      }
      reached.add(imported.path)
      queue.push(imported.path)
    }
  }
  return { modules: [...reached].sort(), packages: [...packages].sort() }
}

describe('a start', () => {
  it.each(['src/public.ts', 'src/cli/main.ts'])('from %s evaluates no route schemas, only the config and pipeline ones', async (entry) => {
    const { modules: reached } = await staticallyReached(entry)
    expect(reached.filter((module) => module.startsWith('src/schemas/'))).toEqual(START_SCHEMAS)
    expect(reached.filter((module) => module.startsWith('src/api/'))).toEqual(['src/api/route-table.ts'])
  })

  // express (and the dashboard) wait for the first request that is not for a route object (src/http/express-app.ts).
  it.each(['src/public.ts', 'src/cli/main.ts'])('from %s loads no express', async (entry) => {
    const { packages } = await staticallyReached(entry)
    expect(packages.filter((name) => name === 'express' || name.startsWith('express/'))).toEqual([])
  })
})
