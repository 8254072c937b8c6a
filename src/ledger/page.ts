/** One page of records kept in creation order, newest first (the order of every list). */
export function newestFirst<T>(records: Iterable<T>, keep: (record: T) => boolean, offset: number, limit: number): { items: T[]; total: number } {
  const matching: T[] = []
  for (const record of records) if (keep(record)) matching.push(record)
  matching.reverse()
  return { items: matching.slice(offset, offset + limit), total: matching.length }
}
