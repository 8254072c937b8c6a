/**
 * Instants as text, by arithmetic: `isoOf(ms)` is `new Date(ms).toISOString()` and `httpDateOf(ms)`
 * is `new Date(ms).toUTCString()`, the same characters for every instant.
 *
 * Why not V8's own: the first time a process turns a Date into text, V8 asks the operating system
 * for the local time zone even for these two UTC forms (glibc reads /etc/localtime, ICU follows its
 * links: about fifteen system calls, 0.2 ms). A start stamps its seeded records and its first
 * answer's `Date` header, so every start paid it; these two read no time zone.
 *
 * Years 0 to 9999 only; outside them (a clock advanced past the year 9999, say) V8 formats the
 * instant, with its six-digit signed years, as does anything that is not a finite instant (which
 * throws as V8 does).
 */

const DAY_MS = 86_400_000
const WEEKDAYS = ['Thu', 'Fri', 'Sat', 'Sun', 'Mon', 'Tue', 'Wed'] as const // 1970-01-01 was a Thursday
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const
/** 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z. */
const FIRST_MS = -62_167_219_200_000
const LAST_MS = 253_402_300_799_999

const two = (n: number) => (n < 10 ? `0${n}` : `${n}`)
const three = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`)
const four = (n: number) => (n < 10 ? `000${n}` : n < 100 ? `00${n}` : n < 1000 ? `0${n}` : `${n}`)

/** An instant's UTC fields. The date from days since 1970 by Howard Hinnant's `civil_from_days`. */
interface Fields {
  year: number
  month: number // 1-12
  day: number
  weekday: number // 0 = Thursday, as WEEKDAYS
  hours: number
  minutes: number
  seconds: number
  ms: number
}

function fieldsOf(instant: number): Fields {
  const days = Math.floor(instant / DAY_MS)
  let rest = instant - days * DAY_MS
  const hours = Math.floor(rest / 3_600_000)
  rest -= hours * 3_600_000
  const minutes = Math.floor(rest / 60_000)
  rest -= minutes * 60_000
  const seconds = Math.floor(rest / 1000)
  const ms = rest - seconds * 1000
  // Days counted from 0000-03-01: each year then starts in March, so its leap day, when it has one,
  // is its last day, and a 400-year era (146,097 days) repeats the same calendar.
  const shifted = days + 719_468
  const era = Math.floor(shifted / 146_097)
  const dayOfEra = shifted - era * 146_097
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365)
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153)
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  const weekday = ((days % 7) + 7) % 7
  return { year, month, day, weekday, hours, minutes, seconds, ms }
}

/** Within the years this file formats itself: a whole number of milliseconds in 0000-9999. */
const formatsItself = (instant: number) => Number.isInteger(instant) && instant >= FIRST_MS && instant <= LAST_MS

/** `new Date(instant).toISOString()`: `2026-11-30T12:34:56.789Z`. */
export function isoOf(instant: number): string {
  if (!formatsItself(instant)) return new Date(instant).toISOString()
  const f = fieldsOf(instant)
  return `${four(f.year)}-${two(f.month)}-${two(f.day)}T${two(f.hours)}:${two(f.minutes)}:${two(f.seconds)}.${three(f.ms)}Z`
}

/** `new Date(instant).toUTCString()`, an HTTP date: `Mon, 30 Nov 2026 12:34:56 GMT`. */
export function httpDateOf(instant: number): string {
  if (!formatsItself(instant)) return new Date(instant).toUTCString()
  const f = fieldsOf(instant)
  return `${WEEKDAYS[f.weekday]}, ${two(f.day)} ${MONTHS[f.month - 1]} ${four(f.year)} ${two(f.hours)}:${two(f.minutes)}:${two(f.seconds)} GMT`
}
