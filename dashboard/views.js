// One function per part of the page: each takes the API's data and redraws its part. The lists
// are in views-money.js, views-setup.js and views-sandbox.js.

import { byId, el, fillSelect, fillTable, mono } from './dom.js'

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
