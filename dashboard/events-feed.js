// The Events view's reader. GET /_sandbox/events answers oldest first and reads on with `after`, so
// the feed reads the selected events once from the start of the log, keeping the newest KEPT, then
// long-polls (`wait`) for what comes after the last id it holds: a new event shows as soon as it is
// logged. When the log no longer holds that id (a reset emptied it, or it let the event go), the
// feed reads from the start again.

import { controlEnvelope, TokenRequired } from './api.js'

/** The newest events kept and shown: the log holds up to 10,000 per account (--event-log-limit). */
export const KEPT = 100
/** The route's largest page: reading 10,000 events from the start takes 100 requests. */
const PAGE_LIMIT = 100
/** A long poll's wait; also the longest a reset made elsewhere, with no event after it, goes unseen. */
const WAIT_MS = 10_000
const RETRY_MS = 2000

const emptyLog = (key) => ({ key, events: [], cursor: undefined, seen: 0, dropped: 0, caughtUp: false })

function pathOf({ accountId, type }, after, wait) {
  const query = new URLSearchParams({ account_id: accountId, limit: String(PAGE_LIMIT) })
  if (type !== '*') query.set('type', type)
  if (after !== undefined) query.set('after', after)
  if (wait > 0) query.set('wait', String(wait))
  return `/events?${query}`
}

const pause = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true })
  })

/** Adds one answer (oldest first) to `log`; true when what is shown changed. */
function take(log, answer) {
  const changed = answer.data.length > 0 || answer.dropped !== log.dropped
  log.events = log.events.concat(answer.data).slice(-KEPT)
  log.seen += answer.data.length
  log.dropped = answer.dropped
  if (answer.data.length > 0) log.cursor = answer.data.at(-1).id
  return changed
}

/**
 * `onChange({ events, seen, dropped, state, error })`: the kept events newest first, how many events
 * of the selection were read in all, the account's dropped count, the state, and the last read's
 * error until a read succeeds (a live feed tries again every RETRY_MS). The state is `reading`,
 * `live` or `paused`, or, while a live feed's reads fail, `lost` when the sandbox did not answer at
 * all (stopped, restarting) and `retrying` when it answered with an error: live only while it reads.
 * `onTokenRequired(error)`: the control API wants a token; the feed stops.
 */
export function createEventFeed({ onChange, onTokenRequired }) {
  /** What is shown: the events of one selection (`key`). */
  let log = emptyLog(undefined)
  /** The reading under way: `{ key, selection, live, reading, controller }`, or undefined. */
  let run
  let error

  function stateOf() {
    if (run === undefined) return 'paused'
    if (error !== undefined && run.live) return error.code === 'no_answer' ? 'lost' : 'retrying'
    return run.reading ? 'reading' : run.live ? 'live' : 'paused'
  }
  const publish = () => onChange({ events: [...log.events].reverse(), seen: log.seen, dropped: log.dropped, state: stateOf(), error })

  function end(current) {
    if (run !== current) return
    current.controller.abort()
    run = undefined
    publish()
  }

  /** Reads until stopped (live) or until caught up; `building` becomes what is shown once caught up. */
  async function follow(current, building) {
    const { signal } = current.controller
    while (!signal.aborted) {
      try {
        const wait = building.caughtUp && current.live ? WAIT_MS : 0
        const answer = await controlEnvelope(pathOf(current.selection, building.cursor, wait), { signal })
        if (signal.aborted) return
        const changed = take(building, answer) || error !== undefined
        error = undefined
        if (answer.has_more) continue
        if (!building.caughtUp) {
          building.caughtUp = true
          log = building
          current.reading = false
          publish()
        } else if (changed) publish()
        if (!current.live) return end(current)
      } catch (failure) {
        if (signal.aborted) return
        if (failure.param === 'after' && building.cursor !== undefined) {
          building = emptyLog(current.key) // shown until the new reading has caught up
          continue
        }
        if (failure instanceof TokenRequired) {
          onTokenRequired(failure)
          return end(current)
        }
        error = failure
        publish()
        if (!current.live) return end(current)
        // No answer at all: the sandbox may come back as another one (restarted: its log new, its ids
        // the same again), so once it answers the selection is read from the start, the rows shown
        // staying until then; a read from the start does not wait, so the view is live again at once.
        if (failure.code === 'no_answer') building = emptyLog(current.key)
        await pause(RETRY_MS, signal)
      }
    }
  }

  return {
    /**
     * Shows `selection` (`{ accountId, type }`): `live` follows it until stop(), otherwise it is read
     * once. `fresh` reads it from the start of the log again, the rows shown staying until then.
     */
    read(selection, { live, fresh = false }) {
      const key = `${selection.accountId} ${selection.type}`
      if (run && run.key === key && run.live === live && !fresh) return
      run?.controller.abort()
      if (log.key !== key) {
        log = emptyLog(key) // another account or type: its rows go at once, and the error about them
        error = undefined
      }
      const building = fresh ? emptyLog(key) : log
      const current = (run = { key, selection, live, reading: !building.caughtUp, controller: new AbortController() })
      publish()
      void follow(current, building)
    },
    /** Stops reading (the open long poll is aborted); the rows shown stay. */
    stop() {
      if (run) end(run)
    },
    get live() {
      return run?.live === true
    },
  }
}
