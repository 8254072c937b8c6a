import { existsSync } from 'node:fs'
import { Worker } from 'node:worker_threads'
import { PostingsLog } from './postings-log.js'
import { readPostingsRegion, RegionError, type PostingsRegion } from './postings-region.js'
import type { PostingsWorkerAnswer } from './postings-worker.js'

/** Below this, starting a thread (tens of milliseconds) costs more than reading the region here. */
const WORKER_MIN_BYTES = 4 * 1024 * 1024

export interface PostingsLoad {
  /** Rejects with a RegionError when the region does not fit. */
  result: Promise<PostingsRegion>
  /** Stops a worker that is still reading (the rest of the file was refused). */
  cancel(): void
}

/**
 * Starts reading a snapshot's postings region (postings-region.ts): on a worker thread when it is
 * large and `workerFile` (the compiled postings-worker.js) is there, so that it runs beside the
 * main thread's reading of the records; otherwise on this thread. The answer is the same.
 */
export function loadPostingsRegion(path: string, start: number, end: number, workerFile: string | undefined, minWorkerBytes = WORKER_MIN_BYTES): PostingsLoad {
  if (end - start < minWorkerBytes || workerFile === undefined || !existsSync(workerFile)) {
    return { result: readPostingsRegion(path, start, end), cancel: () => {} }
  }
  const worker = new Worker(workerFile, { workerData: { path, start, end } })
  const result = new Promise<PostingsRegion>((resolve, reject) => {
    worker.once('message', (answer: PostingsWorkerAnswer) => {
      if (answer.ok) resolve({ lines: answer.lines, records: answer.records, logs: new Map(answer.logs.map(([account, columns]) => [account, PostingsLog.fromColumns(columns)])), sections: new Map(answer.sections) })
      else reject(answer.problem ? new RegionError(answer.problem) : new Error(answer.message))
      void worker.terminate()
    })
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`the thread reading the postings stopped (exit code ${code})`)))
  })
  return { result, cancel: () => void worker.terminate() }
}
