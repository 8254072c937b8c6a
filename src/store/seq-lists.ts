/** Lists of records kept sorted by `seq` (creation order): the building blocks of the payment and settlement indexes. */

export function bucket<K, T>(map: Map<K, T[]>, key: K): T[] {
  let list = map.get(key)
  if (!list) map.set(key, (list = []))
  return list
}

/** Index of the first record with seq >= `seq`. */
function lowerBound(list: ReadonlyArray<{ seq: number }>, seq: number): number {
  let low = 0
  let high = list.length
  while (low < high) {
    const mid = (low + high) >> 1
    if (list[mid]!.seq < seq) low = mid + 1
    else high = mid
  }
  return low
}

export function insertSorted<T extends { seq: number }>(list: T[], record: T): void {
  const last = list[list.length - 1]
  if (!last || last.seq < record.seq) list.push(record)
  else list.splice(lowerBound(list, record.seq), 0, record)
}

export function removeSorted<T extends { seq: number }>(list: T[], record: T): void {
  const index = lowerBound(list, record.seq)
  if (list[index] === record) list.splice(index, 1)
}
