// The lists where money shows: wallets (available, locked and total), payments, bulk payouts and orders.

import { badge, byId, el, fillSelect, fillTable, mono } from './dom.js'
import { formatMoney, groupThousands } from './format.js'

const amountCell = (field, amount) => el('td', { class: 'num', dataset: { field } }, amount === undefined ? '—' : groupThousands(amount))

/** `page.items`: `{ wallet, balance }`; the deposit form offers the wallets of the page shown. */
export function renderWallets(page) {
  const rows = page.items.map(({ wallet, balance }) =>
    el('tr', { dataset: { id: wallet.id } },
      el('td', {}, wallet.name),
      el('td', {}, wallet.type),
      el('td', {}, `${wallet.currency} · ${wallet.network}`),
      amountCell('available', balance?.available_balance),
      amountCell('locked', balance?.locked_balance),
      amountCell('total', balance?.total_balance ?? wallet.balance),
      el('td', {}, badge(wallet.status)),
      mono(wallet.address),
      mono(wallet.id),
    ),
  )
  fillTable(byId('wallets'), rows, 'This account has no wallets.')
  const open = page.items.map(({ wallet }) => wallet).filter((wallet) => wallet.status !== 'closed')
  fillSelect(byId('deposit-wallet'), open.map((wallet) => ({ value: wallet.id, label: `${wallet.name} · ${wallet.network} ${wallet.currency} · ${wallet.id}` })))
}

/** `actions`: `{ process(id, button), complete(id, button), fail(id, button) }`. */
export function renderPayments(page, actions) {
  const rows = page.items.map((payment) => {
    const open = payment.status === 'pending' || payment.status === 'processing'
    const button = (label, act) => el('button', { type: 'button', onclick: (event) => act(payment.id, event.currentTarget) }, label)
    return el('tr', { dataset: { id: payment.id } },
      mono(payment.created_at),
      mono(payment.id),
      el('td', { class: 'num', dataset: { field: 'amount' } }, formatMoney(payment.amount, payment.currency)),
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

export function renderPayouts(page) {
  const rows = page.items.map((payout) =>
    el('tr', { dataset: { id: payout.id } },
      mono(payout.created_at),
      mono(payout.id),
      el('td', { class: 'num', dataset: { field: 'total' } }, formatMoney(payout.total_amount, payout.currency)),
      el('td', { class: 'num', dataset: { field: 'items' } }, payout.item_count),
      el('td', {}, badge(payout.status)),
      mono(payout.source),
    ),
  )
  fillTable(byId('payouts'), rows, 'No bulk payouts yet.')
}

/** Orders, newest first: what is filled of each, at what prices, and what remains open. */
export function renderOrders(page) {
  const rows = page.items.map((order) =>
    el('tr', { dataset: { id: order.id } },
      mono(order.created_at),
      mono(order.id),
      el('td', {}, `${order.side} ${order.pair}`),
      el('td', {}, order.type === 'limit' ? `limit ${order.limit_price} · ${order.time_in_force}` : 'market'),
      el('td', { class: 'num', dataset: { field: 'filled' } }, `${groupThousands(order.filled_amount)} / ${groupThousands(order.amount)}`),
      el('td', {}, badge(order.status)),
      el('td', { dataset: { field: 'fills' } }, order.fills.map((fill) => `${fill.amount} @ ${fill.price}`).join(' · ')),
      el('td', { class: 'num' }, formatMoney(order.fee, order.fee_currency)),
    ),
  )
  fillTable(byId('orders'), rows, 'No orders yet.')
}
