# syntax=docker/dockerfile:1
# The reference server as an image: `docker build -t frontdoor .` (docs/deploy.md).
# Stage "build" compiles the app (dist/app) and the server (dist/server) with every dependency;
# stage "production-deps" is that node_modules without the devDependencies (`npm prune --omit=dev`:
# better-sqlite3 stays compiled for this image's Node, no compiler needed later); stage "runtime"
# holds only the compiled server and app, the files they read (schemas/, locales/) and those
# dependencies, and runs `node dist/server/main.js` as the unprivileged user `node`: no tsx, no
# sources, no dev tools. tests/build/runtime-stage.test.ts assembles the runtime stage from these
# COPY lines and starts it.
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

FROM build AS production-deps
RUN npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
# package.json: "type": "module" for dist/, the version /ws/openapi.json reports.
COPY package.json package-lock.json ./
COPY --from=production-deps /app/node_modules node_modules
# The workspace package node_modules/@frontdoor/validators links to: its manifest and build.
COPY --from=build /app/packages/validators/package.json packages/validators/package.json
COPY --from=build /app/packages/validators/dist packages/validators/dist
COPY --from=build /app/dist/server dist/server
COPY --from=build /app/dist/catalogue dist/catalogue
COPY --from=build /app/dist/tooling dist/tooling
COPY --from=build /app/dist/app dist/app
# Read at run time: the API contract and shared lists (schemas/), the email and text messages and the
# product's name (locales/).
COPY schemas schemas
COPY locales locales
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
