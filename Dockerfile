# syntax=docker/dockerfile:1
# The reference server as an image: `docker build -t frontdoor .` (docs/deploy.md).
# Stage "build" compiles the app (dist/app) and the server (dist/server) with every dependency;
# stage "runtime" installs the production dependencies only (`npm ci --omit=dev`) and runs
# `node dist/server/main.js` as the unprivileged user `node`: no tsx, no sources, no dev tools.
ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
# better-sqlite3 compiles from source when no prebuilt binary matches.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# npm ci runs the root "prepare" script, which builds the validators package from its sources.
COPY packages/validators packages/validators
RUN npm ci --no-audit --no-fund
COPY . .
RUN NODE_ENV=production npm run build

FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/validators packages/validators
# Production dependencies only; the compilers are removed in the same layer.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && npm ci --omit=dev --no-audit --no-fund \
 && npm cache clean --force \
 && apt-get purge -y python3 make g++ \
 && apt-get autoremove -y \
 && rm -rf /var/lib/apt/lists/* /root/.cache /tmp/*
COPY --from=build /app/dist/server dist/server
COPY --from=build /app/dist/catalogue dist/catalogue
COPY --from=build /app/dist/tooling dist/tooling
COPY --from=build /app/dist/app dist/app
COPY schemas schemas
# Without DATABASE_URL the server keeps its SQLite file in data/app.sqlite: the volume /app/data.
RUN mkdir -p /app/data && chown node:node /app/data
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080
USER node
VOLUME ["/app/data"]
EXPOSE 8080
# Ready = the process answers and so does the database (GET /readyz).
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "dist/server/main.js"]
