import { afterEach, describe, expect, it } from 'vitest'
import { findLedgerViolations } from '../../src/ledger/ledger-check.js'
import { startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'
import { advanceClock, balanceOf, bankDestination, createSettlement, getSettlement, institutionalWallet } from '../helpers/settlements.js'

let sb: TestSandbox
afterEach(async () => {
  for (const account of sb.sandbox.store.accounts.values()) expect(findLedgerViolations(account)).toEqual([])
  await sb.close()
})

describe('settlements', () => {
  it('pays out USDC on polygon to a euro bank account: conversion then transfer, with fees on top', async () => {
    sb = await startTestSandbox({ settle: 'auto' })
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const before = await balanceOf(sb, source.id)
    const { data } = await createSettlement(sb, { source_wallet: source.id, amount: '100.00', destination: bankDestination('USD') })
    expect(data).toMatchObject({ object: 'settlement', status: 'pending', amount: '100.00', source_currency: 'USDC', destination_currency: 'USD' })
    expect(data.steps.map((s: { type: string }) => s.type)).toEqual(['conversion', 'transfer'])
    console.log(JSON.stringify(data, null, 1))
    await advanceClock(sb, 60_000)
    const done = await getSettlement(sb, data.id)
    console.log(JSON.stringify(done, null, 1), before, await balanceOf(sb, source.id))
    expect(done.status).toBe('completed')
  })
})
