// The sandbox of bench/stream.bench.mjs, run as its own process from dist/: a manual clock, so that
// the bench's `POST /_sandbox/clock/advance` makes each tick. Its process reports its own CPU over
// IPC ('cpu'), and stops on 'stop'.
const { loadConfig } = await import('../dist/config.js')
const { createSandbox } = await import('../dist/sandbox.js')
const { silentLogger } = await import('../dist/logger.js')

const config = loadConfig({ flags: { port: 0, quiet: true, rateLimit: 0, settle: 'manual', clock: 'manual', priceInterval: 1000 } })
const sandbox = await createSandbox(config, { logger: silentLogger })
const { url } = await sandbox.listen()

process.on('message', async (message) => {
  if (message === 'cpu') process.send(process.cpuUsage())
  else if (message === 'stop') {
    await sandbox.close()
    process.exit(0)
  }
})
process.send({ url })
