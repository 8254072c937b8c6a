// One function per part of the page: each takes the API's data and redraws its part. The lists
// are in views-money.js, views-setup.js and views-sandbox.js.

import { byId, el, fillSelect, fillTable, mono } from './dom.js'

export function renderClock(clock) {
  byId('clock-mode').textContent = clock.mode
  const now = byId('clock-now')
  now.textContent = clock.now
  now.dateTime = clock.now
}

/** The selected account's clock, when it is not the sandbox's (CONTRACT.md section 24). */
export function renderAccountClock(clock) {
  const shown = byId('account-clock')
  shown.hidden = !clock || clock.offset_ms === 0
  if (shown.hidden) return
  const now = byId('account-clock-now')
  now.textContent = clock.now
  now.dateTime = clock.now
  byId('account-clock-offset').textContent = `(${formatOffset(clock.offset_ms)} ahead of the sandbox)`
}

/** 3600000 → "1 h", 90500 → "1 min 30.5 s": how far an account's clock is ahead, for people. */
function formatOffset(ms) {
  const parts = []
  const hours = Math.floor(ms / 3_600_000)
  const minutes = Math.floor((ms % 3_600_000) / 60_000)
  const seconds = (ms % 60_000) / 1000
  if (hours) parts.push(`${hours} h`)
  if (minutes) parts.push(`${minutes} min`)
  if (seconds || parts.length === 0) parts.push(`${seconds} s`)
  return parts.join(' ')
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
