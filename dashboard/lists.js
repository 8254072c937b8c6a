// The account's paged lists: how each draws one page, its pager, and the read of the page shown.
// (The Events view reads and pages on its own: views-events.js.)

import { createPager } from './pager.js'
import { READS } from './reads.js'
import { renderOrders, renderPayments, renderPayouts, renderWallets } from './views-money.js'
import { renderSettlements } from './views-settlements.js'
import { renderFaults, renderOutcomes } from './views-sandbox.js'
import { renderRequests, wireRequestFilters } from './views-requests.js'
import { renderDeliveries, renderEndpoints, renderWhitelist } from './views-setup.js'

/** `actions`: the rows' buttons, `{ payments, settlements, deliveries }`; `onPage()` runs after a click on Previous or Next. */
export function createLists(actions, onPage) {
  /** How each list draws one page: `(page, account)`; the list names are those of READS (reads.js). */
  const LISTS = {
    wallets: renderWallets,
    payments: (page) => renderPayments(page, actions.payments),
    payouts: renderPayouts,
    orders: renderOrders,
    settlements: (page) => renderSettlements(page, actions.settlements),
    endpoints: renderEndpoints,
    deliveries: (page) => renderDeliveries(page, actions.deliveries),
    whitelist: renderWhitelist,
    outcomes: renderOutcomes,
    faults: renderFaults,
    requests: renderRequests,
  }
  const pagers = Object.fromEntries(Object.keys(LISTS).map((name) => [name, createPager(name, onPage)]))
  wireRequestFilters(() => {
    pagers.requests.rewind()
    onPage()
  })

  /** One page of a list; read again at the last page when the one shown has gone (fewer rows now). */
  async function readList(name, accountId) {
    const pager = pagers[name]
    const page = await READS[name](accountId, pager.page)
    if (!pager.settle(page.total)) return page
    const last = await READS[name](accountId, pager.page)
    pager.settle(last.total)
    return last
  }

  return {
    /** Reads the page shown of every list of the account; `show(part, data, render)` redraws the lists whose rows changed. */
    async refresh(account, show) {
      const id = encodeURIComponent(account.id)
      const names = Object.keys(LISTS)
      const pages = await Promise.all(names.map((name) => readList(name, id)))
      names.forEach((name, index) => {
        const data = { page: pages[index], offset: pagers[name].page.offset, account }
        show(name, data, () => {
          LISTS[name](data.page, account)
          pagers[name].render(data.page.items.length)
        })
      })
    },
    /** Back to the first page of each list (another account was chosen). */
    rewind() {
      for (const pager of Object.values(pagers)) pager.rewind()
    },
  }
}
