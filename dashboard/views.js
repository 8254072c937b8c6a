// One function per part of the page: each takes the API's data and redraws its part.

import { badge, byId, el, fillSelect, fillTable, mono } from './dom.js'

export function renderClock(clock) {
  byId('clock-mode').textContent = clock.mode
  const now = byId('clock-now')
  now.textContent = clock.now
  now.dateTime = clock.now
}

export function renderAccounts(accounts, selectedId) {
  const options = accounts.map((account) => ({ value: account.id, label: `${account.id} · ${account.keys[0]?.key ?? 'no key'}` }))
  fillSelect(byId('account-select'), options, selectedId)
}

export function renderKeys(account) {
  const rows = (account?.keys ?? []).map((key) =>
    el('tr', {}, mono(key.key), el('td', {}, key.type), el('td', {}, key.scopes.join(', ') || '—'), el('td', {}, key.allowed_ips.join(', ') || 'any')),
  )
  fillTable(byId('keys'), rows, 'This account has no keys.')
}

export function renderWallets(wallets) {
  const rows = wallets.map((wallet) =>
    el('tr', { dataset: { id: wallet.id } },
      el('td', {}, wallet.name),
      el('td', {}, wallet.type),
      el('td', {}, wallet.network),
      el('td', { class: 'num', dataset: { field: 'balance' } }, `${wallet.balance} ${wallet.currency}`),
      el('td', {}, badge(wallet.status)),
      mono(wallet.address),
      mono(wallet.id),
    ),
  )
  fillTable(byId('wallets'), rows, 'This account has no wallets.')
  const open = wallets.filter((wallet) => wallet.status !== 'closed')
  fillSelect(byId('deposit-wallet'), open.map((wallet) => ({ value: wallet.id, label: `${wallet.name} · ${wallet.network} ${wallet.currency} · ${wallet.id}` })))
}

/** `actions`: `{ process(id, button), complete(id, button), fail(id, button) }`. */
export function renderPayments(payments, actions) {
  const rows = payments.map((payment) => {
    const open = payment.status === 'pending' || payment.status === 'processing'
    const button = (label, act) => el('button', { type: 'button', onclick: (event) => act(payment.id, event.currentTarget) }, label)
    return el('tr', { dataset: { id: payment.id } },
      mono(payment.created_at),
      mono(payment.id),
      el('td', { class: 'num' }, `${payment.amount} ${payment.currency}`),
      el('td', {}, payment.network),
      el('td', {}, badge(payment.status)),
      mono(payment.destination),
      el('td', { title: payment.failure_message ?? '' }, payment.failure_code ?? ''),
      el('td', { class: 'buttons' },
        payment.status === 'pending' && button('Process', actions.process),
        open && button('Complete', actions.complete),
        open && button('Fail', actions.fail),
      ),
    )
  })
  fillTable(byId('payments'), rows, 'No payments yet.')
}

/** `actions`: `{ retry(id, button) }`. */
export function renderDeliveries(deliveries, actions) {
  const rows = deliveries.map((delivery) => {
    const last = delivery.attempts.at(-1)
    const answer = last ? (last.response_status !== null ? `HTTP ${last.response_status}` : last.error ?? '') : 'not tried yet'
    return el('tr', { dataset: { id: delivery.id } },
      el('td', { title: delivery.event_id }, delivery.event_type),
      mono(delivery.url),
      el('td', {}, badge(delivery.status)),
      el('td', { class: 'num', dataset: { field: 'attempts' } }, delivery.attempts.length),
      el('td', { title: last?.response_excerpt ?? '' }, answer),
      mono(delivery.next_attempt_at ?? '—'),
      el('td', { class: 'buttons' }, el('button', { type: 'button', onclick: (event) => actions.retry(delivery.id, event.currentTarget) }, 'Retry')),
    )
  })
  fillTable(byId('deliveries'), rows, 'No webhook deliveries for this account.')
}
