# syntax=docker/dockerfile:1
# The Ferry server image (docs/deployment.md):
#   docker build -t ferry-server --build-arg VITE_CERT_AES_KEY=<base64 key> .
# The build stage runs scripts/build-server-bundle.sh, the same script test/deployment runs and
# starts, so what this image holds is tested without a container runtime.
# The Node line .ci/run tests in full (scripts/node-versions.json; engines.node lists the others).
ARG NODE_VERSION=24

FROM node:${NODE_VERSION}-bookworm-slim AS build
# npm runs better-sqlite3's node-gyp step, which needs python3 and make even where it finds the
# package's prebuilt binary and compiles nothing; g++ for a platform without one, and for
# bsdiff-node (bundle patches), which is always compiled here (its C sources carry bzip2).
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# The web funnel embeds the environment's certificate key at build time (docs/web.md). Without it
# the page is built for development and a production server refuses to serve it.
ARG VITE_CERT_AES_KEY=""
ENV VITE_CERT_AES_KEY=${VITE_CERT_AES_KEY}
RUN npm ci --no-audit --no-fund \
  && bash scripts/build-server-bundle.sh /opt/ferry

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/var/lib/ferry
WORKDIR /opt/ferry
# Production dependencies only: the bundle has no compiler, test tool or build tool in it.
COPY --from=build /opt/ferry /opt/ferry
RUN mkdir -p /var/lib/ferry && chown node:node /var/lib/ferry
USER node
EXPOSE 3000
# Readiness (/readyz): unhealthy when the instance can serve nothing, which includes a database it
# cannot reach unless it still holds manifests it may serve (`degraded`). No curl in slim images;
# Node's fetch does it.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node is PID 1's command (no shell in between), so SIGTERM reaches the server, which stops taking
# connections, finishes in-flight requests (10 s at most) and exits 0.
STOPSIGNAL SIGTERM
CMD ["node", "node_modules/@ferry/server/bin/ferry-server.js"]
