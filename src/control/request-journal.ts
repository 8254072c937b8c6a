import type { Request, Response } from 'express'
import type { RequestJournalEntry } from '../schemas/requests.js'
import { JournalRing } from './journal-ring.js'
import { createRequestCapture } from './request-capture.js'
import { createLongPolls } from '../long-polls.js'

/**
 * `GET /_sandbox/requests` and `POST /_sandbox/requests/expect` (CONTRACT.md sections 10 and 23):
 * per account, the newest `limit` `/v1` requests, answered or not, for a test that wants to know
 * what its client really sent. Requests that name no account the sandbox knows (no key, or an
 * unknown one) have a ring of their own of the same size. In memory only, like the delivery log.
 *
 * Memory stays bounded whatever clients send: each request keeps its bodies to 64 KB and its headers
 * to 8 KB; and once the bodies and headers of every ring together pass BYTE_BUDGET, a new request's
 * bodies are kept to their first 4 KB only (marked `truncated`) until older entries make room.
 */

/**
 * How much of a body the journal keeps (bytes of UTF-8); a longer one is cut and marked `truncated`.
 * Here, not in src/schemas/requests.ts: a value from there would build the journal's schemas at every
 * start (issue 33).
 */
export const JOURNAL_BODY_BYTES = 64 * 1024

/** Bodies and headers the whole journal keeps before new bodies are cut to SHORT_BODY_BYTES. */
export const BYTE_BUDGET = 64 * 1024 * 1024
export const SHORT_BODY_BYTES = 4096

/** Whose requests: an account id, `null` for the requests without an account, `undefined` for every one. */
export type Whose = string | null | undefined

/** A test of the `i`-th oldest entry of a ring. */
export type EntryTest = (ring: JournalRing, i: number) => boolean

export class UnknownRequestError extends Error {}

export interface RequestJournal {
  /** False with `--request-log-limit 0`: nothing is kept. */
  readonly enabled: boolean
  /** Keeps a request once it has been answered (or dropped); `atMs`: its arrival on the sandbox clock. */
  record(req: Request, res: Response, timing: { requestId: string; durationMs: number }, atMs: number): void
  /** The entries of `whose` recorded after the one with id `after` (all without it) that `test` keeps, newest first; `offset` and `limit` pick a page. */
  list(whose: Whose, test: EntryTest, page: { after?: string; offset: number; limit: number }): { items: RequestJournalEntry[]; total: number }
  /**
   * Resolves once a request of `whose` that `test` keeps is recorded, or after `ms` of real time
   * (a manual clock cannot bring a request), or when `abandoned` resolves (the client went away).
   */
  waitFor(whose: Whose, test: EntryTest, ms: number, abandoned: Promise<void>): Promise<void>
  /** Forgets everything, or one account's requests (its reset). */
  clear(accountId?: string): void
  close(): void
}

export interface RequestJournalOptions {
  limit: number
  accountOfKey: (authorization: string) => string | undefined
  /** How far an account's clock is ahead of the sandbox's: a request's `at` is on its account's clock. */
  offsetOf?: (accountId: string) => number
  byteBudget?: number
}

export function createRequestJournal(options: RequestJournalOptions): RequestJournal {
  const { limit, accountOfKey, offsetOf = () => 0, byteBudget = BYTE_BUDGET } = options
  const capture = createRequestCapture()
  const rings = new Map<string, JournalRing>()
  // The ring of requests that name no account, made with the first of them: its columns were 6 KB of
  // a cold start's young allocation before its first answer, which the journal never records (a
  // control request), and most runs send no such request (issue 33, round 10).
  let unowned: JournalRing | undefined
  const polls = createLongPolls<[ring: JournalRing, index: number]>()
  let seq = 0
  /** Bytes of bodies and headers every ring holds. */
  let held = 0

  const ringsOf = (whose: Whose): JournalRing[] => {
    if (whose === null) return unowned ? [unowned] : []
    if (whose !== undefined) return rings.has(whose) ? [rings.get(whose)!] : []
    return unowned ? [...rings.values(), unowned] : [...rings.values()]
  }

  /** The position of the newest entry with this id among `whose`'s rings: its seq. */
  function seqOf(whose: Whose, id: string): number {
    let found = -1
    for (const ring of ringsOf(whose)) {
      const index = ring.lastIndexOf(id)
      if (index !== -1) found = Math.max(found, ring.seqAt(index))
    }
    if (found === -1) throw new UnknownRequestError(id)
    return found
  }

  return {
    enabled: limit > 0,
    record(req, res, timing, atMs) {
      if (limit === 0) return
      const authorization = req.headers.authorization
      const accountId = (res.locals.accountId as string | undefined) ?? (authorization === undefined ? undefined : accountOfKey(authorization)) ?? null
      const captured = capture.capture(req, res, timing, accountId === null ? atMs : atMs + offsetOf(accountId))
      if (captured === undefined) return
      let ring = accountId === null ? (unowned ??= new JournalRing(limit, null)) : rings.get(accountId)
      if (!ring) rings.set(accountId!, (ring = new JournalRing(limit, accountId)))
      const before = ring.bytes
      ring.push(++seq, captured, held > byteBudget ? SHORT_BODY_BYTES : JOURNAL_BODY_BYTES)
      held += ring.bytes - before
      if (polls.size > 0) polls.notify(ring, ring.size - 1)
    },
    list(whose, test, { after, offset, limit: pageLimit }) {
      const from = after === undefined ? 0 : seqOf(whose, after)
      const hits: Array<{ ring: JournalRing; index: number; seq: number }> = []
      for (const ring of ringsOf(whose)) {
        for (let index = ring.firstAfter(from); index < ring.size; index++) if (test(ring, index)) hits.push({ ring, index, seq: ring.seqAt(index) })
      }
      hits.sort((a, b) => b.seq - a.seq)
      return { items: hits.slice(offset, offset + pageLimit).map(({ ring, index }) => ring.entryAt(index)), total: hits.length }
    },
    waitFor: (whose, test, ms, abandoned) => polls.wait((ring, index) => (whose === undefined || whose === ring.accountId) && test(ring, index), ms, abandoned),
    clear(accountId) {
      if (accountId !== undefined) {
        held -= rings.get(accountId)?.bytes ?? 0
        rings.delete(accountId)
        return
      }
      rings.clear()
      unowned = undefined
      held = 0
    },
    close: () => polls.wakeAll(),
  }
}
