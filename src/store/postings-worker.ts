import { parentPort, workerData } from 'node:worker_threads'
import type { PostingsColumns } from './postings-log.js'
import { readPostingsRegion, RegionError, type RegionProblem, type SectionBytes } from './postings-region.js'

/**
 * A worker thread's entry (started by postings-loader.ts): reads a snapshot's postings region and
 * hands back each account's log as columns, its typed arrays transferred rather than copied.
 */
export type PostingsWorkerAnswer =
  | { ok: true; lines: number; records: number; logs: Array<[account: string, columns: PostingsColumns]>; sections: Array<[account: string, bytes: SectionBytes]> }
  | { ok: false; problem: RegionProblem | undefined; message: string }

const { path, start, end } = workerData as { path: string; start: number; end: number }

readPostingsRegion(path, start, end).then(
  ({ logs, sections, lines, records }) => {
    const columns = [...logs].map(([account, log]): [string, PostingsColumns] => [account, log.columns()])
    const buffers = columns.flatMap(([, c]) => [c.txCause, c.txAt, c.txFirstLine, c.txRefEnd, c.refBytes, c.lineAccount, c.lineLo, c.lineHi].map((array) => array.buffer as ArrayBuffer))
    parentPort!.postMessage({ ok: true, lines, records, logs: columns, sections: [...sections] } satisfies PostingsWorkerAnswer, [...new Set(buffers)])
  },
  (error: unknown) => {
    parentPort!.postMessage({ ok: false, problem: error instanceof RegionError ? error.where : undefined, message: (error as Error).message } satisfies PostingsWorkerAnswer)
  },
)
