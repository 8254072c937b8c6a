import { EVENT_TYPES, type EventType } from '../../../model/events.js'
import type { SandboxEvent } from '../../../client/control-types.js'
import type { Printer } from '../printer.js'
import { paintEventType } from '../styles.js'
import { TerminalError, type Connection } from '../target.js'
import type { ApiObject, Recipe, TriggerSteps } from './recipe.js'
import { PATH_OF, RECIPES, RESOURCE_OF_PREFIX } from './recipes.js'
import { parseSets } from './sets.js'
import { newestEvent } from '../event-cursor.js'

export interface TriggerOptions {
  sets: readonly string[]
  on?: string
  /** Each step as it happens (`created pay_…`, `payment.failed evt_…`); nothing with --json. */
  print: Printer
}

export interface TriggerReport {
  objects: Array<{ object: string; id: string }>
  events: Array<{ type: string; id: string }>
}

/** How long the event may take to show on the events route once the object was driven. */
const CONFIRM_MS = 10_000

/**
 * `wallet-sandbox trigger <type>` (CONTRACT.md section 21): makes the event happen on the key's
 * account, from an object it creates or the one `--on` names, and confirms it through
 * `GET /_sandbox/events` instead of assuming it. Every event of the objects involved is reported.
 */
export async function runTrigger(connection: Connection, type: string, options: TriggerOptions): Promise<TriggerReport> {
  const recipe = recipeOf(type)
  if (options.on !== undefined && options.sets.length > 0) throw new TerminalError('--set changes what trigger creates and --on drives an object that exists: give one or the other')
  // Every field is checked before anything is created.
  const overrides = options.on === undefined ? parseSets(options.sets, recipe.fields, recipe.resource) : {}
  const report: TriggerReport = { objects: [], events: [] }
  const seen: SandboxEvent[] = []
  const followed = new Set<string>()
  // The account's events are read on from here, in the order they happen; those of the objects followed are reported.
  let { after: cursor } = await newestEvent(connection)

  /** Reports the new events of the objects followed; `waitMs`: wait that long for the account's next event. */
  async function follow(waitMs = 0): Promise<void> {
    for (let more = true; more; ) {
      const page = await connection.control.events({ api_key: connection.target.apiKey, after: cursor, wait: waitMs })
      for (const event of page.data) {
        cursor = event.id
        if (!followed.has((event.data.object as { id?: string }).id ?? '')) continue
        seen.push(event)
        report.events.push({ type: event.type, id: event.id })
        options.print(`${paintEventType(options.print.paint, event.type)} ${event.id}`)
      }
      more = page.has_more
      waitMs = 0
    }
  }
  const steps: TriggerSteps = {
    connection,
    async created(...objects) {
      for (const object of objects) {
        report.objects.push({ object: object.object, id: object.id })
        followed.add(object.id)
        options.print(`created ${object.id}`)
      }
      await follow()
    },
    async call(line, make) {
      options.print(options.print.paint('dim', line))
      const result = await make()
      await follow()
      return result
    },
  }

  let object: ApiObject
  if (options.on === undefined) {
    object = await recipe.create(steps, overrides)
  } else {
    object = await existing(connection, type, recipe, options.on)
    report.objects.push({ object: object.object, id: object.id })
    followed.add(object.id)
  }
  await recipe.drive?.(steps, object)
  // Confirmed on the events route, not assumed.
  const deadline = performance.now() + CONFIRM_MS
  while (!seen.some((event) => event.type === type && (event.data.object as { id?: string }).id === object.id)) {
    const left = Math.ceil(deadline - performance.now())
    if (left <= 0) {
      const now = await connection.api<ApiObject>('GET', `${PATH_OF[recipe.resource]}/${object.id}`)
      throw new TerminalError(`${type} did not happen within ${CONFIRM_MS / 1000} s: ${object.object} ${object.id} is ${now.status}${now.failure_code ? ` (${now.failure_code})` : ''}`)
    }
    await follow(Math.min(left, 5000))
  }
  return report
}

function recipeOf(type: string): Recipe {
  if ((EVENT_TYPES as readonly string[]).includes(type)) return RECIPES[type as EventType]
  const near = EVENT_TYPES.filter((known) => known.startsWith(`${type.split('.')[0]}.`))
  throw new TerminalError(`there is no event type ${JSON.stringify(type)}; ${near.length > 0 ? `the ${type.split('.')[0]} events are ${near.join(', ')}` : 'wallet-sandbox trigger --list lists them'}`)
}

/** The object `--on` names, if it is of the event's resource and in a state the event can come from. */
async function existing(connection: Connection, type: string, recipe: Recipe, id: string): Promise<ApiObject> {
  if (!recipe.onStates || !recipe.drive) throw new TerminalError(`${type} happens when ${a(recipe.resource)} is created; --on drives one that exists: leave it out`)
  const resource = RESOURCE_OF_PREFIX[id.split('_')[0]!]
  if (resource !== recipe.resource) throw new TerminalError(`${type} needs ${a(recipe.resource)}; ${id} is ${resource ? a(resource) : 'not an id the sandbox gives'}`)
  const object = await connection.api<ApiObject>('GET', `${PATH_OF[resource]}/${encodeURIComponent(id)}`)
  if (!recipe.onStates.includes(object.status)) {
    throw new TerminalError(`${recipe.resource} ${id} is ${object.status}; ${type} can come from ${a(recipe.resource)} that is ${recipe.onStates.join(' or ')}`)
  }
  return object
}

/** `a payment`, `an order`. */
export const a = (resource: string) => `${/^[aeiou]/.test(resource) ? 'an' : 'a'} ${resource}`
