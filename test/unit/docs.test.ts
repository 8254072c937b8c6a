import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildProgram } from '../../src/cli/program.js'
import { shownDefault } from '../../src/cli/shown-defaults.js'
import { CONFIG_KEYS, envName, flagName, type ConfigKey } from '../../src/config.js'

/**
 * README.md is the short way in and docs/ the reference, one page per topic. These checks keep
 * them usable: links and anchors resolve, every page is listed, every flag is documented with the
 * default --help shows. (docs/pending/ holds drafts waiting to be folded in, and is not checked.)
 */

const ROOT = resolve(import.meta.dirname, '../..')
const DOCS = join(ROOT, 'docs')
const PAGES = [join(ROOT, 'README.md'), ...readdirSync(DOCS).filter((name) => name.endsWith('.md')).map((name) => join(DOCS, name))]

/** The text outside code: fenced blocks and inline code spans hold examples, not links. */
const prose = (markdown: string) => markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '')

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, -1, -2 for repeats. */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>()
  const anchors = new Set<string>()
  const withoutFences = readFileSync(file, 'utf8').replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '')
  for (const [, text] of withoutFences.matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const base = text!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').toLowerCase().replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, '').replace(/ /g, '-')
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    anchors.add(count === 0 ? base : `${base}-${count}`)
  }
  return anchors
}

const links = PAGES.flatMap((page) =>
  [...prose(readFileSync(page, 'utf8')).matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)]
    .map(([, target]) => target!)
    .filter((target) => !/^[a-z]+:/i.test(target))
    .map((target) => ({ page: relative(ROOT, page), target })),
)

describe('the documentation', () => {
  it('has links between its pages', () => {
    expect(links.length).toBeGreaterThan(50)
  })

  it.each(links)('$page: $target resolves', ({ page, target }) => {
    const [path, anchor] = target.split('#') as [string, string?]
    const file = path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), decodeURIComponent(path))
    expect(existsSync(file), `${target} names a file that does not exist`).toBe(true)
    if (anchor !== undefined) expect([...anchorsOf(file)], `${target}: no such heading in ${relative(ROOT, file)}`).toContain(anchor)
  })

  it('lists every page of docs/ in docs/README.md', () => {
    const index = readFileSync(join(DOCS, 'README.md'), 'utf8')
    const pages = readdirSync(DOCS).filter((name) => name.endsWith('.md') && name !== 'README.md')
    expect(pages.filter((name) => !index.includes(`](${name})`))).toEqual([])
  })

  it('gives every docs page one title', () => {
    for (const page of PAGES) expect(prose(readFileSync(page, 'utf8')).match(/^# /gm), relative(ROOT, page)).toHaveLength(1)
  })
})

describe('docs/configuration.md', () => {
  const rows = readFileSync(join(DOCS, 'configuration.md'), 'utf8').split('\n').filter((line) => line.startsWith('| `--'))

  it.each(CONFIG_KEYS)('documents %s with its variable and the default --help shows', (key) => {
    const row = rows.find((line) => line.startsWith(`| \`--${flagName(key)}\``) || line.startsWith(`| \`--${flagName(key)} `))
    expect(row, `a row for --${flagName(key)}`).toBeDefined()
    const [, variable, shown] = row!.split(/ (?<!\\)\| /).map((cell) => cell.trim())
    expect(variable).toBe(`\`${envName(key)}\``)
    expect(shown!.replace(/`/g, '')).toBe(shownDefault(key))
  })

  it('documents no flag that does not exist', () => {
    const flags = new Set((CONFIG_KEYS).map((key) => flagName(key)))
    expect(rows.map((row) => /^\| `--([a-z-]+)/.exec(row)![1]).filter((flag) => !flags.has(flag!))).toEqual([])
  })
})

describe('docs/cli.md', () => {
  const page = readFileSync(join(DOCS, 'cli.md'), 'utf8')
  /** Each command's own flags (the settings, which `exec` takes too, are configuration.md's), as `--help` lists them. */
  const flags = buildProgram(async () => {}).commands.flatMap((command) =>
    command.options.filter((option) => !option.hidden && option.long !== undefined && !option.long.startsWith('--no-')).map((option) => ({ command: command.name(), flag: option.long! })),
  )

  it('has the commands\' flags to check', () => {
    expect(flags.map(({ command, flag }) => `${command} ${flag}`)).toEqual(expect.arrayContaining(['tail --json', 'listen --forward-to', 'trigger --set']))
  })

  it.each(flags)('documents $command $flag', ({ command, flag }) => {
    expect(page, `docs/cli.md names ${flag} (of ${command})`).toMatch(new RegExp(`(^|[\\s\`])${flag}([\\s\`=]|$)`, 'm'))
  })
})
