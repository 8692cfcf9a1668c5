# Paybase's production image (docs/operations.md, "Containers"). Built once per release; every
# web node, worker and migration step runs this same image, so every node serves the same build.
# It calls the scripts CI runs: `npm install`, `npm run build`, then scripts/start.ts,
# scripts/worker.ts or scripts/migrate.ts.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages ./packages
RUN npm install --no-audit --no-fund
COPY . .
# Optional, for builds of the same release made on several machines (docs/operations.md,
# "One build everywhere"): the same values give the same build id and server-action ids.
ARG NEXT_DEPLOYMENT_ID
ARG NEXT_SERVER_ACTIONS_ENCRYPTION_KEY
RUN npm run build

FROM node:20-bookworm-slim
ENV APP_ENV=production \
    NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/var/lib/paybase
RUN useradd --system --uid 10001 --user-group --home-dir /var/lib/paybase --create-home paybase
WORKDIR /app
# Owned by root and read-only to the service user: it writes only to DATA_DIR.
COPY --from=build /app /app
USER paybase
EXPOSE 3000
# Liveness; balancers should use GET /api/health/ready (docs/operations.md, "Health and logs").
HEALTHCHECK --interval=10s --timeout=3s CMD ["node", "-e", "fetch('http://127.0.0.1:3000/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself, not npm, as the process: SIGTERM reaches the server, which drains (docs/operations.md, "Stopping a web node").
CMD ["node", "--import", "tsx", "scripts/start.ts"]
