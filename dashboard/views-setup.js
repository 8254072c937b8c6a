// What an account has set up, and what came of it: webhook endpoints, their deliveries, the whitelist.

import { badge, byId, el, fillTable, mono } from './dom.js'

export function renderEndpoints(page) {
  const rows = page.items.map((endpoint) =>
    el('tr', { dataset: { id: endpoint.id } },
      mono(endpoint.created_at),
      mono(endpoint.id),
      mono(endpoint.url, { dataset: { field: 'url' } }),
      el('td', { title: endpoint.events.join(', ') }, `${endpoint.events.length} event type${endpoint.events.length === 1 ? '' : 's'}`),
      el('td', {}, badge(endpoint.status)),
      el('td', {}, endpoint.description ?? ''),
    ),
  )
  fillTable(byId('endpoints'), rows, 'No webhook endpoints: POST /v1/webhooks adds one.')
}

/** `actions`: `{ redeliver(id, button) }`. */
export function renderDeliveries(page, actions) {
  const rows = page.items.map((delivery) => {
    const last = delivery.attempts.at(-1)
    const answer = last ? (last.response_status !== null ? `HTTP ${last.response_status}` : last.error ?? '') : 'not tried yet'
    return el('tr', { dataset: { id: delivery.id } },
      el('td', { title: delivery.event_id }, delivery.event_type),
      mono(delivery.url),
      el('td', {}, badge(delivery.status)),
      el('td', { class: 'num', dataset: { field: 'attempts' } }, delivery.attempts.length),
      el('td', { title: last?.response_excerpt ?? '' }, answer),
      mono(delivery.next_attempt_at ?? '—'),
      el('td', { class: 'buttons' }, el('button', { type: 'button', onclick: (event) => actions.redeliver(delivery.id, event.currentTarget) }, 'Redeliver')),
    )
  })
  fillTable(byId('deliveries'), rows, 'No webhook deliveries for this account.')
}

/** `account`: the selected account, whose `whitelist_enforced` says whether the list is enforced. */
export function renderWhitelist(page, account) {
  byId('whitelist-enforced').textContent = account.whitelist_enforced
    ? 'Enforced: payments to external addresses not listed here fail with recipient_not_whitelisted.'
    : 'Not enforced for this account (PATCH /_sandbox/accounts/{id} {"whitelist_enforced": true} turns it on).'
  const rows = page.items.map((entry) =>
    el('tr', { dataset: { id: entry.id } },
      mono(entry.created_at),
      mono(entry.id),
      el('td', {}, entry.network),
      mono(entry.address, { dataset: { field: 'address' } }),
      el('td', {}, entry.label ?? ''),
    ),
  )
  fillTable(byId('whitelist'), rows, 'No whitelisted addresses.')
}
