import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { groupNeverRunModules } from '../../scripts/bundle-groups.mjs'

/**
 * scripts/bundle-groups.mjs on bundles written as esbuild and scripts/bundle-cli.mjs write ours:
 * each module's declarations, then `var …, init_x = function src$x$ts() {…}` calling the `init_y` of
 * what it imports; the entry's own statements at the end.
 */
const module = (name: string, { imports = [] as string[], body = '', declarations = '' } = {}) =>
  `${declarations}function ${name}_make(){return "${name}"+[${imports.map((other) => `${other}_make()`).join(',')}].join("")}\n` +
  `var ${name}_exports={};var ${name}_value,init_${name}=function src$${name}$ts(){"use strict";init_${name}=__esmRan;${imports.map((other) => `init_${other}();`).join('')}${name}_value=${name}_make();${name}_exports.value=${name}_value;${body}};\n`

/** A bundle of these modules whose entry exports a loader for each (a dynamic import: `(init_x(), x_exports)`). */
const bundle = (modules: string[], names: string[]) =>
  `var __esmRan=()=>{};\n${modules.join('')}module.exports={${names.map((name) => `${name}:()=>(init_${name}(),${name}_exports).value`).join(',')}};\n`

/** Runs a bundle's text and answers its exports. */
function run(text: string): Record<string, () => string> {
  const context = { module: { exports: {} } }
  runInNewContext(text, context)
  return context.module.exports as Record<string, () => string>
}

describe('groupNeverRunModules', () => {
  // A ran; B and C never ran, C imports B; D never ran and imports nothing.
  const modules = [
    module('a'),
    // The declarations come before the module's init, as esbuild writes them.
    module('b', { declarations: 'function b_helper(){return 1}\n' }),
    module('c', { imports: ['b'] }),
    module('d'),
  ]
  const text = bundle(modules, ['a', 'b', 'c', 'd'])

  it('declares the never-run modules in one function per group of static imports, and answers as before', () => {
    const { text: grouped, groups } = groupNeverRunModules(text, new Set(['init_a']))
    expect(groups.map((group) => group.inits.sort())).toEqual([['init_b', 'init_c'], ['init_d']])
    // Their declarations left the top level; their exports objects and the ran module's did not.
    expect(grouped).toMatch(/function __group0\(\)\{__group0=__esmRan;[^]*function b_helper\(\)/)
    expect(grouped).toMatch(/^var b_exports=\{\};/m)
    expect(grouped.indexOf('function a_make()')).toBeLessThan(grouped.indexOf('function __group0()'))
    const before = run(text)
    const after = run(grouped)
    for (const name of ['c', 'a', 'd', 'b']) expect(after[name]!()).toBe(before[name]!())
    expect(after.c!()).toBe('cb')
  })

  it('leaves a module that three never-run modules import at the top level, with what it imports', () => {
    const shared = [module('s', { imports: ['t'] }), module('t'), module('x', { imports: ['s'] }), module('y', { imports: ['s'] }), module('z', { imports: ['s'] })]
    const sharedText = bundle(shared, ['s', 't', 'x', 'y', 'z'])
    const { text: grouped, groups } = groupNeverRunModules(sharedText, new Set())
    expect(groups.map((group) => group.inits)).toEqual([['init_x'], ['init_y'], ['init_z']])
    // Kept as written: a moved init statement becomes `var s_value;init_s=…` inside its group.
    expect(grouped).toContain("var s_value,init_s=function src$s$ts()")
    expect(grouped).toContain("var t_value,init_t=function src$t$ts()")
    const after = run(grouped)
    expect(['x', 'y', 'z', 's', 't'].map((name) => after[name]!())).toEqual(['xst', 'yst', 'zst', 'st', 't'])
  })

  it('refuses a never-run statement that does more than declare', () => {
    const doing = bundle([module('a'), 'var b_now=Date.now();\n' + module('b')], ['a', 'b'])
    expect(() => groupNeverRunModules(doing, new Set(['init_a']))).toThrow(/does more than declare: "var b_now=Date.now\(\)/)
  })

  it('refuses a name of a group that the rest of the bundle uses', () => {
    const leaking = bundle([module('a', { body: 'b_make;' }), module('b')], ['a', 'b'])
    expect(() => groupNeverRunModules(leaking, new Set(['init_a']))).toThrow(/b_make, declared in __group0, is used outside it/)
  })

  it('refuses a module that ran when one it imports did not', () => {
    expect(() => groupNeverRunModules(text, new Set(['init_a', 'init_c']))).toThrow(/init_c ran, and init_b, which it imports, did not/)
  })

  it('refuses a bundle that already names a __group function', () => {
    expect(() => groupNeverRunModules(`${text}function __group0(){}\n`, new Set(['init_a']))).toThrow(/__group<n> is not a fresh identifier/)
  })
})
