import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const ROOT = new URL('../../', import.meta.url).pathname

interface Cruised {
  modules: Array<{ source: string; dependencies: Array<{ resolved: string }> }>
  summary: { violations: Array<{ rule: { name: string }; from: string; to: string }> }
}

/** `src/ledger/payments.ts` → `ledger`; files directly in src/ are their own part (`clock.ts`). */
const partOf = (file: string) => file.split('/').slice(1, -1)[0] ?? file.slice('src/'.length)

/** A cycle in a graph given as edges, as the list of its nodes, or undefined. */
function findCycle(edges: Map<string, Set<string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>()
  const path: string[] = []
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === 'done') return undefined
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node]
    state.set(node, 'open')
    path.push(node)
    for (const next of edges.get(node) ?? []) {
      const cycle = visit(next)
      if (cycle) return cycle
    }
    path.pop()
    state.set(node, 'done')
    return undefined
  }
  for (const node of edges.keys()) {
    const cycle = visit(node)
    if (cycle) return cycle
  }
  return undefined
}

describe('the dependency rules (.dependency-cruiser.cjs, docs/architecture.md)', () => {
  // One cruise for both checks: it is the slow part (a few seconds).
  const cruised = promisify(execFile)('npx', ['depcruise', 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], { cwd: ROOT, maxBuffer: 64 << 20 })
    .then(({ stdout }) => JSON.parse(stdout) as Cruised)
    // depcruise exits non-zero when a rule is broken, with the report still on stdout.
    .catch((error: { stdout?: string }) => JSON.parse(error.stdout ?? '{}') as Cruised)

  it('finds no forbidden arrow and no import cycle between files', async () => {
    const { summary } = await cruised
    expect(summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([])
    // The cruise takes seconds alone and far longer on a loaded CI machine; it measures nothing.
  }, 120_000)

  it('finds no cycle between folders', async () => {
    const { modules } = await cruised
    const edges = new Map<string, Set<string>>()
    for (const module of modules.filter((m) => m.source.startsWith('src/'))) {
      for (const { resolved } of module.dependencies.filter((d) => d.resolved.startsWith('src/'))) {
        const [from, to] = [partOf(module.source), partOf(resolved)]
        if (from === to) continue
        if (!edges.has(from)) edges.set(from, new Set())
        edges.get(from)!.add(to)
      }
    }
    expect(edges.size).toBeGreaterThan(5) // the cruise saw the source, not an empty tree
    expect(findCycle(edges)).toBeUndefined()
  })

  it('the folder check sees a cycle when there is one', () => {
    const edges = new Map([['http', new Set(['ledger'])], ['ledger', new Set(['events'])], ['events', new Set(['http'])]])
    expect(findCycle(edges)).toEqual(['http', 'ledger', 'events', 'http'])
  })
})
