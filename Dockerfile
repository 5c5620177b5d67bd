# The API and the sync worker share this image; docker-compose.yml picks the command.
# Node 24 (LTS); package.json's `engines` lists every Node the code runs on.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# TypeScript and the type packages (dev dependencies) compile; this stage is thrown away. The
# embedded Elasticsearch and jongodb (optional dependencies, about 600 MB, for development and
# tests) are left out, and no install script is needed to compile.
RUN npm ci --omit=optional --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY config ./config
COPY src ./src
COPY scripts ./scripts
RUN npm run build

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
# The runtime packages need no install script (the only one reports install statistics).
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# The en/fr/de prose of the /doc document, read at start (src/api/namespace/guideFiles.ts).
COPY docs/guide ./docs/guide
USER node
EXPOSE 8080
CMD ["node", "dist/src/app/main.js"]
