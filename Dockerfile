# wallet-sandbox as a container: docker build -t wallet-sandbox . && docker run --rm -p 4400:4400 wallet-sandbox
# Configure it with WALLET_SANDBOX_* variables (every flag has one), e.g. -e WALLET_SANDBOX_SETTLE=instant.

# --- build: compile TypeScript to dist/, bundle the CLI and make its V8 code cache -------------
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY scripts ./scripts
# The build starts the CLI once to make the code cache, which reads the fixtures; the cache
# fits the runtime stage because both stages run the same Node.
COPY fixtures ./fixtures
RUN npm run build

# --- runtime: production dependencies and compiled code only ------------------------------
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    WALLET_SANDBOX_HOST=0.0.0.0 \
    WALLET_SANDBOX_PORT=4400
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY fixtures ./fixtures
COPY dashboard ./dashboard
# A writable place for --data-file (WALLET_SANDBOX_DATA_FILE=/data/ledger.json); mount a volume here to keep it.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 4400
# No curl in the image: bin/health-check.js asks the health endpoint (which needs no control token)
# with node's own fetch, on the address WALLET_SANDBOX_HOST and WALLET_SANDBOX_PORT give (so change
# the port with that variable, not with --port). A CI service's --health-cmd runs the same command.
# The timeout leaves room for a busy runner: starting node in the container alone took 2 to 3 s on a
# loaded 2-core machine, so 3 s failed the check of a sandbox that answered at once.
HEALTHCHECK --interval=10s --timeout=10s --start-period=5s --retries=3 \
  CMD ["node", "bin/health-check.js"]
# node runs as PID 1: the CLI handles SIGTERM and SIGINT itself (close, flush, exit 0), and the
# sandbox starts no child processes, so no init process is needed (`docker run --init` works too).
STOPSIGNAL SIGTERM
# Arguments after the image name are flags: docker run wallet-sandbox --settle manual (or: fixtures).
ENTRYPOINT ["node", "bin/wallet-sandbox.js"]
