# The shortlink-mock image: the CLI built in one stage, run in the next with the production
# dependencies and the files it reads at run time only (src/contract/package-root.ts: openapi.yaml,
# fixtures/accounts.json, scenarios/, the admin API's document and the web console).
# Build: docker build -t shortlink-mock .   (NODE_IMAGE names a registry mirror: docs/container.md)
#    or: podman build --format docker -t shortlink-mock .
#        (Podman's default, the OCI format, has no HEALTHCHECK: it would drop the one below)
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# --ignore-scripts: the package's own `preprepare` would build before the sources are here, and no
# dependency needs an install script (package.json's allowScripts).
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json openapi.yaml ./
COPY src ./src
COPY fixtures ./fixtures
RUN npm run build

FROM ${NODE_IMAGE}
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist/src ./dist/src
COPY --from=build /app/dist/fixtures ./dist/fixtures
COPY openapi.yaml ./
COPY fixtures/accounts.json ./fixtures/
COPY scenarios ./scenarios
COPY src/admin/openapi.yaml ./src/admin/
COPY src/admin/console ./src/admin/console
# The data volume belongs to the user the mock runs as (the base image's `node`, uid 1000).
RUN mkdir /data && chown node:node /data
USER node
# Defaults as environment twins, not flags: `-e MOCK_DB=redis://…` then replaces one (flags would
# win over it). 0.0.0.0: the container's port is reached from outside it. Off loopback the mock
# refuses to start without MOCK_ADMIN_TOKEN (the admin API resets data and lists every key).
ENV MOCK_HOST=0.0.0.0 MOCK_PORT=4010 MOCK_DB=/data/db.json
VOLUME /data
EXPOSE 4010
# Healthy: GET /__admin/ready (D35, no token needed) answers 200 where the mock really listens, as
# the container's listening sockets say, so `run IMAGE --port 5000`, `--host ::1` or
# `--admin-token T` are judged as they serve (the env twins above may not be what the flags made).
# No curl in slim images: a small Node script (src/process/healthcheck.ts).
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "dist/src/process/healthcheck-main.js"]
# Exec form: node is PID 1 and gets SIGTERM itself; the mock finishes requests in flight, folds its
# change log into /data/db.json and exits 0.
ENTRYPOINT ["node", "dist/src/cli.js"]
