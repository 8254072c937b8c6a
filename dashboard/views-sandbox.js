// The sandbox's own levers: outcome rules and faults, both for every account. (The account's request
// journal: views-requests.js.)

import { badge, byId, el, fillTable, mono } from './dom.js'
import { groupThousands } from './format.js'

/** `{network: "polygon", amount_min: "5"}` → `network polygon, amount_min 5`. */
function describeMatch(match, everything) {
  const parts = Object.entries(match).filter(([, value]) => value !== undefined).map(([key, value]) => `${key} ${key.startsWith('amount') ? groupThousands(value) : value}`)
  return parts.length > 0 ? parts.join(', ') : everything
}

const left = (rule) => (rule.times === null ? 'unlimited' : `${rule.remaining} of ${rule.times}`)

export function renderOutcomes(page) {
  const rows = page.items.map((rule) =>
    el('tr', { dataset: { id: rule.id } },
      mono(rule.id),
      el('td', { dataset: { field: 'match' } }, describeMatch(rule.match, 'every payment')),
      el('td', {}, badge(rule.outcome)),
      el('td', {}, rule.failure_code ?? ''),
      el('td', { dataset: { field: 'remaining' } }, left(rule)),
    ),
  )
  fillTable(byId('outcomes'), rows, 'No outcome rules: POST /_sandbox/outcomes adds one.')
}

function describeFault(fault) {
  if (fault.fault === 'error') return `HTTP ${fault.status}`
  if (Array.isArray(fault.latency_ms)) return `${fault.latency_ms[0]}–${fault.latency_ms[1]} ms`
  return fault.latency_ms === null ? '' : `${fault.latency_ms} ms`
}

export function renderFaults(page) {
  const rows = page.items.map((fault) =>
    el('tr', { dataset: { id: fault.id } },
      mono(fault.id),
      el('td', { dataset: { field: 'match' } }, describeMatch(fault.match, 'every /v1 request')),
      el('td', { dataset: { field: 'fault' } }, fault.fault),
      el('td', {}, describeFault(fault)),
      el('td', { class: 'num' }, `${Math.round(fault.probability * 100)} %`),
      el('td', { dataset: { field: 'remaining' } }, left(fault)),
    ),
  )
  fillTable(byId('faults'), rows, 'No faults: POST /_sandbox/faults injects one.')
}
