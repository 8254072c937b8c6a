import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { expect, it } from 'vitest'
import { holdAnswersUntilDurable } from '../../src/http/middleware/durable-answers.js'

it('--durability strict: an answer is held until the store says its changes are fsynced', async () => {
  let fsynced!: () => void
  let asked!: () => void
  const durableAsked = new Promise<void>((resolve) => (asked = resolve))
  let pending: Promise<void> | undefined = new Promise<void>((resolve) => (fsynced = resolve))
  const durable = () => (asked(), pending)
  let response!: ServerResponse
  const app = express()
  app.use(holdAnswersUntilDurable(durable))
  app.post('/change', (_req, res) => {
    response = res
    res.status(201).json({ ok: true })
  })
  const server = createServer(app).listen(0)
  await new Promise((resolve) => server.once('listening', resolve))
  try {
    const answer = fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/change`, { method: 'POST' })
    await durableAsked
    expect(response.headersSent).toBe(false)
    pending = undefined
    fsynced()
    const res = await answer
    expect(res.status).toBe(201)
    expect(await res.json()).toEqual({ ok: true })
  } finally {
    server.close()
  }
})
