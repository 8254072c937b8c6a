// The Events view: the selected account's events newest first, live, filtered by type; a click on a
// row shows that event's JSON under it. The reading is events-feed.js's; the rows are paged here.

import { describeError } from './api.js'
import { byId, el, fillTable, mono } from './dom.js'
import { createEventFeed, KEPT } from './events-feed.js'
import { EVENT_TYPES } from './event-types.js'
import { groupThousands } from './format.js'
import { createPager } from './pager.js'

const STATES = { reading: 'reading the log…', live: 'live', paused: 'paused', lost: 'lost the sandbox: trying again…', retrying: 'trying again…' }

const objectIdOf = (event) => event.data?.object?.id

/** `onTokenRequired(error)`: the control API wants a token (other errors show in the view). */
export function createEventsView({ onTokenRequired }) {
  let shown = { events: [], seen: 0, dropped: 0, state: 'paused' }
  let accountId
  /** The event whose JSON is open, if any. */
  let openId
  const select = byId('events-type')
  const pager = createPager('events', () => render())
  const feed = createEventFeed({ onChange: (log) => ((shown = log), render()), onTokenRequired })

  select.replaceChildren(...typeChoices().map((group) => el('optgroup', { label: group.label }, group.options.map(({ value, label }) => el('option', { value }, label)))))
  select.addEventListener('change', () => {
    pager.rewind()
    openId = undefined
    if (accountId !== undefined) feed.read(selection(), { live: feed.live })
  })

  const selection = () => ({ accountId, type: select.value })

  function toggle(id) {
    // Selecting text in a row (to copy an id) is not a click on it.
    if (getSelection()?.toString()) return
    openId = openId === id ? undefined : id
    render()
  }

  function eventRow(event) {
    const open = event.id === openId
    return el('tr', { dataset: { id: event.id }, class: open ? 'open' : undefined, onclick: () => toggle(event.id) },
      mono(event.created_at),
      el('td', { dataset: { field: 'type' } }, event.type),
      mono(event.id),
      mono(objectIdOf(event), { dataset: { field: 'object' } }),
      el('td', { class: 'buttons' }, el('button', { type: 'button', 'aria-expanded': String(open) }, open ? 'Hide' : 'Show')),
    )
  }

  const jsonRow = (event) =>
    el('tr', { class: 'event-json' }, el('td', { colspan: 5 }, el('pre', { 'aria-label': `The JSON of ${event.id}` }, JSON.stringify(event, null, 2))))

  function describe({ seen, dropped }) {
    const notes = []
    if (seen > KEPT) notes.push(`The newest ${KEPT} of the ${groupThousands(String(seen))} events read are kept here.`)
    if (dropped > 0) notes.push(`The log has let ${groupThousands(String(dropped))} older events of this account go: it keeps the newest --event-log-limit (default 10,000) per account.`)
    return notes.join(' ')
  }

  function render() {
    const state = byId('events-state')
    state.textContent = STATES[shown.state]
    state.dataset.state = shown.state
    const problem = byId('events-error')
    problem.textContent = shown.error ? describeError(shown.error) : ''
    problem.hidden = !shown.error
    const note = byId('events-note')
    note.textContent = describe(shown)
    note.hidden = note.textContent === ''
    pager.settle(shown.events.length)
    const { limit, offset } = pager.page
    const page = shown.events.slice(offset, offset + limit)
    const empty = shown.state === 'reading' ? 'Reading the event log…' : select.value === '*' ? 'No events yet.' : `No ${select.value} events yet.`
    fillTable(byId('events'), page.map(eventRow), empty)
    const open = page.find((event) => event.id === openId)
    if (open) byId('events').querySelector(`tr.open`).after(jsonRow(open))
    pager.render(page.length)
  }

  return {
    /**
     * Shows the events of account `id`: followed `live`, or read once (auto-refresh off). `fresh`
     * reads the log from its start again (after a reset, or a click on Refresh); the rows stay until then.
     */
    show(id, { live, fresh }) {
      if (id !== accountId) {
        accountId = id
        pager.rewind()
        openId = undefined
      }
      feed.read(selection(), { live, fresh })
    },
    /** The view is left (tab hidden, auto-refresh off, token asked): no more reads until show(). */
    pause: () => feed.stop(),
  }
}

/**
 * The filter's choices, as the route's `type` takes them: `*`, then per resource its `payment.*`
 * and each of its types. `[{ label, options: [{ value, label }] }]`, one group per resource.
 * `event-types.js` is written by the server from its own list, so only types it emits are offered.
 */
function typeChoices() {
  const resources = [...new Set(EVENT_TYPES.map((type) => type.split('.')[0]))]
  return [
    { label: 'All', options: [{ value: '*', label: 'every type' }] },
    ...resources.map((resource) => ({
      label: resource,
      options: [
        { value: `${resource}.*`, label: `${resource}.* (every ${resource} event)` },
        ...EVENT_TYPES.filter((type) => type.startsWith(`${resource}.`)).map((type) => ({ value: type, label: type })),
      ],
    })),
  ]
}
