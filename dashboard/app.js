// The dashboard: reads the sandbox every couple of seconds, redraws what changed, and turns clicks
// into control calls. No data lives in the page; it all comes from the control API under /_sandbox.
// The Events view reads on its own (views-events.js): a long poll while the page is looked at.

import { control, controlToken, describeError, TokenRequired } from './api.js'
import { byId } from './dom.js'
import { createLists } from './lists.js'
import * as views from './views.js'
import { createEventsView } from './views-events.js'

const REFRESH_MS = 2000
const ACCOUNT_KEY = 'wallet-sandbox.account'

const state = {
  accountId: sessionStorage.getItem(ACCOUNT_KEY),
  account: undefined,
  running: false,
  again: false,
  needsToken: false,
  /** The next refresh reads the event log from its start (after a reset, or a click on Refresh). */
  eventsFromStart: false,
  /** What each part of the page shows now, as JSON: a part is redrawn only when its data changed. */
  shown: new Map(),
}

function show(part, data, render) {
  const text = JSON.stringify(data)
  if (state.shown.get(part) === text) return
  state.shown.set(part, text)
  render(data)
}

function say(text, kind = 'info') {
  const message = byId('message')
  message.textContent = text
  message.className = kind
  message.hidden = text === ''
}

function handle(error) {
  if (error instanceof TokenRequired) askForToken(error)
  else say(describeError(error), 'error')
}

/** Events are followed live only while the tab is visible with auto-refresh on, as the lists are refreshed. */
const live = () => byId('auto-refresh').checked && !document.hidden
const events = createEventsView({ onTokenRequired: askForToken })

/** The header's controls that change the sandbox work only once a control read went through. */
function enableControls(enabled) {
  for (const fieldset of document.querySelectorAll('[data-needs-control]')) fieldset.disabled = !enabled
}

function askForToken(error) {
  state.needsToken = true
  events.pause()
  enableControls(false)
  state.shown.clear()
  byId('content').hidden = true
  byId('token-form').hidden = false
  say(error.refused ? error.message : '', 'error')
  byId('token-input').focus()
}

/**
 * One read of everything shown; a refresh asked for while one runs makes it run once more. A read's
 * problem replaces the previous read's and goes away with the next good read; a click's message
 * stays until the next click.
 */
async function refresh() {
  if (state.needsToken) return
  if (state.running) {
    state.again = true
    return
  }
  state.running = true
  let problem = ''
  try {
    const [clock, accounts] = await Promise.all([control('/clock'), control('/accounts')])
    show('clock', clock, views.renderClock)
    const account = accounts.find((candidate) => candidate.id === state.accountId) ?? accounts[0]
    state.account = account
    state.accountId = account?.id
    show('accounts', { accounts, id: account?.id }, (data) => views.renderAccounts(data.accounts, data.id))
    show('keys', account, views.renderKeys)
    show('account-clock', account && (await control(`/clock?account_id=${encodeURIComponent(account.id)}`)), views.renderAccountClock)
    byId('content').hidden = false
    enableControls(true)
    if (account) {
      events.show(account.id, { live: live(), fresh: state.eventsFromStart })
      state.eventsFromStart = false
      await lists.refresh(account, show)
    }
  } catch (error) {
    if (error instanceof TokenRequired) askForToken(error)
    else problem = describeError(error)
  } finally {
    state.running = false
  }
  if (problem !== '') say(problem, 'error stale')
  else if (byId('message').classList.contains('stale')) say('')
  if (state.again) {
    state.again = false
    await refresh()
  }
}

/** Runs one click's control call, says how it went, then reads everything again. */
async function act(button, call, describe) {
  if (button) button.disabled = true
  try {
    say(describe(await call()))
  } catch (error) {
    handle(error)
  } finally {
    if (button) button.disabled = false
    await refresh()
  }
}

const post = (path, body) => control(path, { method: 'POST', body })
/** A reset empties the account's event log (every log, without a key): the Events view reads it again. */
const reset = (body) => post('/reset', body).finally(() => (state.eventsFromStart = true))
const paymentPath = (id, verb) => `/payments/${encodeURIComponent(id)}/${verb}`
const paymentActions = {
  process: (id, button) => act(button, () => post(paymentPath(id, 'process')), (p) => `Payment ${p.id} is now ${p.status}.`),
  complete: (id, button) => act(button, () => post(paymentPath(id, 'complete')), (p) => `Payment ${p.id} is now ${p.status}.`),
  fail: (id, button) => act(button, () => post(paymentPath(id, 'fail')), (p) => `Payment ${p.id} is now ${p.status} (${p.failure_code}).`),
}
const settlementPath = (id, verb) => `/settlements/${encodeURIComponent(id)}/${verb}`
const settlementActions = {
  advance: (id, button) => act(button, () => post(settlementPath(id, 'advance')), (s) => `Settlement ${s.id} is now ${s.status}.`),
  fail: (id, button) => act(button, () => post(settlementPath(id, 'fail')), (s) => `Settlement ${s.id} is now ${s.status} (${s.failure_code}).`),
}
const deliveryActions = {
  redeliver: (id, button) =>
    act(button, () => post(`/webhooks/deliveries/${encodeURIComponent(id)}/retry`), (d) => `Delivery ${d.id} sent again: ${d.attempts.length} attempt(s), ${d.status}.`),
}

const lists = createLists({ payments: paymentActions, settlements: settlementActions, deliveries: deliveryActions }, () => void refresh())

function advance(ms, button) {
  void act(button, () => post('/clock/advance', { ms }), (clock) => `Clock advanced to ${clock.now}.`)
}

function wire() {
  byId('advance-form').addEventListener('submit', (event) => {
    event.preventDefault()
    advance(Number(byId('advance-ms').value), event.submitter)
  })
  for (const button of document.querySelectorAll('[data-advance]')) {
    button.addEventListener('click', () => advance(Number(button.dataset.advance), button))
  }
  byId('deposit-form').addEventListener('submit', (event) => {
    event.preventDefault()
    const amount = byId('deposit-amount').value.trim()
    const id = byId('deposit-wallet').value
    void act(event.submitter, () => post(`/wallets/${encodeURIComponent(id)}/deposit`, { amount }), (wallet) => {
      byId('deposit-amount').value = ''
      return `Deposited ${amount} ${wallet.currency} into ${wallet.name}: its balance is ${wallet.balance} ${wallet.currency}.`
    })
  })
  byId('account-select').addEventListener('change', (event) => {
    state.accountId = event.target.value
    sessionStorage.setItem(ACCOUNT_KEY, state.accountId)
    lists.rewind()
    say('')
    void refresh()
  })
  byId('refresh').addEventListener('click', () => {
    state.eventsFromStart = true
    void refresh()
  })
  byId('auto-refresh').addEventListener('change', (event) => (event.target.checked ? void refresh() : events.pause()))
  byId('reset-account').addEventListener('click', (event) => {
    const key = state.account?.keys[0]?.key
    if (!key || !confirm(`Reset account ${state.account.id} to its seeded state? Its keys stay valid.`)) return
    void act(event.currentTarget, () => reset({ api_key: key }), (result) => `Account ${result.account_id} is back to its seeded state.`)
  })
  byId('reset-all').addEventListener('click', (event) => {
    if (!confirm('Reset the whole sandbox to the fixtures? Accounts created since start-up are removed.')) return
    void act(event.currentTarget, () => reset({}), () => 'The sandbox is back to the fixtures.')
  })
  byId('token-form').addEventListener('submit', (event) => {
    event.preventDefault()
    controlToken.set(byId('token-input').value)
    byId('token-input').value = ''
    byId('token-form').hidden = true
    state.needsToken = false
    say('')
    void refresh()
  })
  setInterval(() => {
    if (byId('auto-refresh').checked && !document.hidden) void refresh()
  }, REFRESH_MS)
  document.addEventListener('visibilitychange', () => {
    if (document.hidden) events.pause()
    else void refresh()
  })
}

wire()
void refresh()
