// The request journal of the account: filtered by the fields GET /_sandbox/requests takes, and a
// click on a row shows what was sent (headers and body) and what was answered, under the row.

import { describeError } from './api.js'
import { byId, el, fillTable, mono } from './dom.js'

/** The filters' inputs are `#requests-<name>`, each sent as the route's parameter of that name. */
const FILTERS = ['method', 'path', 'status', 'idempotency_key']

let shown = { items: [] }
/** The request whose details are open: its id and time (an idempotent replay shares its first request's id). */
let openKey

const keyOf = (entry) => `${entry.id} ${entry.at}`

/** The route's query for the filters: `account_id=…&method=POST…`; `account` comes URI-encoded. */
export function requestsQuery(account) {
  const params = new URLSearchParams({ account_id: byId('requests-whose').value === 'none' ? 'none' : decodeURIComponent(account) })
  for (const name of FILTERS) {
    const value = byId(`requests-${name}`).value.trim()
    if (value !== '') params.set(name, value)
  }
  return params.toString()
}

/** `onChange()` runs when a filter changed (the list goes back to its first page). */
export function wireRequestFilters(onChange) {
  const form = byId('requests-filters')
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    onChange()
  })
  form.addEventListener('change', () => onChange())
}

function toggle(entry) {
  // Selecting text in a row (to copy an id) is not a click on it.
  if (getSelection()?.toString()) return
  openKey = openKey === keyOf(entry) ? undefined : keyOf(entry)
  renderRequests(shown)
}

/** A body as sent, pretty-printed when it is JSON (and was not cut). */
function pretty(body) {
  if (body === null) return '(none)'
  try {
    return JSON.stringify(JSON.parse(body), null, 2)
  } catch {
    return body
  }
}

function detailsRow(entry) {
  const headers = Object.entries(entry.headers).map(([name, value]) => `${name}: ${value}`).join('\n')
  const block = (label, text) => [el('h3', {}, label), el('pre', { 'aria-label': `${label} of ${entry.id}` }, text)]
  return el('tr', { class: 'event-json request-details' }, el('td', { colspan: 8 },
    ...block('Request headers', headers),
    ...block('Request body', pretty(entry.request_body)),
    ...block('Response body', pretty(entry.response_body)),
    entry.truncated ? el('p', { class: 'muted' }, 'Cut: the journal keeps the first 64 KB of a body.') : null,
  ))
}

/** `page` is `{ items, total, error? }`: a filter the route refused shows its error here. */
export function renderRequests(page) {
  shown = page
  const problem = byId('requests-error')
  problem.textContent = page.error ? describeError(page.error) : ''
  problem.hidden = !page.error
  const rows = page.items.map((entry) => {
    const open = keyOf(entry) === openKey
    return el('tr', { dataset: { id: entry.id }, class: open ? 'open' : undefined, onclick: () => toggle(entry) },
      mono(entry.at),
      el('td', {}, entry.method),
      mono(entry.query ? `${entry.path}?${entry.query}` : entry.path, { dataset: { field: 'path' } }),
      el('td', { class: 'num', dataset: { field: 'status' } }, entry.status ?? 'no answer'),
      el('td', { class: 'num' }, `${Math.round(entry.duration_ms)} ms`),
      el('td', {}, [entry.fault, entry.replayed && 'replayed'].filter(Boolean).join(', ')),
      mono(entry.id),
      el('td', { class: 'buttons' }, el('button', { type: 'button', 'aria-expanded': String(open) }, open ? 'Hide' : 'Show')),
    )
  })
  const whose = byId('requests-whose').value === 'none' ? 'without an account' : 'from this account'
  fillTable(byId('requests'), rows, page.error ? 'No requests: see the error above.' : `No /v1 requests ${whose}${FILTERS.some((name) => byId(`requests-${name}`).value.trim()) ? ' match the filters' : ''} yet.`)
  const open = page.items.find((entry) => keyOf(entry) === openKey)
  if (open) byId('requests').querySelector('tr.open').after(detailsRow(open))
}
