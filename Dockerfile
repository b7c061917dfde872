# syntax=docker/dockerfile:1
#
# The service in a container (README, "Going live" → "Docker"). Two stages: the build compiles TypeScript with the
# dev dependencies; the runtime holds only the compiled service, its SQL migrations, config/ and the production
# dependencies, and runs as the unprivileged `node` user.
#
#   docker build -t predmkt-data-service .
#   docker run -p 127.0.0.1:8080:8080 -v predmkt-data:/data -e VENUES=live predmkt-data-service
#
# Debian slim, not Alpine: uWebSockets.js ships prebuilt binaries for glibc only.

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
# Only src/ is in the context of this stage, so only the service is compiled (not test/ or bench/); then the
# dashboard's browser modules, which have their own tsconfig (DOM types).
RUN npx tsc -p tsconfig.json && npx tsc -p src/dashboard/web/tsconfig.json

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist/src ./dist/src
# migrate.ts reads the .sql files beside the compiled module; tsc does not copy them.
COPY src/store/migrations ./dist/src/store/migrations
# default.json and live.json (VENUES=live), matches.json and match-calibration.json: read from /app/config.
COPY config ./config
# DATA_DIR: the embedded store (when DATABASE_URL is unset) and the simulator's key files.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 8080
# 200 once every venue's catalog is loaded, every streamed book synced and the read models built. Live, the first
# catalog sync takes minutes (README, "Going live"), hence the long start period; without venuek credentials the
# service never becomes ready and the container stays unhealthy (it still serves what it has).
HEALTHCHECK --interval=30s --timeout=5s --start-period=15m --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz').then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop) shuts down gracefully: stop accepting, stop feeds and actors, flush, close the store.
# The V8 flags are the service's own (src/service-node-flags.ts says why).
CMD ["node", "--max-semi-space-size=32", "dist/src/main.js"]
