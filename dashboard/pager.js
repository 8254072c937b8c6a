// Paging of one list of the page: which rows it shows, the "14 rows · showing 1–10" line, and the
// Previous / Next buttons. Its markup is `<nav class="pager" data-pager="<list>">` in index.html.

import { el } from './dom.js'

export const PAGE_SIZE = 10

/** `onChange()` runs after a click moved to another page. */
export function createPager(name, onChange) {
  const nav = document.querySelector(`[data-pager="${name}"]`)
  let offset = 0
  let total = 0
  const count = el('span', { class: 'count', dataset: { field: 'count' } })
  const previous = el('button', { type: 'button', onclick: () => move(-PAGE_SIZE) }, 'Previous')
  const next = el('button', { type: 'button', onclick: () => move(PAGE_SIZE) }, 'Next')
  nav.replaceChildren(count, previous, next)

  function move(by) {
    offset = Math.max(0, offset + by)
    onChange()
  }

  return {
    /** The query of the page to read: `limit=10&offset=20`. */
    get page() {
      return { limit: PAGE_SIZE, offset }
    },
    /**
     * Takes the list's total after a read. Answers true when the page shown is past the end (rows
     * went away, say after a reset): the offset then moves to the last page, which is to be read.
     */
    settle(newTotal) {
      total = newTotal
      const last = total === 0 ? 0 : Math.floor((total - 1) / PAGE_SIZE) * PAGE_SIZE
      if (offset <= last) return false
      offset = last
      return true
    },
    /** Back to the first page (another account was chosen). */
    rewind() {
      offset = 0
    },
    render(shown) {
      const rows = `${total} ${total === 1 ? 'row' : 'rows'}`
      count.textContent = total > PAGE_SIZE ? `${rows} · showing ${offset + 1}–${offset + shown}` : rows
      previous.hidden = next.hidden = total <= PAGE_SIZE
      previous.disabled = offset === 0
      next.disabled = offset + PAGE_SIZE >= total
    },
  }
}
