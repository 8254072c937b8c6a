// DOM building without HTML parsing: every piece of data becomes a text node or an attribute value,
// so a wallet named "<img onerror=…>" shows as those characters and never runs.

/**
 * `el('td', { class: 'mono', title: address }, address)`. Props starting with `on` are listeners;
 * `dataset` sets data-* attributes; other props are attributes (skipped when null, undefined or false).
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue
    if (name.startsWith('on')) node.addEventListener(name.slice(2), value)
    else if (name === 'dataset') Object.assign(node.dataset, value)
    else node.setAttribute(name, value === true ? '' : String(value))
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue
    node.append(child instanceof Node ? child : String(child))
  }
  return node
}

export const byId = (id) => document.getElementById(id)

/**
 * Replaces a table's rows, or shows one row saying why it is empty. Each cell gets its column's
 * heading as `data-label`: on a narrow screen the stylesheet shows a row as a labelled block.
 */
export function fillTable(table, rows, emptyText) {
  const body = table.tBodies[0]
  const headings = [...table.tHead.rows[0].cells].map((cell) => cell.textContent)
  for (const row of rows) [...row.cells].forEach((cell, index) => (cell.dataset.label = headings[index] ?? ''))
  body.replaceChildren(...(rows.length > 0 ? rows : [el('tr', { class: 'empty' }, el('td', { colspan: headings.length }, emptyText))]))
}

/** Replaces a select's options and keeps the chosen value when it is still offered. */
export function fillSelect(select, options, preferred = select.value) {
  select.replaceChildren(...options.map(({ value, label }) => el('option', { value }, label)))
  if (options.some((option) => option.value === preferred)) select.value = preferred
}

/** A status as a coloured badge; the class is chosen from a fixed list, never taken from data. */
const BADGES = new Set(['pending', 'processing', 'completed', 'failed', 'cancelled', 'refunded', 'partially_failed', 'succeeded', 'active', 'enabled', 'frozen', 'disabled', 'closed'])
export const badge = (status) => el('span', { class: `badge ${BADGES.has(status) ? status : ''}`, dataset: { field: 'status' } }, status)

export const mono = (text, props = {}) => el('td', { class: 'mono', title: text, ...props }, text ?? '—')
