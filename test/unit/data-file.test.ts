import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStore, StoreLoadError } from '../../src/store/store.js'

let dir: string
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'data-file-'))))
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const write = (content: string) => {
  const file = join(dir, 'ledger.json')
  writeFileSync(file, content)
  return file
}

describe('loading a data file', () => {
  it.each([
    ['null', 'null', 'holds null'],
    ['an array', '[]', 'holds an array'],
    ['a number', '42', 'holds a number'],
    ['a string', '"x"', 'holds a string'],
  ])('refuses valid JSON that is not a ledger object (%s) and leaves the file untouched', async (_name, content, problem) => {
    const file = write(content)
    const opening = openStore({ dataFile: file })
    await expect(opening).rejects.toThrow(StoreLoadError)
    await expect(opening).rejects.toThrow(`Data file ${file} ${problem} where a ledger object`)
    expect(readFileSync(file, 'utf8')).toBe(content)
  })

  it.each([
    ['faults is an object', { faults: {} }, '→ at control.faults'],
    ['faults is a number', { faults: 3 }, '→ at control.faults'],
    ['outcome_rules is false', { outcome_rules: false }, '→ at control.outcome_rules'],
    ['the screening list is not a list', { screening_flagged: 'polygon:0xabc' }, '→ at control.screening_flagged'],
    ['an outcome rule lacks its outcome', { outcome_rules: [{ id: 'rule_1', match: {}, failure_code: null, times: null, remaining: null }] }, '→ at control.outcome_rules[0].outcome'],
    ['an unknown control part', { surprises: [] }, 'surprises'],
  ])('refuses a control part of the wrong shape (%s)', async (_name, control, problem) => {
    const file = write(JSON.stringify({ version: 1, accounts: [], keys: [], control }))
    await expect(openStore({ dataFile: file })).rejects.toThrow(problem)
  })

  it('starts empty from a missing file or one of zero bytes', async () => {
    for (const file of [join(dir, 'missing.json'), write('')]) {
      const { store, loaded } = await openStore({ dataFile: file })
      expect(loaded).toBe(false)
      expect(store.accounts.size).toBe(0)
    }
  })
})
