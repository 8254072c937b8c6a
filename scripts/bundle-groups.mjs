// The bundle's modules that its first steps never run, each group of them declared inside a function
// of its own, which their first use calls (issue 33, round 12; docs/benchmarks.md). Used by
// scripts/bundle-cli.mjs on the bundle before it is wrapped; test/unit/bundle-groups.test.ts.
//
// Why: at every start, the bundle's top level made a closure for each hoisted function of all its
// modules, run or not, and V8 deserialised their scope's names and the lazy functions' data from the
// code cache. 137 of the 340 modules never run in a start and a test's first requests (the data
// file's store, the OpenAPI document, the command line's commands, the route groups a first payment
// does not ask for). 97 of them move, in 23 groups (see sharedLeftOut for the other 40). Measured
// against the build before, with callgrind, less V8's hash-seed search, 3 rounds:
// - until the first health answer: an import 196.8 -> 195.0 M instructions, a require()
//   172.2 -> 170.4 M, the CLI 180.3 -> 178.7 M;
// - the code cache 543,888 -> 511,616 bytes;
// - first uses, a whole process (start, health, wallets, then the route), 2 runs each: GET
//   /v1/orders 805.9 -> 804.0 M, GET /v1/webhooks 802.4 -> 801.0 M, a clock advance 842.8 ->
//   841.7 M.
// Whole starts in pairs did not resolve it: 0.994, 1.003 and 1.012 in three runs of 60 pairs.
//
// How, and why it needs no linking: esbuild writes each module as its declarations (hoisted
// functions, `var`s) followed by `var …, init_x = function src$x$ts() {…}`, which runs the module's
// statements once, first calling the `init_y()` of each module it imports. So a module that runs
// has run every module it imports: a module that never runs is named only by modules that never run
// either, and those it imports statically belong to its group (the groups are the never-run modules
// joined by static imports). The rest of the bundle reaches a group only through `init_x` (a dynamic
// import is `(init_x(), x_exports)`), and `init_x` and `x_exports` stay at the top level: `init_x`
// as a stub that declares its group, then runs the real `init_x`, which the group assigned to it.
// The statements moved only declare, so running them later changes nothing but when; the group's
// function is sloppy, as the top level is, so its functions stay sloppy; every name keeps its text,
// so stack traces name the same functions. The build checks each of these and fails when one does not hold.
import ts from 'typescript'

const GROUP = '__group'

/**
 * `text`: the unwrapped bundle; `ran`: the `init_x` names its first steps ran. Answers the new text
 * and the groups (their modules' `init_x` names).
 */
export function groupNeverRunModules(text, ran) {
  if (new RegExp(`(?<![\\w$])${GROUP}\\d`).test(text)) throw new Error(`bundle-groups: ${GROUP}<n> is not a fresh identifier`)
  const tree = ts.createSourceFile('cli.bundle.cjs', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS)
  const modules = modulesOf(tree)
  const known = new Set(modules.map((module) => module.init))
  for (const module of modules) {
    for (const imported of module.imports) {
      if (!known.has(imported)) throw new Error(`bundle-groups: ${module.init} calls ${imported}, which is no module's`)
      if (ran.has(module.init) && !ran.has(imported)) throw new Error(`bundle-groups: ${module.init} ran, and ${imported}, which it imports, did not`)
    }
  }
  const never = sharedLeftOut(modules.filter((module) => !ran.has(module.init)), ran)

  // The groups: never-run modules joined by static imports (either way).
  const neighbours = new Map(never.map((module) => [module.init, new Set()]))
  for (const module of never) {
    for (const imported of module.imports) {
      // One that ran, or one left at the top level (sharedLeftOut), is in no group.
      if (!neighbours.has(imported)) continue
      neighbours.get(module.init).add(imported)
      neighbours.get(imported).add(module.init)
    }
  }
  const groupOf = new Map()
  const groups = []
  for (const module of never) {
    if (groupOf.has(module.init)) continue
    const group = { index: groups.length, inits: [] }
    groups.push(group)
    const stack = [module.init]
    groupOf.set(module.init, group)
    while (stack.length > 0) {
      const init = stack.pop()
      for (const next of neighbours.get(init)) if (!groupOf.has(next)) (groupOf.set(next, group), stack.push(next))
    }
  }
  // What moves: every statement of a never-run module but its exports object's (a dynamic import
  // reads it from the top level); its init statement moves as `var <the rest>; init_x = …`.
  const moved = new Map() // statement -> its group
  const declaredIn = new Map() // a moved name -> its group
  for (const module of never) {
    const group = groupOf.get(module.init)
    group.inits.push(module.init)
    for (const statement of module.statements) {
      const names = declarationsOf(statement, text, tree)
      if (names.every(isExportsObject)) continue
      if (names.some(isExportsObject)) throw new Error(`bundle-groups: ${module.init}'s exports object is declared with other names: ${excerpt(text, tree, statement)}`)
      moved.set(statement, group)
      for (const name of names) if (name !== module.init) declaredIn.set(name, group)
    }
  }

  // No name a group declares is used outside it: not by the rest of the bundle, not by another group.
  const visit = (node, group) => {
    if (ts.isIdentifier(node) && isReference(node)) {
      const owner = declaredIn.get(node.text)
      if (owner !== undefined && owner !== group) throw new Error(`bundle-groups: ${node.text}, declared in ${GROUP}${owner.index}, is used outside it: ${excerpt(text, tree, node)}`)
    }
    ts.forEachChild(node, (child) => visit(child, group))
  }
  for (const statement of tree.statements) visit(statement, moved.get(statement))

  // The text: each group's function where its first statement was, each moved init a stub where it was.
  const groupText = new Map(groups.map((group) => [group, []]))
  for (const statement of tree.statements) {
    const group = moved.get(statement)
    if (group !== undefined) groupText.get(group).push(movedText(statement, text, tree))
  }
  let out = ''
  let at = 0
  const written = new Set()
  for (const statement of tree.statements) {
    const group = moved.get(statement)
    if (group === undefined) continue
    out += text.slice(at, statement.getStart(tree))
    at = statement.end
    if (!written.has(group)) {
      written.add(group)
      out += `function ${GROUP}${group.index}(){${GROUP}${group.index}=__esmRan;${groupText.get(group).join('\n')}}\n`
    }
    const init = initDeclarationOf(statement)?.name.text
    if (init !== undefined) out += `var ${init}=function(){return ${GROUP}${group.index}(),${init}()};`
  }
  out += text.slice(at)
  return { text: out, groups: groups.map((group) => ({ inits: group.inits })) }
}

/**
 * The never-run modules less those that join groups: a module that three or more never-run modules
 * import (the schemas the data file, the snapshots and the route groups share), and what it imports,
 * stays at the top level. Without that the 137 never-run modules made one group of 74 modules and
 * 189 KB, whose function the first use of any of them (an order, a webhook, a clock advance)
 * compiled whole: about 2.7 M instructions, what the start saved. With it, 97 modules move, in 23
 * groups of 49 KB at most.
 */
function sharedLeftOut(never, ran) {
  const importers = new Map(never.map((module) => [module.init, 0]))
  for (const module of never) for (const imported of module.imports) if (importers.has(imported)) importers.set(imported, importers.get(imported) + 1)
  const kept = new Set(never.filter((module) => importers.get(module.init) >= 3).map((module) => module.init))
  const byInit = new Map(never.map((module) => [module.init, module]))
  for (const init of kept) for (const imported of byInit.get(init).imports) if (!ran.has(imported)) kept.add(imported)
  return never.filter((module) => !kept.has(module.init))
}

/** Each module: its `init_x`, its statements (its declarations, then its init statement) and the `init_y` it calls. */
function modulesOf(tree) {
  const modules = []
  let statements = []
  for (const statement of tree.statements) {
    const init = initDeclarationOf(statement)
    if (init === undefined) {
      // Declarations wait for their module's init; anything else is the entry's own and stays.
      if (ts.isFunctionDeclaration(statement) || ts.isVariableStatement(statement)) statements.push(statement)
      else statements = []
      continue
    }
    const imports = new Set()
    const calls = (node) => {
      if (ts.isCallExpression(node) && node.arguments.length === 0 && ts.isIdentifier(node.expression) && /^init_[\w$]+$/.test(node.expression.text)) imports.add(node.expression.text)
      if (!ts.isFunctionLike(node)) ts.forEachChild(node, calls)
    }
    init.initializer.body.statements.forEach(calls)
    imports.delete(init.name.text)
    statements.push(statement)
    modules.push({ init: init.name.text, statements, imports })
    statements = []
  }
  return modules
}

function initDeclarationOf(statement) {
  if (!ts.isVariableStatement(statement)) return undefined
  const inits = statement.declarationList.declarations.filter((d) => ts.isIdentifier(d.name) && /^init_[\w$]+$/.test(d.name.text) && d.initializer !== undefined && ts.isFunctionExpression(d.initializer))
  if (inits.length > 1) throw new Error(`bundle-groups: one statement declares ${inits.map((d) => d.name.text).join(' and ')}`)
  return inits[0]
}

/** The names a statement declares; it must only declare (see the header): refused otherwise. */
function declarationsOf(statement, text, tree) {
  if (ts.isFunctionDeclaration(statement) && statement.name !== undefined) return [statement.name.text]
  if (ts.isVariableStatement(statement) && (statement.declarationList.flags & ts.NodeFlags.BlockScoped) === 0) {
    const names = []
    for (const declaration of statement.declarationList.declarations) {
      const value = declaration.initializer
      const declares = value === undefined || ts.isFunctionExpression(value) || ts.isArrowFunction(value) || (ts.isObjectLiteralExpression(value) && value.properties.length === 0) || (ts.isCallExpression(value) && ts.isIdentifier(value.expression) && value.expression.text === '__commonJS')
      if (!ts.isIdentifier(declaration.name) || !declares) throw new Error(`bundle-groups: a statement of a never-run module does more than declare: ${excerpt(text, tree, statement)}`)
      names.push(declaration.name.text)
    }
    return names
  }
  throw new Error(`bundle-groups: a statement of a never-run module does more than declare: ${excerpt(text, tree, statement)}`)
}

/** A moved statement's text; a module's init statement declares its other names and assigns the top level's `init_x`. */
function movedText(statement, text, tree) {
  const init = initDeclarationOf(statement)?.name.text
  if (init === undefined) return text.slice(statement.getStart(tree), statement.end)
  const declarations = statement.declarationList.declarations
  const others = declarations.filter((d) => d.name.text !== init).map((d) => d.getText(tree))
  const own = declarations.find((d) => d.name.text === init)
  return `${others.length > 0 ? `var ${others.join(',')};` : ''}${init}=${own.initializer.getText(tree)};`
}

/** Whether an identifier reads or writes a binding (not a property name, a label or a declaration's own name). */
function isReference(id) {
  const parent = id.parent
  if (ts.isPropertyAccessExpression(parent) && parent.name === id) return false
  if ((ts.isPropertyAssignment(parent) || ts.isMethodDeclaration(parent) || ts.isGetAccessorDeclaration(parent) || ts.isSetAccessorDeclaration(parent) || ts.isPropertyDeclaration(parent)) && parent.name === id) return false
  if (ts.isBindingElement(parent) && parent.propertyName === id) return false
  if ((ts.isLabeledStatement(parent) || ts.isBreakOrContinueStatement(parent)) && parent.label === id) return false
  return true
}

const excerpt = (text, tree, node) => JSON.stringify(text.slice(node.getStart(tree), node.getStart(tree) + 100))

/** esbuild's name for a module's exports object: `x_exports`, `x_exports2` where two modules are x. */
const isExportsObject = (name) => /_exports\d*$/.test(name)
