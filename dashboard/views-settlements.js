// Cross-border settlements, each with its steps drawn as a timeline: one entry per step, in order,
// with its status, when it started and ended, and its hash or reference.

import { badge, byId, el, fillTable, mono } from './dom.js'
import { formatMoney } from './format.js'

const destinationOf = (d) => (d.type === 'wallet' ? d.wallet_id : d.type === 'address' ? `${d.address} (${d.network})` : `${d.rail.toUpperCase()} · ${d.beneficiary.name}`)
const timeOf = (iso) => (iso ? iso.slice(11, 23) : '')

function stepEntry(step) {
  const trace = step.tx_hash ?? step.destination_tx_hash ?? step.source_tx_hash ?? step.reference
  return el('li', { class: `step ${step.status}`, dataset: { step: step.type } },
    el('span', { class: 'step-type' }, step.type), ' ', badge(step.status),
    step.started_at && el('span', { class: 'step-time' }, ` ${timeOf(step.started_at)}`),
    step.completed_at && el('span', { class: 'step-time' }, ` → ${timeOf(step.completed_at)}`),
    step.failure_code && el('span', { class: 'step-failure' }, ` ${step.failure_code}`),
    trace && el('span', { class: 'mono step-trace', title: trace }, ` ${trace.slice(0, 14)}…`),
  )
}

/** `actions`: `{ advance(id, button), fail(id, button) }`. */
export function renderSettlements(page, actions) {
  const rows = page.items.map((s) => {
    const open = (s.status === 'pending' || s.status === 'processing') && !(s.refund && !s.refund.completed_at)
    const button = (label, act) => el('button', { type: 'button', onclick: (event) => act(s.id, event.currentTarget) }, label)
    const refund = s.refund && el('li', { class: 'step refund' }, el('span', { class: 'step-type' }, 'refund'), ' ', badge(s.refund.completed_at ? 'completed' : 'pending'),
      s.refund.completed_at && el('span', { class: 'step-time' }, ` ${timeOf(s.refund.completed_at)}`))
    return el('tr', { dataset: { id: s.id } },
      mono(s.created_at),
      mono(s.id),
      el('td', { class: 'num', dataset: { field: 'total' } }, formatMoney(s.total_debit, s.source_currency)),
      el('td', { class: 'num', dataset: { field: 'destination_amount' } }, formatMoney(s.destination_amount, s.destination_currency)),
      mono(destinationOf(s.destination)),
      el('td', {}, badge(s.status)),
      el('td', {}, el('ol', { class: 'timeline', 'aria-label': `Steps of ${s.id}` }, ...s.steps.map(stepEntry), refund)),
      el('td', { class: 'buttons' }, open && button('Advance', actions.advance), open && button('Fail', actions.fail)),
    )
  })
  fillTable(byId('settlements'), rows, 'No settlements yet.')
}
